// GET /api/v1/locations — the active locations of the key's location groups.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toLocation } from '../../shared/schemas/locations';
import { listActiveLocations } from '../../shared/store/locations';
import * as routes from '../../shared/routes/locations';

export const handler = httpHandler({
  route: routes.listLocations,
  async run({ access, now }) {
    const locations = await listActiveLocations(access.locationGroups);
    return ok(locations.map((location) => toLocation(location, now)));
  },
});
