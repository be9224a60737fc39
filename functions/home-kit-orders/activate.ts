// POST /api/v1/home-kit-orders/{id}/activate — the patient registers the kit's barcode: the sample becomes an
// appointment and the lab order pipeline starts, all in one transaction (shared/usecases/activate-home-kit-order.ts).
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { ConfirmBody } from '../../shared/schemas/bodies/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { loadCatalog } from '../../shared/store/catalog';
import { activateHomeKitOrder } from '../../shared/usecases/activate-home-kit-order';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.activateHomeKitOrder,
  params: IdParams,
  body: jsonBody(ConfirmBody),
  async run({ params, body, access, now }) {
    // Before the write: a catalog read failing after it would answer an error for a change that was made.
    const catalog = await loadCatalog();
    const { order, profile } = await activateHomeKitOrder(params.id, body.barcode, { access, now });
    access.audit?.read(profile.id, `home kit order ${params.id}`);
    return ok(toHomeKitOrder(order, profile, catalog));
  },
});
