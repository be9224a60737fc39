// POST /p/{token}/reschedule — no key: the patient moves their appointment to a free slot at the same location (JSON, same origin only).
import { PATIENT_JSON_HEADERS, sameOriginJsonBody } from '../../shared/http/patient-link';
import { ok } from '../../shared/http/responses';
import { publicHttpHandler } from '../../shared/http/stack';
import { RescheduleByLinkBody } from '../../shared/schemas/bodies/patient-page';
import { PatientLinkParams } from '../../shared/schemas/patient-page';
import { reschedulePatientAppointment } from '../../shared/usecases/patient-changes';
import * as routes from '../../shared/routes/patient-page';

export const handler = publicHttpHandler({
  route: routes.reschedulePatientAppointment,
  params: PatientLinkParams,
  body: sameOriginJsonBody(RescheduleByLinkBody),
  headers: PATIENT_JSON_HEADERS,
  async run({ params, body, now }) {
    return ok(await reschedulePatientAppointment(params.token, body.scheduled_at, now));
  },
});
