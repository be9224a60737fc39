// GET /api/v1/shipments — the shipments of the key's location groups, newest first, a page at a time.
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { PageQuery } from '../../shared/schemas/pagination';
import { toShipment } from '../../shared/schemas/shipments';
import { listShipments } from '../../shared/store/shipments';
import { pageFor } from '../../shared/usecases/paging';
import * as routes from '../../shared/routes/shipments';

export const handler = httpHandler({
  route: routes.listShipments,
  query: PageQuery,
  async run({ query, access }) {
    const page = await listShipments(access.locationGroups, pageFor(query, access));
    return okPage({ ...page, items: page.items.map(toShipment) });
  },
});
