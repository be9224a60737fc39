/**
 * Who receives a lab order's status (LabOrderAccepted, LabOrderRefused, LabOrderFailed; issue #51) and where
 * the event log files it: a draw's with the appointment's scopes, a home kit's with the kit's, as the detail's
 * home_kit_order_id says.
 */
import { describe, expect, it } from 'vitest';
import type { AccessContext } from '../../shared/auth/access';
import type { Scope } from '../../shared/domain/scopes';
import { eventLogPartitionOf, eventLogPartitionsOf, mayReceive, scopesToReceive } from '../../shared/webhooks/event-types';

const access = (...scopes: Scope[]): AccessContext => ({
  keyId: 'key_1',
  scopes: new Set(scopes),
  profileGroups: new Set(['demo-clinic']),
  locationGroups: new Set(['berlin']),
});
const base = { appointment_id: 'a', profile_id: 'p', profile_group_slug: 'demo-clinic', status: 'accepted' };
const draw = { ...base, home_kit_order_id: null };
const kit = { ...base, home_kit_order_id: 'k' };

describe('lab order status webhooks', () => {
  it.each(['LabOrderAccepted', 'LabOrderRefused', 'LabOrderFailed'] as const)(
    '%s may be subscribed to with the scopes of an appointment or of a home kit',
    (type) => {
      expect([...scopesToReceive(type)].sort()).toEqual(['TEST_SESSIONS_SCHEDULE', 'TEST_SESSIONS_VIEW', 'home_kit_orders_manage']);
    },
  );

  it("reaches a key with the appointment's scopes for a draw, and not for a home kit's sample", () => {
    expect(mayReceive(access('TEST_SESSIONS_VIEW'), 'LabOrderAccepted', draw)).toBe(true);
    expect(mayReceive(access('TEST_SESSIONS_VIEW'), 'LabOrderAccepted', kit)).toBe(false);
  });

  it("reaches a key with the kit's scope for a home kit's sample, and not for a draw", () => {
    expect(mayReceive(access('home_kit_orders_manage'), 'LabOrderRefused', kit)).toBe(true);
    expect(mayReceive(access('home_kit_orders_manage'), 'LabOrderRefused', draw)).toBe(false);
  });

  it("reaches no key outside the sample's profile group", () => {
    expect(mayReceive(access('TEST_SESSIONS_VIEW'), 'LabOrderFailed', { ...draw, profile_group_slug: 'partner-clinic' })).toBe(false);
  });

  it("files a draw's event under the appointments of its tenant, and a kit's under its home kits", () => {
    expect(eventLogPartitionOf('LabOrderAccepted', draw)).toEqual({ tenant: 'PG#demo-clinic', kind: 'appointment' });
    expect(eventLogPartitionOf('LabOrderAccepted', kit)).toEqual({ tenant: 'PG#demo-clinic', kind: 'home-kit-order' });
  });

  it('lists, for a type filter, the partitions of each kind the key reads', () => {
    expect(eventLogPartitionsOf(access('TEST_SESSIONS_VIEW', 'home_kit_orders_manage'), 'LabOrderAccepted')).toEqual([
      { tenant: 'PG#demo-clinic', kind: 'appointment' },
      { tenant: 'PG#demo-clinic', kind: 'home-kit-order' },
    ]);
    expect(eventLogPartitionsOf(access('home_kit_orders_manage'), 'LabOrderAccepted')).toEqual([{ tenant: 'PG#demo-clinic', kind: 'home-kit-order' }]);
  });
});
