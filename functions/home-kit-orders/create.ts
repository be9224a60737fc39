// POST /api/v1/home-kit-orders — orders a kit mailed to a test location or an inline address; created bare.
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { idempotentCreate } from '../../shared/http/idempotency';
import { created } from '../../shared/http/responses';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { loadCatalog } from '../../shared/store/catalog';
import { CreateHomeKitOrderBody } from '../../shared/schemas/bodies/home-kit-orders';
import { createHomeKitOrder } from '../../shared/usecases/create-home-kit-order';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.createHomeKitOrder,
  idempotency: idempotentCreate(),
  body: jsonBody(CreateHomeKitOrderBody),
  async run({ body, access, now }) {
    // Before the write: a catalog read failing after it would answer an error for a change that was made.
    const catalog = await loadCatalog();
    const { order, profile } = await createHomeKitOrder(body, { access, now });
    access.audit?.read(profile.id, `home kit order ${order.id}`);
    return created(toHomeKitOrder(order, profile, catalog));
  },
});
