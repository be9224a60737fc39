/**
 * A simple status change of a home kit order (dispatch, cancel): read, check access and the rule, write
 * the transition on the condition that the order is still as read; when a racing change won, read it
 * again and decide again (shared/usecases/decide-again.ts): the conflict its new status calls for, or the
 * change on the order as it now is.
 */
import { assertProfileResourceAccess } from '../auth/access';
import { apiActor } from '../domain/lifecycle';
import { getHomeKitOrderOrThrow, homeKitOrderLifecycle, type HomeKitOrderRecord } from '../store/home-kit-orders';
import { getExistingProfile, type ProfileRecord } from '../store/profiles';
import { type Condition, joinPlaceholders, recorded } from '../store/transitions';
import { commit } from './commit';
import { decideAgainOnRace } from './decide-again';
import type { Caller } from './request';

export interface KitChange {
  /** Throws the conflict when the order's state does not allow the change. */
  assertAllowed(order: HomeKitOrderRecord): void;
  apply(order: HomeKitOrderRecord, at: string): HomeKitOrderRecord;
  /** What the rule read besides the status, re-checked at the write. */
  condition?: Condition;
}

/** The change's own condition, and the tests as read: the answer is the order as read, so an attach landing meanwhile must fail the write. */
function asRead(order: HomeKitOrderRecord, change: KitChange): Condition {
  const testsAsRead = 'size(panels) = :readPanels AND size(biomarkers) = :readBiomarkers';
  return {
    expression: change.condition ? `(${change.condition.expression}) AND ${testsAsRead}` : testsAsRead,
    names: change.condition?.names,
    values: joinPlaceholders(change.condition?.values, {
      ':readPanels': Object.keys(order.panels).length,
      ':readBiomarkers': Object.keys(order.biomarkers).length,
    }),
  };
}

export async function changeHomeKitOrder(
  id: string,
  change: KitChange,
  { access, now }: Caller,
): Promise<{ order: HomeKitOrderRecord; profile: ProfileRecord }> {
  const order = await getHomeKitOrderOrThrow(id);
  assertProfileResourceAccess(access, order, 'home kit order');
  change.assertAllowed(order);
  const at = now.toISOString();
  const write = decideAgainOnRace({
    read: order,
    reread: () => getHomeKitOrderOrThrow(id),
    assertAllowed: (current) => change.assertAllowed(current),
    write: async (current: HomeKitOrderRecord) => {
      const after = change.apply(current, at);
      const transition = { lifecycle: homeKitOrderLifecycle, before: current, after, actor: apiActor(access.keyId), at, condition: asRead(current, change) };
      await commit({ transitions: [transition], writtenAt: at });
      return recorded(current, after);
    },
    what: 'order',
  });
  const [written, profile] = await Promise.all([write, getExistingProfile(order.profile_id)]);
  return { order: written, profile };
}
