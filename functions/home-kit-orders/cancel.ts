// DELETE /api/v1/home-kit-orders/{id} — cancels a pending or dispatched order; its tests stay listed.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { loadCatalog } from '../../shared/store/catalog';
import { cancelHomeKitOrder } from '../../shared/usecases/cancel-home-kit-order';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.cancelHomeKitOrder,
  params: IdParams,
  async run({ params, access, now }) {
    // Before the write: a catalog read failing after it would answer an error for a change that was made.
    const catalog = await loadCatalog();
    const { order, profile } = await cancelHomeKitOrder(params.id, { access, now });
    access.audit?.read(profile.id, `home kit order ${params.id}`);
    return ok(toHomeKitOrder(order, profile, catalog));
  },
});
