// PATCH /api/v1/shipments/{id} — moves the pickup window while pending; the merged window obeys the create rules.
import { assertLocationGroupAccess } from '../../shared/auth/access';
import { assertValidPickupWindow } from '../../shared/domain/pickup-window';
import { assertPending } from '../../shared/domain/shipment';
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { ShipmentParams, toShipment } from '../../shared/schemas/shipments';
import { UpdateShipmentBody } from '../../shared/schemas/bodies/shipments';
import { changePickupWindow, getShipmentOrThrow } from '../../shared/store/shipments';
import * as routes from '../../shared/routes/shipments';

export const handler = httpHandler({
  route: routes.updateShipment,
  params: ShipmentParams,
  body: jsonBody(UpdateShipmentBody),
  async run({ params, body, access, now }) {
    const shipment = await getShipmentOrThrow(params.id);
    assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
    assertPending(shipment.status, 'modified');
    const window = {
      pickup_date: body.pickup_date ?? shipment.pickup_date,
      pickup_time_from: body.pickup_time_from ?? shipment.pickup_time_from,
      pickup_time_till: body.pickup_time_till ?? shipment.pickup_time_till,
    };
    assertValidPickupWindow(window, now);
    return ok(toShipment(await changePickupWindow(shipment, window, now.toISOString())));
  },
});
