// GET /api/v1/home-kit-orders/{id} — the order with its profile and attached tests.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { loadCatalog } from '../../shared/store/catalog';
import { getHomeKitOrderOrThrow } from '../../shared/store/home-kit-orders';
import { getExistingProfile } from '../../shared/store/profiles';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.getHomeKitOrder,
  params: IdParams,
  async run({ params, access }) {
    const [order, catalog] = await Promise.all([getHomeKitOrderOrThrow(params.id), loadCatalog()]);
    assertProfileResourceAccess(access, order, 'home kit order');
    access.audit?.read(order.profile_id, `home kit order ${params.id}`);
    return ok(toHomeKitOrder(order, await getExistingProfile(order.profile_id), catalog));
  },
});
