// GET /docs/assets/{file} — no key: the docs page's script, style sheet and initializer, and the events' JSON
// Schemas its introduction links to, gzipped when accepted.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as v from 'valibot';
import { NotFound } from '../../shared/errors';
import { publicHttpHandler } from '../../shared/http/stack';
import type { BinaryBody, Reply } from '../../shared/http/responses';
import { gzipWhenAccepted, staticFile } from '../../shared/http/static-responses';
// The events' JSON Schemas (docs/events/, generated from the code), which the document's introduction links to.
import appointmentRescheduled from '../../docs/events/appointment-rescheduled.schema.json' with { type: 'json' };
import appointmentStatusChanged from '../../docs/events/appointment-status-changed.schema.json' with { type: 'json' };
import criticalResultReported from '../../docs/events/critical-result-reported.schema.json' with { type: 'json' };
import homeKitOrderStatusChanged from '../../docs/events/home-kit-order-status-changed.schema.json' with { type: 'json' };
import labOrderAccepted from '../../docs/events/lab-order-accepted.schema.json' with { type: 'json' };
import labOrderFailed from '../../docs/events/lab-order-failed.schema.json' with { type: 'json' };
import labOrderRefused from '../../docs/events/lab-order-refused.schema.json' with { type: 'json' };
import labOrderRequested from '../../docs/events/lab-order-requested.schema.json' with { type: 'json' };
import labResultsAvailable from '../../docs/events/lab-results-available.schema.json' with { type: 'json' };
import labResultsCorrected from '../../docs/events/lab-results-corrected.schema.json' with { type: 'json' };
import labResultsReported from '../../docs/events/lab-results-reported.schema.json' with { type: 'json' };
import labResultsUpdated from '../../docs/events/lab-results-updated.schema.json' with { type: 'json' };
import shipmentStatusChanged from '../../docs/events/shipment-status-changed.schema.json' with { type: 'json' };
import specimenRejected from '../../docs/events/specimen-rejected.schema.json' with { type: 'json' };
import * as routes from '../../shared/routes/service';

/**
 * The files of swagger-ui-dist this route serves, read from the installed package: node_modules locally,
 * and in the Lambda a copy beside the bundle (infra/route-classes.ts PACKAGE_FILES has the CDK copy them).
 */
export const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css'] as const;

/** The page's initializer: a file rather than an inline script, so that the page's CSP allows no inline code. */
const INITIALIZER = `window.ui = SwaggerUIBundle({
  url: 'api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'BaseLayout',
});
`;

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const ONE_DAY = 86_400;

const packageDir = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** A file of the package, without its source map comment: the map is not served, so a browser must not ask. */
async function swaggerUiFile(name: (typeof SWAGGER_UI_FILES)[number]): Promise<Buffer> {
  const text = await readFile(join(packageDir(), name), 'utf8');
  return Buffer.from(text.replace(/\/\*# sourceMappingURL=[^*]*\*\/\s*$|\/\/# sourceMappingURL=\S*\s*$/, ''));
}

const ASSETS = new Map<string, { contentType: string; read: () => Promise<Buffer> }>([
  ['swagger-ui-bundle.js', { contentType: JS, read: () => swaggerUiFile('swagger-ui-bundle.js') }],
  ['swagger-ui.css', { contentType: CSS, read: () => swaggerUiFile('swagger-ui.css') }],
  ['docs.js', { contentType: JS, read: async () => Buffer.from(INITIALIZER) }],
]);

/** docs/events/<file>, served as docs/assets/<file>: the introduction's links resolve on the page itself. */
const EVENT_SCHEMAS = new Map<string, unknown>([
  ['appointment-rescheduled.schema.json', appointmentRescheduled],
  ['appointment-status-changed.schema.json', appointmentStatusChanged],
  ['critical-result-reported.schema.json', criticalResultReported],
  ['home-kit-order-status-changed.schema.json', homeKitOrderStatusChanged],
  ['lab-order-accepted.schema.json', labOrderAccepted],
  ['lab-order-failed.schema.json', labOrderFailed],
  ['lab-order-refused.schema.json', labOrderRefused],
  ['lab-order-requested.schema.json', labOrderRequested],
  ['lab-results-available.schema.json', labResultsAvailable],
  ['lab-results-corrected.schema.json', labResultsCorrected],
  ['lab-results-reported.schema.json', labResultsReported],
  ['lab-results-updated.schema.json', labResultsUpdated],
  ['shipment-status-changed.schema.json', shipmentStatusChanged],
  ['specimen-rejected.schema.json', specimenRejected],
]);
for (const [file, schema] of EVENT_SCHEMAS) {
  ASSETS.set(file, { contentType: 'application/schema+json', read: async () => Buffer.from(`${JSON.stringify(schema, null, 2)}\n`) });
}

const NO_SUCH_ASSET = `No such file; the docs page uses ${[...ASSETS.keys()].filter((file) => !EVENT_SCHEMAS.has(file)).join(', ')} and the event schemas it links to`;

/** Read once per container: the same files answer every request. */
const replies = new Map<string, Reply<200, BinaryBody>>();

export const handler = publicHttpHandler({
  route: routes.getDocsAsset,
  params: v.object({ file: v.string() }),
  async run({ params }) {
    const asset = ASSETS.get(params.file);
    if (!asset) throw new NotFound(NO_SUCH_ASSET);
    let reply = replies.get(params.file);
    if (!reply) {
      reply = staticFile(await asset.read(), asset.contentType, ONE_DAY);
      replies.set(params.file, reply);
    }
    return reply;
  },
});
handler.use(gzipWhenAccepted());
