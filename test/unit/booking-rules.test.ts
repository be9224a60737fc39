/** The booking rules of shared/domain/booking.ts, at a fixed `now`. */
import { describe, expect, it } from 'vitest';
import { bookableSlot, slotAt } from '../../shared/domain/booking';
import type { ScheduledLocation } from '../../shared/domain/location-schedule';

const weekday = [{ open: '07:30', close: '18:00' }];
const mitte: ScheduledLocation = {
  name: 'Berlin Mitte',
  timezone: 'Europe/Berlin',
  open_hours: {
    monday: weekday,
    tuesday: weekday,
    wednesday: weekday,
    thursday: weekday,
    friday: weekday,
    saturday: [],
    sunday: [{ open: '01:00', close: '04:00' }],
  },
  slot_minutes: 15,
  capacity_per_slot: 2,
  closures: [{ date: '2026-12-24', reason: 'Christmas Eve' }],
};
const now = new Date('2026-12-01T07:00:00Z'); // Tuesday 08:00 in Berlin
const refusal = (instant: string) => {
  try {
    bookableSlot('scheduled_at', mitte, instant, now);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('bookableSlot', () => {
  it('answers the slot an instant starts, 15 minutes long', () => {
    const slot = bookableSlot('scheduled_at', mitte, '2026-12-01T08:00:00Z', now);
    expect([slot.start.toISOString(), slot.end.toISOString()]).toEqual(['2026-12-01T08:00:00.000Z', '2026-12-01T08:15:00.000Z']);
  });

  it('refuses a slot less than 30 minutes ahead', () => {
    expect(refusal('2026-12-01T07:15:00Z')).toBe('scheduled_at must be at least 30 minutes ahead');
  });

  it('takes a slot exactly 30 minutes ahead', () => {
    expect(refusal('2026-12-01T07:30:00Z')).toBeUndefined();
  });

  it('refuses a past instant as in the past', () => {
    expect(refusal('2026-12-01T06:45:00Z')).toBe('scheduled_at must be in the future');
  });

  it('refuses an instant beyond the 365-day horizon', () => {
    expect(refusal('2027-12-02T08:00:00Z')).toBe('scheduled_at must be at most 365 days ahead');
  });

  it('names a closure and its reason', () => {
    expect(refusal('2026-12-24T09:00:00Z')).toBe('Berlin Mitte is closed on 2026-12-24 (Christmas Eve)');
  });

  it('refuses the second 02:30 of the night clocks go back, which has no slot of its own', () => {
    // 2027-10-31 (a Sunday) repeats 02:00–03:00 in Berlin: 02:30 is 00:30Z (CEST) and again 01:30Z (CET).
    expect(slotAt('scheduled_at', mitte, new Date('2027-10-31T00:30:00Z'))).toHaveProperty('slot');
    expect(slotAt('scheduled_at', mitte, new Date('2027-10-31T01:30:00Z'))).toMatchObject({ problem: { code: 'not_a_slot_start' } });
  });

  it('has no hours for a location whose hours are unknown', () => {
    expect(slotAt('scheduled_at', { ...mitte, open_hours: null }, new Date('2026-12-02T08:00:00Z'))).toEqual({
      problem: { code: 'hours_unknown', message: 'Berlin Mitte has no known opening hours and takes no bookings' },
    });
  });
});
