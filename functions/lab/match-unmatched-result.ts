// POST /api/v1/lab/unmatched-results/{id}/match — applies a report that matched no order to its appointment (issue #51).
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { MatchUnmatchedResultBody } from '../../shared/schemas/bodies/lab';
import { IdParams } from '../../shared/schemas/fields';
import { toUnmatchedResult } from '../../shared/schemas/unmatched-results';
import { matchUnmatchedResult } from '../../shared/usecases/unmatched-results';
import * as routes from '../../shared/routes/lab';

export const handler = httpHandler({
  route: routes.matchUnmatchedResult,
  params: IdParams,
  body: jsonBody(MatchUnmatchedResultBody),
  async run({ params, body, access, now }) {
    return ok(toUnmatchedResult(await matchUnmatchedResult(params.id, body.appointment_id, { access, now })));
  },
});
