// POST /api/v1/appointments/{id}/results/acknowledge — a clinician saw the critical values; answers the results.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toAppointmentResults } from '../../shared/schemas/results';
import { acknowledgeCriticalResults } from '../../shared/usecases/acknowledge-critical-results';
import * as routes from '../../shared/routes/results';

export const handler = httpHandler({
  route: routes.acknowledgeAppointmentResults,
  params: IdParams,
  async run({ params, access, now }) {
    return ok(toAppointmentResults(await acknowledgeCriticalResults(params.id, { access, now })));
  },
});
