// POST /api/v1/shipments — books a courier pickup of samples at a location; status pending.
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { idempotentCreate } from '../../shared/http/idempotency';
import { created } from '../../shared/http/responses';
import { toCreatedShipment } from '../../shared/schemas/shipments';
import { CreateShipmentBody } from '../../shared/schemas/bodies/shipments';
import { createShipment } from '../../shared/usecases/create-shipment';
import * as routes from '../../shared/routes/shipments';

export const handler = httpHandler({
  route: routes.createShipment,
  idempotency: idempotentCreate(),
  body: jsonBody(CreateShipmentBody),
  async run({ body, access, now }) {
    return created(toCreatedShipment(await createShipment(body, { access, now })));
  },
});
