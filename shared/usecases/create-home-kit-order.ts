/** Orders a kit mailed to a test location or an inline address: a new order, pending (history entry 1). */
import { randomUUID } from 'node:crypto';
import { assertLocationGroupAccess, assertProfileGroupAccess } from '../auth/access';
import type { DeliveryAddress } from '../domain/address';
import { apiActor } from '../domain/lifecycle';
import { Conflict, NotFound } from '../errors';
import { homeKitOrderLifecycle, type HomeKitOrderRecord } from '../store/home-kit-orders';
import { getLocation, LOCATION_NOT_FOUND } from '../store/locations';
import { getProfile, PROFILE_ERASED, PROFILE_NOT_FOUND, profileLink, profileNotErased, type ProfileRecord } from '../store/profiles';
import { TransactionCancelled } from '../store/transactions';
import { commit } from './commit';
import type { Caller } from './request';

export async function createHomeKitOrder(
  input: { profile_id: string; delivery_address: DeliveryAddress },
  { access, now }: Caller,
): Promise<{ order: HomeKitOrderRecord; profile: ProfileRecord }> {
  const address = input.delivery_address;
  const [profile, location] = await Promise.all([getProfile(input.profile_id), 'location_id' in address ? getLocation(address.location_id) : undefined]);
  if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
  if ('location_id' in address && !location?.active) throw new NotFound(LOCATION_NOT_FOUND);
  assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
  if (location) assertLocationGroupAccess(access, location.location_group_slug, 'location');
  if (profile.erased_at) throw new Conflict(PROFILE_ERASED);
  const at = now.toISOString();
  const order: HomeKitOrderRecord = {
    id: randomUUID(),
    profile_id: profile.id,
    profile_group_slug: profile.profile_group_slug,
    status: 'pending',
    delivery_address: address,
    panels: {},
    biomarkers: {},
    tracking_number: null,
    carrier: null,
    dispatched_at: null,
    activation_barcode: null,
    appointment_id: null,
    created_at: at,
    updated_at: null,
  };
  try {
    await commit({
      transitions: [{ lifecycle: homeKitOrderLifecycle, before: null, after: order, actor: apiActor(access.keyId), at }],
      // The person may have been erased since the profile was read; the link lets an erasure find the order at once.
      items: [profileNotErased(profile.id), profileLink(profile.id, 'KIT', order.id)],
      writtenAt: at,
    });
  } catch (error) {
    if (error instanceof TransactionCancelled && error.failed('profile')) throw new Conflict(PROFILE_ERASED);
    throw error;
  }
  return { order, profile };
}
