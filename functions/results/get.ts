// GET /api/v1/appointments/{id}/results — planned tests next to received results, genetic results, documents.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toAppointmentResults } from '../../shared/schemas/results';
import { readResults } from '../../shared/usecases/read-results';
import * as routes from '../../shared/routes/results';

export const handler = httpHandler({
  route: routes.getAppointmentResults,
  params: IdParams,
  async run({ params, access }) {
    return ok(toAppointmentResults(await readResults(params.id, access)));
  },
});
