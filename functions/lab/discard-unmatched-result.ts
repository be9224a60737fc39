// POST /api/v1/lab/unmatched-results/{id}/discard — closes a report that matched no order, with the reason (issue #51).
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { DiscardUnmatchedResultBody } from '../../shared/schemas/bodies/lab';
import { IdParams } from '../../shared/schemas/fields';
import { toUnmatchedResult } from '../../shared/schemas/unmatched-results';
import { discardUnmatchedResult } from '../../shared/usecases/unmatched-results';
import * as routes from '../../shared/routes/lab';

export const handler = httpHandler({
  route: routes.discardUnmatchedResult,
  params: IdParams,
  body: jsonBody(DiscardUnmatchedResultBody),
  async run({ params, body, access, now }) {
    return ok(toUnmatchedResult(await discardUnmatchedResult(params.id, body.reason, { access, now })));
  },
});
