// GET /api/v1/locations/{id} — one location; an inactive one is "not found", as the spec's 404 says.
import { assertLocationGroupAccess } from '../../shared/auth/access';
import { NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toLocation } from '../../shared/schemas/locations';
import { getLocation, LOCATION_NOT_FOUND } from '../../shared/store/locations';
import * as routes from '../../shared/routes/locations';

export const handler = httpHandler({
  route: routes.getLocation,
  params: IdParams,
  async run({ params, access, now }) {
    const location = await getLocation(params.id);
    if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
    assertLocationGroupAccess(access, location.location_group_slug, 'location');
    return ok(toLocation(location, now));
  },
});
