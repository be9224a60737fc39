// POST /p/{token}/cancel — no key: the patient cancels their appointment, with an optional reason (JSON, same origin only).
import { PATIENT_JSON_HEADERS, sameOriginJsonBody } from '../../shared/http/patient-link';
import { ok } from '../../shared/http/responses';
import { publicHttpHandler } from '../../shared/http/stack';
import { CancelByLinkBody } from '../../shared/schemas/bodies/patient-page';
import { PatientLinkParams } from '../../shared/schemas/patient-page';
import { cancelPatientAppointment } from '../../shared/usecases/patient-changes';
import * as routes from '../../shared/routes/patient-page';

export const handler = publicHttpHandler({
  route: routes.cancelPatientAppointment,
  params: PatientLinkParams,
  body: sameOriginJsonBody(CancelByLinkBody),
  headers: PATIENT_JSON_HEADERS,
  async run({ params, body, now }) {
    return ok(await cancelPatientAppointment(params.token, body.reason, now));
  },
});
