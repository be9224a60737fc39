/** The pure rules of webhook delivery: the schedule, the signing secrets of a rotation, ids, who receives what. */
import { describe, expect, it } from 'vitest';
import type { AccessContext } from '../../shared/auth/access';
import { afterAttempt, MAX_ATTEMPTS, signingSecrets } from '../../shared/domain/webhook';
import { deliveryId } from '../../shared/webhooks/delivery-id';
import { mayReceive } from '../../shared/webhooks/event-types';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const access = (over: Partial<AccessContext> = {}): AccessContext => ({
  keyId: 'key_1',
  scopes: new Set(['SHIPMENTS_MANAGE', 'TEST_SESSIONS_VIEW']),
  profileGroups: new Set(['demo-clinic']),
  locationGroups: new Set(['berlin']),
  ...over,
});

describe('the retry schedule', () => {
  it('schedules the first retry 5 s after a failed first attempt', () => {
    expect(afterAttempt(1, false, NOW)).toEqual({ outcome: 'pending', next_attempt_at: '2026-11-23T10:00:05.000Z' });
  });

  it('schedules the last retry 10 h after the 7th attempt, and fails the delivery after the 8th', () => {
    expect(afterAttempt(MAX_ATTEMPTS - 1, false, NOW).next_attempt_at).toBe('2026-11-23T20:00:00.000Z');
    expect(afterAttempt(MAX_ATTEMPTS, false, NOW)).toEqual({ outcome: 'failed', next_attempt_at: null });
  });

  it('ends a delivery at the first accepted attempt', () => {
    expect(afterAttempt(3, true, NOW)).toEqual({ outcome: 'succeeded', next_attempt_at: null });
  });
});

describe('signing secrets', () => {
  const secrets = [
    { secret: 'new', expires_at: null },
    { secret: 'old', expires_at: '2026-11-24T09:00:00.000Z' },
  ];

  it('signs with the current and the rotated-out secret during the overlap', () => {
    expect(signingSecrets(secrets, NOW).map((s) => s.secret)).toEqual(['new', 'old']);
  });

  it('signs with the current secret alone once the overlap is over', () => {
    expect(signingSecrets(secrets, new Date('2026-11-24T09:00:00.000Z')).map((s) => s.secret)).toEqual(['new']);
  });
});

describe('delivery ids', () => {
  it('gives the same event for the same subscription the same id, another subscription another', () => {
    const at = '2026-11-23T10:00:00.000Z';
    expect(deliveryId('w1', 'e1', at)).toBe(deliveryId('w1', 'e1', at));
    expect(deliveryId('w2', 'e1', at)).not.toBe(deliveryId('w1', 'e1', at));
  });

  it('makes a UUIDv7 that sorts by the event time', () => {
    const earlier = deliveryId('w1', 'e9', '2026-11-23T10:00:00.000Z');
    const later = deliveryId('w1', 'e1', '2026-11-23T10:00:00.001Z');
    expect(earlier).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(earlier < later).toBe(true);
  });
});

describe('who receives an event', () => {
  const shipment = { location_group_slug: 'berlin', shipment_id: 'P-261123-0001' };
  const appointment = { profile_group_slug: 'demo-clinic', appointment_id: 'a' };

  it("delivers a shipment's change to a key of its location group", () => {
    expect(mayReceive(access(), 'ShipmentStatusChanged', shipment)).toBe(true);
  });

  it("never delivers a shipment's change to a key of another location group", () => {
    expect(mayReceive(access({ locationGroups: new Set(['helsinki']) }), 'ShipmentStatusChanged', shipment)).toBe(false);
  });

  it("never delivers an appointment's change to a key of another profile group", () => {
    expect(mayReceive(access({ profileGroups: new Set(['partner-clinic']) }), 'AppointmentStatusChanged', appointment)).toBe(false);
  });

  it('never delivers an event to a key without the scope that reads its resource', () => {
    expect(mayReceive(access(), 'LabResultsAvailable', appointment)).toBe(false);
  });

  it('never delivers an event that names no tenant', () => {
    expect(mayReceive(access(), 'AppointmentStatusChanged', { appointment_id: 'a' })).toBe(false);
  });
});
