// GET /api/v1/appointments/{id}/results/history — every version of every result, the values corrections replaced included.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toResultsHistory } from '../../shared/schemas/results';
import { readResults } from '../../shared/usecases/read-results';
import * as routes from '../../shared/routes/results';

export const handler = httpHandler({
  route: routes.getAppointmentResultsHistory,
  params: IdParams,
  async run({ params, access }) {
    return ok(toResultsHistory(params.id, await readResults(params.id, access, 'results history')));
  },
});
