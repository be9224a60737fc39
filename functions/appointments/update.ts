// PATCH /api/v1/appointments/{id} — reschedule and/or relocate into a bookable slot, only while the draw is not confirmed.
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { toAppointment } from '../../shared/schemas/appointments';
import { UpdateAppointmentBody } from '../../shared/schemas/bodies/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { loadCatalog } from '../../shared/store/catalog';
import { rescheduleAppointment } from '../../shared/usecases/reschedule-appointment';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.updateAppointment,
  params: IdParams,
  body: jsonBody(UpdateAppointmentBody),
  async run({ params, body, access, now }) {
    // Before the write: a catalog read failing after it would answer an error for a change that was made.
    const catalog = await loadCatalog();
    const { aggregate, profile } = await rescheduleAppointment(params.id, body, { access, now });
    access.audit?.read(profile.id, `appointment ${params.id}`);
    return ok(toAppointment(aggregate, profile, catalog));
  },
});
