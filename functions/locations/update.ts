// PATCH /api/v1/locations/{id} — a location's schedule (hours, slot length, capacity, closures); names the bookings it leaves outside.
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { UpdateLocationBody } from '../../shared/schemas/bodies/locations';
import { updateLocationSchedule } from '../../shared/usecases/update-location-schedule';
import * as routes from '../../shared/routes/locations';

export const handler = httpHandler({
  route: routes.updateLocation,
  params: IdParams,
  body: jsonBody(UpdateLocationBody),
  async run({ params, body, access, now }) {
    return ok(await updateLocationSchedule(params.id, body, { access, now }));
  },
});
