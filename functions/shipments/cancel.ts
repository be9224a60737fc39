// DELETE /api/v1/shipments/{id} — cancels a pending shipment; after pickup, delivery or cancellation: 409.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { ShipmentParams, toShipment } from '../../shared/schemas/shipments';
import { cancelShipment } from '../../shared/usecases/cancel-shipment';
import * as routes from '../../shared/routes/shipments';

export const handler = httpHandler({
  route: routes.cancelShipment,
  params: ShipmentParams,
  async run({ params, access, now }) {
    return ok(toShipment(await cancelShipment(params.id, { access, now })));
  },
});
