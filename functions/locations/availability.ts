// GET /api/v1/locations/{id}/availability — the slots that can be booked now, from and to dates in the location's time zone.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { AvailabilityQuery } from '../../shared/schemas/locations';
import { locationAvailability } from '../../shared/usecases/location-availability';
import * as routes from '../../shared/routes/locations';

export const handler = httpHandler({
  route: routes.getLocationAvailability,
  params: IdParams,
  query: AvailabilityQuery,
  async run({ params, query, access, now }) {
    return ok(await locationAvailability(params.id, query, { access, now }));
  },
});
