import { describe, expect, it } from 'vitest';
import { berlinDateTime } from '../../shared/domain/calendar';
import { assertValidPickupWindow } from '../../shared/domain/pickup-window';
import { InvalidInput } from '../../shared/errors';

const window = (pickup_date: string, pickup_time_from = '09:00', pickup_time_till = '11:00') => ({ pickup_date, pickup_time_from, pickup_time_till });
const check = (w: ReturnType<typeof window>, now: string) => () => assertValidPickupWindow(w, new Date(now));

describe('same-day cutoff at 16:00 Europe/Berlin', () => {
  it.each([
    ['winter time (CET)', '2026-03-23', '2026-03-23T14:59:59Z', '2026-03-23T15:00:00Z'],
    ['summer time (CEST), the Monday after clocks went forward', '2026-03-30', '2026-03-30T13:59:59Z', '2026-03-30T14:00:00Z'],
    ['summer time (CEST), the Friday before clocks go back', '2026-10-23', '2026-10-23T13:59:59Z', '2026-10-23T14:00:00Z'],
    ['winter time (CET), the Monday after clocks went back', '2026-10-26', '2026-10-26T14:59:59Z', '2026-10-26T15:00:00Z'],
  ])('in %s accepts a same-day pickup at 15:59 and refuses it at 16:00', (_, date, before, at) => {
    expect(check(window(date, '15:00', '17:00'), before)).not.toThrow();
    expect(check(window(date, '15:00', '17:00'), at)).toThrowError(
      new InvalidInput('same-day pickup is unavailable after 16:00 Europe/Berlin; choose a later pickup_date'),
    );
  });

  it('accepts the next weekday after the cutoff', () => {
    expect(check(window('2026-11-24'), '2026-11-23T20:00:00Z')).not.toThrow();
  });
});

describe('pickup dates', () => {
  it('refuses a Saturday after a Friday', () => {
    expect(check(window('2026-11-28'), '2026-11-27T08:00:00Z')).toThrowError('pickup_date must be a weekday (Monday to Friday)');
  });

  it('refuses a Sunday', () => {
    expect(check(window('2026-11-29'), '2026-11-23T08:00:00Z')).toThrowError('pickup_date must be a weekday (Monday to Friday)');
  });

  it('judges "today" by the Berlin date, not the UTC date', () => {
    // 23:30 UTC on Monday is already Tuesday 00:30 in Berlin: Monday is in the past there.
    expect(check(window('2026-11-23'), '2026-11-23T23:30:00Z')).toThrowError('pickup_date must be today or later (Europe/Berlin)');
  });

  it('accepts a pickup_date 90 days ahead and refuses the day after', () => {
    // Wednesday 2026-11-25 + 90 days = Tuesday 2027-02-23.
    expect(check(window('2027-02-23'), '2026-11-25T08:00:00Z')).not.toThrow();
    expect(check(window('2027-02-24'), '2026-11-25T08:00:00Z')).toThrowError(
      'pickup_date must be at most 90 days ahead (2027-02-23 or earlier, Europe/Berlin)',
    );
  });

  it('counts the 90 days from the Berlin date, not the UTC date', () => {
    // 23:30 UTC on Tuesday 2026-11-24 is already Wednesday in Berlin: the limit is Wednesday's.
    expect(check(window('2027-02-23'), '2026-11-24T23:30:00Z')).not.toThrow();
    expect(check(window('2027-02-24'), '2026-11-24T23:30:00Z')).toThrowError('pickup_date must be at most 90 days ahead');
  });

  it('refuses an impossible date', () => {
    expect(check(window('2026-02-30'), '2026-01-05T08:00:00Z')).toThrowError('pickup_date must be a real date (YYYY-MM-DD)');
  });
});

describe('pickup times', () => {
  const monday = '2026-11-30';
  const now = '2026-11-23T08:00:00Z';

  it('accepts exactly 09:00–11:00', () => {
    expect(check(window(monday, '09:00', '11:00'), now)).not.toThrow();
  });

  it('accepts exactly 15:00–17:00', () => {
    expect(check(window(monday, '15:00', '17:00'), now)).not.toThrow();
  });

  it('refuses a window one minute shorter than 2 hours', () => {
    expect(check(window(monday, '09:00', '10:59'), now)).toThrowError('pickup_time_till must be at least 2 hours after pickup_time_from');
  });

  it('refuses a start before 09:00', () => {
    expect(check(window(monday, '08:59', '11:00'), now)).toThrowError('pickup_time_from must be between 09:00 and 17:00');
  });

  it('refuses an end after 17:00', () => {
    expect(check(window(monday, '15:00', '17:01'), now)).toThrowError('pickup_time_till must be between 09:00 and 17:00');
  });

  it('refuses an end before the start', () => {
    expect(check(window(monday, '14:00', '10:00'), now)).toThrowError(InvalidInput);
  });
});

describe('berlinDateTime', () => {
  it('renders an instant as the Berlin wall clock, across the DST change', () => {
    expect(berlinDateTime(new Date('2026-03-29T00:59:00Z'))).toEqual({ date: '2026-03-29', time: '01:59' });
    expect(berlinDateTime(new Date('2026-03-29T01:00:00Z'))).toEqual({ date: '2026-03-29', time: '03:00' });
  });
});
