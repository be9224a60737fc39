/**
 * Wall-clock time in zones beyond the slot grid's Berlin and Helsinki (test/unit/slots.test.ts): a change
 * of half an hour, the southern hemisphere, an offset of 5:45, a reading across midnight. Every expected
 * instant was worked out from the IANA database independently (Python's zoneinfo).
 */
import { describe, expect, it } from 'vitest';
import { instantsAtWallTime, wallClockOf } from '../../shared/domain/wall-clock';

const iso = (instants: number[]) => instants.map((instant) => new Date(instant).toISOString());
const minuteOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

describe('the instants at a wall time', () => {
  it('are two, half an hour apart, for a time Lord Howe Island repeats when it turns its clocks back 30 minutes', () => {
    expect(iso(instantsAtWallTime('2026-04-05', minuteOf('01:45'), 'Australia/Lord_Howe'))).toEqual(['2026-04-04T14:45:00.000Z', '2026-04-04T15:15:00.000Z']);
  });

  it('are none for a time Sydney skips in its October spring forward', () => {
    expect(instantsAtWallTime('2026-10-04', minuteOf('02:30'), 'Australia/Sydney')).toEqual([]);
  });

  it('are one, at the zone offset of 5:45, in Kathmandu', () => {
    expect(iso(instantsAtWallTime('2026-06-01', minuteOf('10:00'), 'Asia/Kathmandu'))).toEqual(['2026-06-01T04:15:00.000Z']);
  });
});

describe('the wall clock of an instant', () => {
  it("reads the zone's date, which may be the next day's", () => {
    expect(wallClockOf(new Date('2026-03-28T23:30:00Z'), 'Asia/Tokyo')).toEqual({ date: '2026-03-29', time: '08:30' });
  });
});
