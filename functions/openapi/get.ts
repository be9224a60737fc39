// GET /api/v1/openapi.json — no key: the API's contract (docs/openapi.json, generated from the code's schemas).
import document from '../../docs/openapi.json' with { type: 'json' };
import { publicHttpHandler } from '../../shared/http/stack';
import { json } from '../../shared/http/responses';
import { cacheFor, serversOfRequest } from '../../shared/http/static-responses';
import * as routes from '../../shared/routes/service';

const FIVE_MINUTES = 300;

export const handler = publicHttpHandler({
  route: routes.getOpenApiDocument,
  async run() {
    // Vary: the `servers` entry depends on the address the request was sent to.
    return json(200, document, { 'Cache-Control': cacheFor(FIVE_MINUTES), Vary: 'Host, X-Forwarded-Proto' });
  },
});
// `servers` becomes the API this request reached (stage included), so that "Try it out" calls that one.
handler.use(serversOfRequest());
