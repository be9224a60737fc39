// POST /api/v1/shipments — books a courier pickup of samples at a location; status pending.
import { assertLocationGroupAccess } from '../../shared/auth/access';
import { assertValidPickupWindow, berlinDateTime } from '../../shared/domain/pickup-window';
import { Conflict, NotFound } from '../../shared/http/errors';
import { httpHandler } from '../../shared/http/handler';
import { idempotentCreate } from '../../shared/http/idempotency';
import { created } from '../../shared/http/responses';
import { CreateShipmentBody, toCreatedShipment } from '../../shared/schemas/shipments';
import { getLocation, LOCATION_NOT_FOUND } from '../../shared/store/locations';
import { createShipment, nextShipmentReference, type ShipmentRecord } from '../../shared/store/shipments';

export const handler = httpHandler({
  route: 'createShipment',
  idempotency: idempotentCreate(),
  body: CreateShipmentBody,
  async run({ body, access, now }) {
    assertValidPickupWindow(body, now);
    const location = await getLocation(body.location_id);
    if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
    assertLocationGroupAccess(access, location.location_group_slug, 'location');
    if (!location.logistics) throw new Conflict('No courier serves this location; shipments cannot be booked from it');
    const shipment: ShipmentRecord = {
      id: await nextShipmentReference(berlinDateTime(now).date),
      location_id: location.id,
      location_group_slug: location.location_group_slug,
      status: 'pending',
      logistics_provider: location.logistics.provider,
      tracking_number: null,
      origin: location.pickup_address,
      destination: location.logistics.destination,
      notes: body.notes ?? null,
      pickup_date: body.pickup_date,
      pickup_time_from: body.pickup_time_from,
      pickup_time_till: body.pickup_time_till,
      shipped_at: null,
      arrived_at: null,
      last_status_at: null,
      created_at: now.toISOString(),
      updated_at: null,
    };
    await createShipment(shipment);
    return created(toCreatedShipment(shipment));
  },
});
