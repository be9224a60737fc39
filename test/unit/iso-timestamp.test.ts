/** The timestamp of every log line and the day of a key's use (shared/iso-timestamp.ts), against Date's own formatting. */
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../shared/iso-timestamp';

describe('the timestamp', () => {
  it("is Date's ISO form, to the millisecond, within a second and across its boundaries", () => {
    const second = Date.UTC(2026, 10, 27, 8, 15, 42);
    // In the order a container meets them: the same second again, the next, a day later, a leap day, before 1970.
    const instants = [
      second,
      second + 7,
      second + 999,
      second + 1000,
      second + 1042,
      second + 86_400_000 + 5,
      Date.UTC(2028, 1, 29, 23, 59, 59, 999),
      -1,
      -1001,
    ];
    expect(instants.map((ms) => isoTimestamp(ms))).toEqual(instants.map((ms) => new Date(ms).toISOString()));
  });
});
