// POST /api/v1/shipments/{id}/status — the courier integration reports a move (spec "not shown"; SHIPMENTS_TRACK).
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { ShipmentParams, toShipment } from '../../shared/schemas/shipments';
import { ProviderUpdateBody } from '../../shared/schemas/bodies/shipments';
import { recordShipmentStatus } from '../../shared/usecases/record-shipment-status';
import * as routes from '../../shared/routes/shipments';

export const handler = httpHandler({
  route: routes.updateShipmentStatus,
  params: ShipmentParams,
  body: jsonBody(ProviderUpdateBody),
  async run({ params, body, access, now }) {
    return ok(toShipment(await recordShipmentStatus(params.id, body, { access, now })));
  },
});
