/** Books a courier pickup of samples at a location: a new shipment, pending (history entry 1). */
import { assertLocationGroupAccess } from '../auth/access';
import { apiActor } from '../domain/lifecycle';
import { assertValidPickupWindow, berlinDateTime, type PickupWindow } from '../domain/pickup-window';
import { Conflict, NotFound } from '../errors';
import { getLocation, LOCATION_NOT_FOUND, locationIsActive } from '../store/locations';
import { nextShipmentReference, shipmentLifecycle, type ShipmentRecord } from '../store/shipments';
import { TransactionCancelled } from '../store/transactions';
import { commit } from './commit';
import type { Caller } from './request';

export async function createShipment(input: PickupWindow & { location_id: string; notes?: string | null }, { access, now }: Caller): Promise<ShipmentRecord> {
  assertValidPickupWindow(input, now);
  const location = await getLocation(input.location_id);
  if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
  assertLocationGroupAccess(access, location.location_group_slug, 'location');
  if (!location.logistics) throw new Conflict('No courier serves this location; shipments cannot be booked from it');
  const at = now.toISOString();
  const shipment: ShipmentRecord = {
    id: await nextShipmentReference(berlinDateTime(now).date),
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
  try {
    await commit({
      transitions: [{ lifecycle: shipmentLifecycle, before: null, after: shipment, actor: apiActor(access.keyId), at }],
      items: [locationIsActive(location.id)],
      writtenAt: at,
    });
  } catch (error) {
    if (error instanceof TransactionCancelled && error.failed('location')) throw new NotFound(LOCATION_NOT_FOUND);
    throw error;
  }
  return shipment;
}
