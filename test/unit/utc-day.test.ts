/** The day a key's use is recorded under (shared/auth/api-key-lifetime.ts utcDay), the date of a timestamp formatted once a second. */
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/auth/api-key-lifetime';

const at = (iso: string) => Date.parse(iso);

describe('utcDay', () => {
  it('changes at midnight UTC, not a millisecond before', () => {
    expect([utcDay(at('2026-11-26T23:59:59.999Z')), utcDay(at('2026-11-27T00:00:00.000Z'))]).toEqual(['2026-11-26', '2026-11-27']);
  });

  it('answers an earlier day after a later one (a clock set back)', () => {
    utcDay(at('2026-11-27T12:00:00.000Z'));
    expect(utcDay(at('2026-11-25T08:00:00.000Z'))).toBe('2026-11-25');
  });

  it('answers the same day as the date it names, across a leap day', () => {
    expect(['2028-02-28T23:00:00Z', '2028-02-29T00:30:00Z', '2028-03-01T00:00:00Z'].map((iso) => utcDay(at(iso)))).toEqual([
      '2028-02-28',
      '2028-02-29',
      '2028-03-01',
    ]);
  });

  it('refuses a time that is no number, as formatting an invalid Date would', () => {
    expect(() => utcDay(Number.NaN)).toThrow(RangeError);
  });
});
