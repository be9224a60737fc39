// GET /api/v1/lab/unmatched-results — the lab's reports that matched no drawn order, waiting, newest first (issue #51).
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { PageQuery } from '../../shared/schemas/pagination';
import { toUnmatchedResult } from '../../shared/schemas/unmatched-results';
import { pageFor } from '../../shared/usecases/paging';
import { listUnmatchedResults } from '../../shared/usecases/unmatched-results';
import * as routes from '../../shared/routes/lab';

export const handler = httpHandler({
  route: routes.listUnmatchedResults,
  query: PageQuery,
  async run({ query, access, now }) {
    const page = await listUnmatchedResults(access, pageFor(query, access), now);
    return okPage({ ...page, items: page.items.map(toUnmatchedResult) });
  },
});
