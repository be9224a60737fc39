// GET /api/v1/profiles/{id}/messages — what was sent to the person, or why not, newest first (docs/messages.md).
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toMessage } from '../../shared/schemas/messages';
import { PageQuery } from '../../shared/schemas/pagination';
import { pageFor } from '../../shared/usecases/paging';
import { readMessages } from '../../shared/usecases/read-messages';
import * as routes from '../../shared/routes/profiles';

export const handler = httpHandler({
  route: routes.listProfileMessages,
  params: IdParams,
  query: PageQuery,
  async run({ params, query, access }) {
    const page = await readMessages(params.id, access, pageFor(query, access));
    return okPage({ ...page, items: page.items.map(toMessage) });
  },
});
