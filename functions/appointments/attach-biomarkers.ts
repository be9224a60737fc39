// POST /api/v1/appointments/{id}/biomarkers — attaches individual (a-la-carte) biomarkers while scheduled.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { assertEditable } from '../../shared/domain/appointment';
import { assertCollectable } from '../../shared/domain/catalog';
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { AttachBiomarkersBody } from '../../shared/schemas/bodies/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { getAppointmentAggregateOrThrow } from '../../shared/store/appointments/reads';
import { attachTests } from '../../shared/store/appointments/writes';
import { assertBiomarkersExist } from '../../shared/store/catalog';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.attachAppointmentBiomarkers,
  params: IdParams,
  body: jsonBody(AttachBiomarkersBody),
  async run({ params, body, access, now }) {
    const [aggregate, biomarkers] = await Promise.all([getAppointmentAggregateOrThrow(params.id), assertBiomarkersExist(body.biomarker_ids)]);
    assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
    assertEditable(aggregate.appointment.status);
    // An appointment stored before test_method existed was booked at a location: a practitioner draws it.
    assertCollectable('Biomarker', biomarkers, aggregate.appointment.test_method ?? 'practitioner');
    await attachTests(params.id, { biomarkerIds: body.biomarker_ids }, now.toISOString());
    return ok({ success: true as const });
  },
});
