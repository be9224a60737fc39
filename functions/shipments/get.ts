// GET /api/v1/shipments/{id} — one shipment, with the appointments it carries (beyond the spec).
import { assertLocationGroupAccess } from '../../shared/auth/access';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { ShipmentParams, toShipment } from '../../shared/schemas/shipments';
import { appointmentIdsOfShipment, getShipmentOrThrow } from '../../shared/store/shipments';

export const handler = httpHandler({
  route: 'getShipment',
  params: ShipmentParams,
  async run({ params, access }) {
    const [shipment, appointmentIds] = await Promise.all([getShipmentOrThrow(params.id), appointmentIdsOfShipment(params.id)]);
    assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
    return ok({ ...toShipment(shipment), appointment_ids: appointmentIds });
  },
});
