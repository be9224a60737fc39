// GET /api/v1/appointments/{id} — the appointment with its profile, panels, biomarkers and shipments.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toAppointment } from '../../shared/schemas/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { getAppointmentAggregateOrThrow } from '../../shared/store/appointments/reads';
import { loadCatalog } from '../../shared/store/catalog';
import { getExistingProfile } from '../../shared/store/profiles';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.getAppointment,
  params: IdParams,
  async run({ params, access }) {
    const [aggregate, catalog] = await Promise.all([getAppointmentAggregateOrThrow(params.id), loadCatalog()]);
    assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
    access.audit?.read(aggregate.appointment.profile_id, `appointment ${params.id}`);
    return ok(toAppointment(aggregate, await getExistingProfile(aggregate.appointment.profile_id), catalog));
  },
});
