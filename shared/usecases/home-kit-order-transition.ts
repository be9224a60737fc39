/**
 * A simple status change of a home kit order (dispatch, cancel): read, check access and the rule, write
 * the transition; a racing change is read back and answered with the conflict its new status calls for.
 */
import { assertProfileResourceAccess } from '../auth/access';
import { apiActor } from '../domain/lifecycle';
import { Conflict } from '../errors';
import { getHomeKitOrderOrThrow, homeKitOrderLifecycle, type HomeKitOrderRecord, ORDER_CHANGED_MEANWHILE } from '../store/home-kit-orders';
import { getExistingProfile, type ProfileRecord } from '../store/profiles';
import { TransactionCancelled } from '../store/transactions';
import { type Condition, recorded } from '../store/transitions';
import { commit } from './commit';
import type { Caller } from './request';

export interface KitChange {
  /** Throws the conflict when the order's state does not allow the change. */
  assertAllowed(order: HomeKitOrderRecord): void;
  apply(order: HomeKitOrderRecord, at: string): HomeKitOrderRecord;
  /** What the rule read besides the status, re-checked at the write. */
  condition?: Condition;
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
  const after = change.apply(order, at);
  const write = commit({
    transitions: [{ lifecycle: homeKitOrderLifecycle, before: order, after, actor: apiActor(access.keyId), at, condition: change.condition }],
    writtenAt: at,
  }).catch(async (error: unknown) => {
    if (!(error instanceof TransactionCancelled)) throw error;
    change.assertAllowed(await getHomeKitOrderOrThrow(id));
    throw new Conflict(ORDER_CHANGED_MEANWHILE);
  });
  const [, profile] = await Promise.all([write, getExistingProfile(order.profile_id)]);
  return { order: recorded(order, after), profile };
}
