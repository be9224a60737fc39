import { describe, expect, it } from 'vitest';
import { assertBookableInstant, assertCancellable, assertEditable, decideConfirm, planPickup, plannedBiomarkerIds } from '../../shared/domain/appointment';
import { isZonedDateTime, toUtcInstant } from '../../shared/domain/instant';
import { InvalidInput, Conflict } from '../../shared/errors';

const now = new Date('2026-11-23T10:00:00Z');

describe('zoned date-times', () => {
  it.each(['2026-12-01T09:00:00Z', '2026-12-01T09:00Z', '2026-12-01T09:00:00.123+02:00', '2026-12-01T23:59:59-05:00'])('accepts %s', (value) =>
    expect(isZonedDateTime(value)).toBe(true),
  );

  it.each(['2026-12-01T09:00:00', '2026-12-01 09:00:00Z', '2026-02-30T09:00:00Z', '2026-12-01T24:00:00Z', '2026-12-01', 'tomorrow'])('rejects %s', (value) =>
    expect(isZonedDateTime(value)).toBe(false),
  );

  it('renders an offset time as the UTC instant with Z, to the second', () => {
    expect(toUtcInstant('2026-12-01T10:30:00.999+02:00')).toBe('2026-12-01T08:30:00Z');
  });
});

describe('booking window', () => {
  it('refuses the current instant', () => {
    expect(() => assertBookableInstant('scheduled_at', '2026-11-23T10:00:00Z', now)).toThrowError(new InvalidInput('scheduled_at must be in the future'));
  });

  it('accepts one second later', () => {
    expect(() => assertBookableInstant('scheduled_at', '2026-11-23T10:00:01Z', now)).not.toThrow();
  });

  it('accepts exactly 365 days ahead and refuses a second more', () => {
    expect(() => assertBookableInstant('scheduled_at', '2027-11-23T10:00:00Z', now)).not.toThrow();
    expect(() => assertBookableInstant('scheduled_at', '2027-11-23T10:00:01Z', now)).toThrowError(InvalidInput);
  });
});

describe('lifecycle guards', () => {
  it.each(['blood_drawn', 'in_transit', 'completed', 'cancelled'] as const)('refuses changes to a %s appointment with 409', (status) => {
    expect(() => assertEditable(status)).toThrowError(Conflict);
  });

  it('allows changes while scheduled', () => {
    expect(() => assertEditable('scheduled')).not.toThrow();
  });

  it.each(['blood_drawn', 'in_transit', 'completed', 'cancelled'] as const)('refuses to cancel a %s appointment', (status) => {
    expect(() => assertCancellable(status)).toThrowError(Conflict);
  });
});

describe('decideConfirm', () => {
  it('confirms a scheduled appointment', () => {
    expect(decideConfirm('scheduled', null, 'ABC-123')).toBe('confirm');
  });

  it.each(['blood_drawn', 'in_transit', 'completed'] as const)('treats the same barcode on a %s appointment as a safe retry', (status) => {
    expect(decideConfirm(status, 'ABC-123', 'ABC-123')).toBe('already-confirmed');
  });

  it('refuses another barcode once drawn', () => {
    expect(() => decideConfirm('blood_drawn', 'ABC-123', 'XYZ-999')).toThrowError(Conflict);
  });

  it('refuses a cancelled appointment', () => {
    expect(() => decideConfirm('cancelled', null, 'ABC-123')).toThrowError(Conflict);
  });
});

describe('planPickup', () => {
  it('moves drawn appointments and skips those in transit or completed', () => {
    const plan = planPickup([
      { id: 'a', status: 'blood_drawn' },
      { id: 'b', status: 'in_transit' },
      { id: 'c', status: 'completed' },
    ]);
    expect(plan).toEqual({ move: ['a'], skip: ['b', 'c'] });
  });

  it.each(['scheduled', 'cancelled'] as const)('fails the whole batch for a %s appointment, naming it', (status) => {
    expect(() =>
      planPickup([
        { id: 'a', status: 'blood_drawn' },
        { id: 'z', status },
      ]),
    ).toThrowError(/appointment\(s\) z;/);
  });
});

describe('plannedBiomarkerIds', () => {
  it('joins panel and individual biomarkers once each, in id order', () => {
    expect(
      plannedBiomarkerIds(
        [
          [5, 1],
          [3, 5],
        ],
        [10, 1],
      ),
    ).toEqual([1, 3, 5, 10]);
  });
});
