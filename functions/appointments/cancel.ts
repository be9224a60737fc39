// POST /api/v1/appointments/{id}/cancel — cancels a scheduled appointment with a reason (spec "not shown").
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { toAppointment } from '../../shared/schemas/appointments';
import { CancelBody } from '../../shared/schemas/bodies/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { loadCatalog } from '../../shared/store/catalog';
import { cancelAppointment } from '../../shared/usecases/cancel-appointment';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.cancelAppointment,
  params: IdParams,
  body: jsonBody(CancelBody),
  async run({ params, body, access, now }) {
    // Before the write: a catalog read failing after it would answer an error for a change that was made.
    const catalog = await loadCatalog();
    const { aggregate, profile } = await cancelAppointment(params.id, body.cancellation_reason, { access, now });
    access.audit?.read(profile.id, `appointment ${params.id}`);
    return ok(toAppointment(aggregate, profile, catalog));
  },
});
