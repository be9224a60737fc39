// GET /api/v1/shipments/{id}/history — the shipment's status changes, oldest first (beyond the spec).
import { assertLocationGroupAccess } from '../../shared/auth/access';
import type { ShipmentStatus } from '../../shared/domain/shipment';
import { NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { toHistoryEntry } from '../../shared/schemas/history';
import { PageQuery } from '../../shared/schemas/pagination';
import { ShipmentParams } from '../../shared/schemas/shipments';
import { pageHistory } from '../../shared/store/history';
import * as keys from '../../shared/store/keys/items';
import { getShipment, SHIPMENT_NOT_FOUND } from '../../shared/store/shipments';
import { pageFor } from '../../shared/usecases/paging';
import * as routes from '../../shared/routes/shipments';

export const handler = httpHandler({
  route: routes.listShipmentHistory,
  params: ShipmentParams,
  query: PageQuery,
  async run({ params, query, access }) {
    const [shipment, page] = await Promise.all([getShipment(params.id), pageHistory<ShipmentStatus>(keys.shipment(params.id), pageFor(query, access))]);
    if (!shipment) throw new NotFound(SHIPMENT_NOT_FOUND);
    assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
    return okPage({ ...page, items: page.items.map(toHistoryEntry) });
  },
});
