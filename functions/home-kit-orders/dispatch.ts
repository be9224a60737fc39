// POST /api/v1/home-kit-orders/{id}/dispatch — the kit is in the mail: pending → dispatched, with its tracking number.
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { loadCatalog } from '../../shared/store/catalog';
import { DispatchBody } from '../../shared/schemas/bodies/home-kit-orders';
import { dispatchHomeKitOrder } from '../../shared/usecases/dispatch-home-kit-order';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.dispatchHomeKitOrder,
  params: IdParams,
  body: jsonBody(DispatchBody),
  async run({ params, body, access, now }) {
    // Before the write: a catalog read failing after it would answer an error for a change that was made.
    const catalog = await loadCatalog();
    const { order, profile } = await dispatchHomeKitOrder(params.id, body, { access, now });
    access.audit?.read(profile.id, `home kit order ${params.id}`);
    return ok(toHomeKitOrder(order, profile, catalog));
  },
});
