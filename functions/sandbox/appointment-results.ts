// POST /api/v1/sandbox/appointments/{id}/results — the lab's answer to a sandbox appointment (sandbox keys only).
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toAppointmentResults } from '../../shared/schemas/results';
import { SimulateResultsBody } from '../../shared/schemas/bodies/sandbox';
import { simulateLabResults } from '../../shared/usecases/simulate-lab-results';
import * as routes from '../../shared/routes/results';

export const handler = httpHandler({
  route: routes.simulateSandboxResults,
  params: IdParams,
  body: jsonBody(SimulateResultsBody),
  async run({ params, body, access, now }) {
    return ok(toAppointmentResults(await simulateLabResults(params.id, body.outcome, { access, now })));
  },
});
