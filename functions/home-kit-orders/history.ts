// GET /api/v1/home-kit-orders/{id}/history — the order's status changes, oldest first (beyond the spec).
import { assertProfileResourceAccess } from '../../shared/auth/access';
import type { HomeKitOrderStatus } from '../../shared/domain/home-kit-order';
import { NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toHistoryEntry } from '../../shared/schemas/history';
import { PageQuery } from '../../shared/schemas/pagination';
import { pageHistory } from '../../shared/store/history';
import { getHomeKitOrder, HOME_KIT_ORDER_NOT_FOUND } from '../../shared/store/home-kit-orders';
import * as keys from '../../shared/store/keys/items';
import { pageFor } from '../../shared/usecases/paging';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.listHomeKitOrderHistory,
  params: IdParams,
  query: PageQuery,
  async run({ params, query, access }) {
    const [order, page] = await Promise.all([
      getHomeKitOrder(params.id),
      pageHistory<HomeKitOrderStatus>(keys.homeKitOrder(params.id), pageFor(query, access)),
    ]);
    if (!order) throw new NotFound(HOME_KIT_ORDER_NOT_FOUND);
    assertProfileResourceAccess(access, order, 'home kit order');
    access.audit?.read(order.profile_id, `home kit order ${params.id} history`);
    return okPage({ ...page, items: page.items.map(toHistoryEntry) });
  },
});
