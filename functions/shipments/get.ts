// GET /api/v1/shipments/{id} — one shipment, with the appointments it carries (beyond the spec).
import { assertLocationGroupAccess, canSeeProfileGroup } from '../../shared/auth/access';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { ShipmentParams, toShipment } from '../../shared/schemas/shipments';
import { appointmentsOfShipment, getShipmentOrThrow } from '../../shared/store/shipments';
import * as routes from '../../shared/routes/shipments';

export const handler = httpHandler({
  route: routes.getShipment,
  params: ShipmentParams,
  async run({ params, access }) {
    const [shipment, carried] = await Promise.all([getShipmentOrThrow(params.id), appointmentsOfShipment(params.id)]);
    assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
    // Only the appointments of profiles this key may see: a courier batch can mix clinics.
    const appointmentIds = carried.filter((link) => canSeeProfileGroup(access, link.profile_group_slug)).map((link) => link.appointment_id);
    return ok({ ...toShipment(shipment), appointment_ids: appointmentIds });
  },
});
