/**
 * Books a courier pickup of samples at a location: a new shipment, pending (history entry 1), under a
 * random reference. The create's Put is conditional, so a reference that is already taken (a chance of
 * one in 10^10 per existing shipment) fails the transaction; it is then retried under a new reference.
 */
import { assertLocationGroupAccess } from '../auth/access';
import { apiActor } from '../domain/lifecycle';
import { assertValidPickupWindow, type PickupWindow } from '../domain/pickup-window';
import { Conflict, NotFound, Unavailable } from '../errors';
import { getLocation, LOCATION_NOT_FOUND, locationIsActive } from '../store/locations';
import { randomShipmentReference, shipmentLifecycle, type ShipmentRecord } from '../store/shipments';
import { TransactionCancelled } from '../store/transactions';
import { commit } from './commit';
import type { Caller } from './request';

/** Draws of a reference per create: five taken ones in a row would mean the generator is broken, not bad luck. */
export const REFERENCE_ATTEMPTS = 5;

/**
 * `drawReference` is the randomness source (the CSPRNG); tests pass fixed references to force a collision
 * that a random draw almost never produces.
 */
export async function createShipment(
  input: PickupWindow & { location_id: string; notes?: string | null },
  { access, now }: Caller,
  drawReference: () => string = randomShipmentReference,
): Promise<ShipmentRecord> {
  assertValidPickupWindow(input, now);
  const location = await getLocation(input.location_id);
  if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
  assertLocationGroupAccess(access, location.location_group_slug, 'location');
  if (!location.logistics) throw new Conflict('No courier serves this location; shipments cannot be booked from it');
  const at = now.toISOString();
  const booked: Omit<ShipmentRecord, 'id'> = {
    location_id: location.id,
    location_group_slug: location.location_group_slug,
    status: 'pending',
    logistics_provider: location.logistics.provider,
    tracking_number: null,
    origin: location.pickup_address,
    destination: location.logistics.destination,
    notes: input.notes ?? null,
    pickup_date: input.pickup_date,
    pickup_time_from: input.pickup_time_from,
    pickup_time_till: input.pickup_time_till,
    shipped_at: null,
    arrived_at: null,
    last_status_at: null,
    created_at: at,
    updated_at: null,
  };
  for (let attempt = 1; attempt <= REFERENCE_ATTEMPTS; attempt += 1) {
    const shipment: ShipmentRecord = { id: drawReference(), ...booked };
    try {
      await commit({
        transitions: [{ lifecycle: shipmentLifecycle, before: null, after: shipment, actor: apiActor(access.keyId), at }],
        items: [locationIsActive(location.id)],
        writtenAt: at,
      });
      return shipment;
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      if (error.failed('location')) throw new NotFound(LOCATION_NOT_FOUND);
      // The shipment's item or its first history entry exists: the reference is taken. Draw again.
      if (!error.failed('state') && !error.failed('state.history')) throw error;
    }
  }
  throw new Unavailable('No free shipment reference was found; retry the request');
}
