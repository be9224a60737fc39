// DELETE /api/v1/shipments/{id} — cancels a pending shipment; after pickup, delivery or cancellation: 409.
import { assertLocationGroupAccess } from '../../shared/auth/access';
import { assertPending } from '../../shared/domain/shipment';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { ShipmentParams, toShipment } from '../../shared/schemas/shipments';
import { cancelShipment, getShipmentOrThrow } from '../../shared/store/shipments';

export const handler = httpHandler({
  route: 'cancelShipment',
  params: ShipmentParams,
  async run({ params, access, now }) {
    const shipment = await getShipmentOrThrow(params.id);
    assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
    assertPending(shipment.status, 'cancelled');
    return ok(toShipment(await cancelShipment(params.id, now.toISOString())));
  },
});
