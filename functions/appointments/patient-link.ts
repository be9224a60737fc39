// POST /api/v1/appointments/{id}/patient-link — a link the patient can hold to their appointment's page (issue #53).
import { httpHandler } from '../../shared/http/handler';
import { optionalJsonBody } from '../../shared/http/json-body';
import { created } from '../../shared/http/responses';
import { PatientLinkBody } from '../../shared/schemas/bodies/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { createPatientLink, patientPageBase } from '../../shared/usecases/create-patient-link';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.createPatientLink,
  params: IdParams,
  body: optionalJsonBody(PatientLinkBody),
  async run({ params, body, access, now, baseUrl }) {
    return created(await createPatientLink(params.id, body, { access, now }, patientPageBase(baseUrl)));
  },
});
