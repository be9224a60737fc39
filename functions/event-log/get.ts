// GET /api/v1/events/{id} — one event of the log, as its webhook body with its id.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toEventLogEntry } from '../../shared/schemas/event-log';
import { IdParams } from '../../shared/schemas/fields';
import { getEvent } from '../../shared/usecases/event-log';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.getEvent,
  params: IdParams,
  async run({ params, access }) {
    return ok(toEventLogEntry(await getEvent(params.id, access)));
  },
});
