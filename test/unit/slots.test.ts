/**
 * The slot grid (shared/domain/slots.ts) in the location's wall clock, across both daylight-saving
 * changes of Europe/Berlin (02:00 → 03:00 on 29 March 2026, 03:00 → 02:00 on 25 October 2026) and
 * Europe/Helsinki (an hour later in wall time: 03:00 → 04:00 and 04:00 → 03:00, the same instants).
 */
import { describe, expect, it } from 'vitest';
import type { OpenHours } from '../../shared/domain/location-schedule';
import { type Schedule, slotsBetween, slotsOn, slotStartingAt } from '../../shared/domain/slots';
import { wallClockOf } from '../../shared/domain/wall-clock';

const everyDay = (open: string, close: string): OpenHours => ({
  monday: [{ open, close }],
  tuesday: [{ open, close }],
  wednesday: [{ open, close }],
  thursday: [{ open, close }],
  friday: [{ open, close }],
  saturday: [{ open, close }],
  sunday: [{ open, close }],
});

const schedule = (timeZone: string, openHours: OpenHours, slotMinutes = 30, closures: Schedule['closures'] = []): Schedule => ({
  timeZone,
  openHours,
  slotMinutes,
  closures,
});
const starts = (slots: { start: Date }[]) => slots.map((slot) => slot.start.toISOString().replace(':00.000Z', 'Z'));

describe('the slot grid', () => {
  it('lays slots from the opening time while a whole slot fits before closing, as UTC instants', () => {
    const berlin = schedule('Europe/Berlin', { ...everyDay('07:30', '09:10') });
    // 25 November 2026, Berlin on CET (UTC+1).
    expect(starts(slotsOn('2026-11-25', berlin))).toEqual(['2026-11-25T06:30Z', '2026-11-25T07:00Z', '2026-11-25T07:30Z']);
  });

  it('ends each slot slot_minutes after its start', () => {
    const [first] = slotsOn('2026-11-25', schedule('Europe/Berlin', everyDay('07:30', '09:00'), 15));
    expect(first!.end.getTime() - first!.start.getTime()).toBe(15 * 60_000);
  });

  it('lays the ranges of a day with a lunch break, in order', () => {
    const hours = {
      ...everyDay('08:00', '09:00'),
      wednesday: [
        { open: '08:00', close: '09:00' },
        { open: '13:00', close: '14:00' },
      ],
    };
    expect(starts(slotsOn('2026-11-25', schedule('Europe/Berlin', hours, 60)))).toEqual(['2026-11-25T07:00Z', '2026-11-25T12:00Z']);
  });

  it('has no slots on a weekday without ranges', () => {
    expect(slotsOn('2026-11-29', schedule('Europe/Berlin', { ...everyDay('08:00', '12:00'), sunday: [] }))).toEqual([]);
  });

  it('has no slots on a closure date', () => {
    expect(slotsOn('2026-12-25', schedule('Europe/Berlin', everyDay('08:00', '12:00'), 30, [{ date: '2026-12-25', reason: null }]))).toEqual([]);
  });

  it('lists every date of a range, both ends included', () => {
    const slots = slotsBetween('2026-11-23', '2026-11-29', schedule('Europe/Helsinki', everyDay('08:00', '09:00'), 60));
    expect(slots.map((slot) => wallClockOf(slot.start, 'Europe/Helsinki').date)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
  });
});

describe('across daylight-saving changes', () => {
  it('Berlin, spring forward: no slot in the skipped hour 02:00–03:00, the slots around it an hour apart in wall time and adjacent in UTC', () => {
    const slots = slotsOn('2026-03-29', schedule('Europe/Berlin', everyDay('01:00', '04:00'), 30));
    expect(starts(slots)).toEqual(['2026-03-29T00:00Z', '2026-03-29T00:30Z', '2026-03-29T01:00Z', '2026-03-29T01:30Z']);
    expect(slots.map((slot) => wallClockOf(slot.start, 'Europe/Berlin').time)).toEqual(['01:00', '01:30', '03:00', '03:30']);
  });

  it('Berlin, fall back: the repeated hour 02:00–03:00 has its slots once, at their first occurrence', () => {
    const slots = slotsOn('2026-10-25', schedule('Europe/Berlin', everyDay('01:00', '04:00'), 30));
    expect(slots.map((slot) => wallClockOf(slot.start, 'Europe/Berlin').time)).toEqual(['01:00', '01:30', '02:00', '02:30', '03:00', '03:30']);
    // 02:00 and 02:30 on CEST (UTC+2); 03:00 on CET (UTC+1): the second 02:xx hour (01:00Z–02:00Z) is not sold.
    expect(starts(slots)).toEqual([
      '2026-10-24T23:00Z',
      '2026-10-24T23:30Z',
      '2026-10-25T00:00Z',
      '2026-10-25T00:30Z',
      '2026-10-25T02:00Z',
      '2026-10-25T02:30Z',
    ]);
  });

  it('Helsinki, spring forward: no slot in the skipped hour 03:00–04:00', () => {
    const slots = slotsOn('2026-03-29', schedule('Europe/Helsinki', everyDay('02:00', '05:00'), 60));
    expect(slots.map((slot) => wallClockOf(slot.start, 'Europe/Helsinki').time)).toEqual(['02:00', '04:00']);
    expect(starts(slots)).toEqual(['2026-03-29T00:00Z', '2026-03-29T01:00Z']);
  });

  it('Helsinki, fall back: the repeated hour 03:00–04:00 is one slot, not two', () => {
    const slots = slotsOn('2026-10-25', schedule('Europe/Helsinki', everyDay('02:00', '05:00'), 60));
    expect(slots.map((slot) => wallClockOf(slot.start, 'Europe/Helsinki').time)).toEqual(['02:00', '03:00', '04:00']);
    expect(starts(slots)).toEqual(['2026-10-24T23:00Z', '2026-10-25T00:00Z', '2026-10-25T02:00Z']);
  });

  it('keeps daytime hours at the same wall time on both sides of a change (07:30 Berlin is 06:30Z in winter, 05:30Z in summer)', () => {
    const berlin = schedule('Europe/Berlin', everyDay('07:30', '08:00'));
    expect(starts(slotsBetween('2026-03-28', '2026-03-29', berlin))).toEqual(['2026-03-28T06:30Z', '2026-03-29T05:30Z']);
  });
});

describe('a slot start', () => {
  const berlin = schedule('Europe/Berlin', everyDay('07:30', '18:00'), 15);

  it('is found for an instant on the grid', () => {
    expect(slotStartingAt(new Date('2026-11-25T06:45:00Z'), berlin)?.start.toISOString()).toBe('2026-11-25T06:45:00.000Z');
  });

  it('is not found for an instant off the grid', () => {
    expect(slotStartingAt(new Date('2026-11-25T06:50:00Z'), berlin)).toBeUndefined();
  });

  it('is not found for the second occurrence of a repeated wall time', () => {
    const night = schedule('Europe/Berlin', everyDay('01:00', '04:00'), 30);
    expect(slotStartingAt(new Date('2026-10-25T00:30:00Z'), night)).toBeDefined();
    expect(slotStartingAt(new Date('2026-10-25T01:30:00Z'), night)).toBeUndefined();
  });
});
