// GET /api/v1/appointments/{id}/results/fhir — the results as a FHIR R4 Bundle (beyond the spec).
import { FHIR_JSON } from '../../shared/fhir/results-bundle';
import { httpHandler } from '../../shared/http/handler';
import { textOf } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { resultsFhir } from '../../shared/usecases/results-fhir';
import * as routes from '../../shared/routes/results';

export const handler = httpHandler({
  route: routes.getAppointmentResultsFhir,
  params: IdParams,
  async run({ params, access, now, baseUrl }) {
    return textOf(FHIR_JSON, JSON.stringify(await resultsFhir(params.id, { access, now }, baseUrl)));
  },
});
