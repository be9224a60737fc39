import { describe, expect, it } from 'vitest';
import { isCalendarDate, isPastDate } from '../../shared/domain/calendar';

describe('isCalendarDate', () => {
  it.each(['2024-02-29', '1999-12-31', '2000-01-01'])('accepts the real date %s', (date) => {
    expect(isCalendarDate(date)).toBe(true);
  });

  it.each(['2023-02-29', '2024-04-31', '2024-13-01', '2024-00-10', '2024-1-5', '20240105', '2024-01-05T00:00:00Z', ''])('rejects %j', (date) => {
    expect(isCalendarDate(date)).toBe(false);
  });
});

describe('isPastDate', () => {
  const now = new Date('2026-11-23T10:00:00Z');

  it('accepts yesterday', () => {
    expect(isPastDate('2026-11-22', now)).toBe(true);
  });

  it('rejects today, since a birth date today is not yet in the past', () => {
    expect(isPastDate('2026-11-23', now)).toBe(false);
  });

  it('rejects tomorrow', () => {
    expect(isPastDate('2026-11-24', now)).toBe(false);
  });

  it('rejects a past date that does not exist', () => {
    expect(isPastDate('2001-02-29', now)).toBe(false);
  });
});
