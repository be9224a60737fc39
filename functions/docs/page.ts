// GET /docs — no key: the docs page, Swagger UI rendering /api/v1/openapi.json; every file comes from this API.
import { publicHttpHandler } from '../../shared/http/stack';
import { htmlPage } from '../../shared/http/static-responses';
import * as routes from '../../shared/routes/service';

/**
 * Relative URLs only: the page is /docs locally and /<stage>/docs in AWS, and a relative URL resolves
 * against the page's parent ("/" or "/<stage>/"), so "docs/assets/…" and "api/v1/openapi.json" (in docs.js)
 * reach this same API wherever it is mounted. The scripts are deferred: they run in order once the page is
 * parsed. `data:,` as the icon: no favicon request to fail.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Lab Testing Service API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="docs/assets/swagger-ui.css">
  <script src="docs/assets/swagger-ui-bundle.js" defer></script>
  <script src="docs/assets/docs.js" defer></script>
</head>
<body>
  <div id="swagger-ui"></div>
</body>
</html>
`;

/**
 * Nothing inline and nothing from elsewhere: scripts, styles and requests from this API only. Swagger
 * UI's icons are data: URIs in its style sheet (and the page's icon is one); it sets styles through the
 * DOM, which style-src does not restrict.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const FIVE_MINUTES = 300;

export const handler = publicHttpHandler({
  route: routes.getDocsPage,
  async run() {
    return htmlPage(PAGE, CONTENT_SECURITY_POLICY, FIVE_MINUTES);
  },
});
