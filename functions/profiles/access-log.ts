// GET /api/v1/profiles/{id}/access-log — who read this person's data, newest first (docs/privacy.md "Privacy").
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { toAccessLogEntry } from '../../shared/schemas/access-log';
import { IdParams } from '../../shared/schemas/fields';
import { PageQuery } from '../../shared/schemas/pagination';
import { readAccessLog } from '../../shared/usecases/read-access-log';
import { pageFor } from '../../shared/usecases/paging';
import * as routes from '../../shared/routes/profiles';

export const handler = httpHandler({
  route: routes.listProfileAccessLog,
  params: IdParams,
  query: PageQuery,
  async run({ params, query, access }) {
    const page = await readAccessLog(params.id, access, pageFor(query, access));
    return okPage({ ...page, items: page.items.map(toAccessLogEntry) });
  },
});
