// GET /api/v1/events — the events this key could receive by webhook, newest first, a page at a time.
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { EventLogQuery, toEventLogEntry } from '../../shared/schemas/event-log';
import { listEvents } from '../../shared/usecases/event-log';
import { pageFor } from '../../shared/usecases/paging';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.listEvents,
  query: EventLogQuery,
  async run({ query, access }) {
    const page = await listEvents(query, access, pageFor(query, access));
    return okPage({ ...page, items: page.items.map(toEventLogEntry) });
  },
});
