// GET /api/v1/shipments — the shipments of the key's location groups, newest first.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toShipment } from '../../shared/schemas/shipments';
import { listShipments } from '../../shared/store/shipments';

export const handler = httpHandler({
  route: 'listShipments',
  async run({ access }) {
    return ok((await listShipments(access.locationGroups)).map(toShipment));
  },
});
