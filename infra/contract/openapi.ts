/**
 * docs/openapi.json, generated, never hand-written: the routes table (where, who), each handler's own
 * input schemas (what it accepts: the very schemas that validate requests) and shared/contract/operations.ts
 * (what it answers), converted with @valibot/to-json-schema. Also writes docs/lab-api.d.ts, the TypeScript
 * types openapi-typescript derives from the document, for openapi-fetch clients.
 *
 *   npm run openapi     rewrites both files (test/unit/openapi.test.ts fails while they are stale)
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ConversionConfig, type JsonSchema, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import { SCOPES } from '../../shared/domain/scopes';
import { type OperationDoc, operations, TAGS } from '../../shared/contract/operations';
import type { HandlerContract } from '../../shared/http/handler';
import { REPLAYED_HEADER } from '../../shared/http/responses';
import { type Route, type RouteName, routes } from '../../shared/routes';
import * as appointments from '../../shared/schemas/appointments';
import * as appointmentBodies from '../../shared/schemas/bodies/appointments';
import * as homeKitOrderBodies from '../../shared/schemas/bodies/home-kit-orders';
import * as locationBodies from '../../shared/schemas/bodies/locations';
import * as profileBodies from '../../shared/schemas/bodies/profiles';
import * as shipmentBodies from '../../shared/schemas/bodies/shipments';
import * as catalog from '../../shared/schemas/catalog';
import * as profileExport from '../../shared/schemas/export';
import { AttachedBiomarker, AttachedPanel, ErrorBody, Success } from '../../shared/schemas/fields';
import * as homeKitOrders from '../../shared/schemas/home-kit-orders';
import * as locations from '../../shared/schemas/locations';
import { PageQuery } from '../../shared/schemas/pagination';
import * as profiles from '../../shared/schemas/profiles';
import * as results from '../../shared/schemas/results';
import * as shipments from '../../shared/schemas/shipments';
import { ReferenceRange, Variant } from '../../shared/events/result-shapes';
import { PUBLISHED_EVENTS } from './event-schemas';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/event-types';
import { errorResponse, errorResponses, GENERIC_ERRORS } from './error-responses';
import { webhookSchemaName, webhooksContract } from './webhooks';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const OPENAPI_FILE = join(ROOT, 'docs/openapi.json');
export const CLIENT_TYPES_FILE = join(ROOT, 'docs/lab-api.d.ts');
export const LOCAL_SERVER = 'http://127.0.0.1:3000';

type Json = Record<string, unknown>;

const isSchema = (value: unknown): value is GenericSchema => typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema';

/**
 * Named schemas: every object or union a schemas module exports under a capitalised name becomes
 * `#/components/schemas/<Name>` and is referenced wherever it appears. Field helpers (uuid, text) stay inline.
 */
function components(): Record<string, GenericSchema> {
  const named: Record<string, GenericSchema> = { Error: ErrorBody, Success, AttachedPanel, AttachedBiomarker, ReferenceRange, Variant };
  const modules = [profiles, appointments, catalog, locations, results, shipments, homeKitOrders, profileExport];
  const bodies = [profileBodies, appointmentBodies, locationBodies, shipmentBodies, homeKitOrderBodies];
  for (const module of [...modules, ...bodies]) {
    for (const [name, value] of Object.entries(module)) {
      if (/^[A-Z]/.test(name) && isSchema(value) && ['object', 'strict_object', 'union', 'variant'].includes(value.type)) {
        named[name] = value;
      }
    }
  }
  // Params and queries become parameters, not schemas; the parsing wrapper of a delivery address is documented by its shape.
  for (const name of ['ShipmentParams', 'AvailabilityQuery', 'DeliveryAddressSchema']) delete named[name];
  // Sorted: the key order of a module namespace differs between loaders (tsx, vitest), the file must not.
  return Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b)));
}

function converter(definitions: Record<string, GenericSchema>): ConversionConfig {
  return {
    target: 'draft-2020-12',
    // Requests are documented as clients send them (before a transform); custom checks are described in words.
    // Response schemas have no transforms, so for them input and output are the same.
    typeMode: 'input',
    errorMode: 'ignore',
    definitions,
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  };
}

/** One converted schema, without the draft declaration and the definitions the document holds once. */
function convert(schema: GenericSchema, config: ConversionConfig): Json {
  const { $schema: _draft, $defs: _defs, ...rest } = toJsonSchema(schema, config) as Json;
  return rest;
}

function parameters(contract: HandlerContract, config: ConversionConfig): Json[] {
  const list: Json[] = [];
  for (const [where, schema] of [
    ['path', contract.params],
    ['query', contract.query],
  ] as const) {
    if (!schema) continue;
    const object = convert(schema, config) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description, ...rest } = property;
      // Query values arrive as text; an integer parameter's default is documented as the number it means.
      if (rest.type === 'integer' && typeof rest.default === 'string') rest.default = Number(rest.default);
      list.push({
        name,
        in: where,
        required: where === 'path' || (object.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  // A paged list's query: PageQuery's entries, alone or with filters of its own (the event log's).
  if (contract.query === PageQuery || list.some((parameter) => parameter.in === 'query' && parameter.name === 'cursor')) {
    for (const parameter of list) {
      if (parameter.name === 'cursor') parameter.description = 'The X-Next-Cursor header of the previous page.';
      if (parameter.name === 'limit') parameter.description = 'Items per page.';
    }
  }
  if (contract.idempotent) {
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes a retry safe: the same key with the same body within one hour answers the first response again instead of creating twice.',
      schema: { type: 'string' },
    });
  }
  return list;
}

function responses(doc: OperationDoc, route: Route, contract: HandlerContract, config: ConversionConfig): Json {
  const answers: Json = {};
  for (const [status, response] of Object.entries(doc.responses)) {
    const media = response.schema
      ? { 'application/json': { schema: convert(response.schema, config), ...(response.example ? { example: response.example } : {}) } }
      : response.content
        ? { [response.content.type]: { schema: response.content.schema } }
        : undefined;
    answers[status] = {
      description: response.description,
      ...(response.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, header]) => [
                name,
                { description: header.description, required: header.required ?? false, schema: { type: 'string' } },
              ]),
            ),
          }
        : {}),
      ...(media ? { content: media } : {}),
    };
  }
  if (contract.idempotent) {
    for (const answer of Object.values(answers) as Json[]) {
      // Every create that takes an Idempotency-Key marks its replays (shared/http/idempotency.ts).
      answer.headers = {
        ...(answer.headers as Json | undefined),
        [REPLAYED_HEADER]: {
          description: '`true` when this is the first answer again, replayed for a retried Idempotency-Key',
          required: false,
          schema: { type: 'string', enum: ['true'] },
        },
      };
    }
  }
  return { ...answers, ...errorResponses(route, contract, doc) };
}

function operation(name: RouteName, contract: HandlerContract, config: ConversionConfig): Json {
  const route: Route = routes[name];
  const doc: OperationDoc = operations[name];
  const scopeRule = route.allScopes ? 'all required' : 'any one suffices';
  const scopes = route.scopes.length ? `\n\nScopes (${scopeRule}): ${route.scopes.map((scope) => `\`${scope}\``).join(', ')}.` : '';
  const body = contract.body
    ? {
        requestBody: {
          required: contract.bodyOptional !== true,
          // JSON, or the media types of a form (shared/http/form-body.ts), each with the same fields.
          content: Object.fromEntries(
            (contract.bodyMediaTypes ?? ['application/json']).map((type) => [
              type,
              { schema: convert(contract.body!, config), ...(doc.requestExample ? { example: doc.requestExample } : {}) },
            ]),
          ),
        },
      }
    : {};
  const params = parameters(contract, config);
  return {
    operationId: name,
    tags: [doc.tag],
    summary: doc.summary,
    description: doc.description + scopes,
    ...(route.scopes.length ? { 'x-scopes': route.scopes, security: [{ apiKey: [] }] } : { security: [] }),
    ...(params.length ? { parameters: params } : {}),
    ...body,
    responses: responses(doc, route, contract, config),
  };
}

/** Every handler's contract, read from the handler module the routes table names. */
export async function handlerContracts(): Promise<Map<RouteName, HandlerContract>> {
  // Importing a handler reads its configuration; these values are never used (nothing is called).
  process.env.TABLE_NAME ??= 'openapi-generator';
  process.env.DOCUMENTS_BUCKET ??= 'openapi-generator';
  process.env.EVENT_BUS_NAME ??= 'openapi-generator';
  process.env.AWS_REGION ??= 'eu-central-1';
  process.env.CURSOR_SECRET ??= 'openapi-generator-never-signs-a-cursor';
  const contracts = new Map<RouteName, HandlerContract>();
  for (const [name, route] of Object.entries(routes) as [RouteName, Route][]) {
    const module = (await import(pathToFileURL(join(ROOT, route.handler)).href)) as { handler: { contract: HandlerContract } };
    contracts.set(name, module.handler.contract);
  }
  return contracts;
}

export async function openApiDocument(): Promise<Json> {
  const definitions = components();
  const config = converter(definitions);
  const contracts = await handlerContracts();
  const paths: Record<string, Json> = {};
  for (const [name, route] of Object.entries(routes) as [RouteName, Route][]) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(name, contracts.get(name)!, config);
  }
  const { definitions: _named, ...defsConfig } = config;
  const schemas = toJsonSchemaDefs(definitions, defsConfig) as Record<string, JsonSchema>;
  const hooks = webhooksContract();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lab Testing Service API',
      version: '1.0.0',
      summary: 'Patient profiles, test locations, blood-draw appointments, home test kits, courier shipments and lab results.',
      description: [
        'Every request carries the `x-api-key` header, except the Service routes. Each operation lists the scopes it',
        'accepts (any one suffices) in its description and in `x-scopes`; a key sees only the profiles and locations',
        'of its access context (others answer 403). Errors are `{"error": "..."}` with the status saying what kind.',
        '',
        'Paged lists answer a JSON array; the cursor of the next page is the `X-Next-Cursor` header.',
        'Creates accept an `Idempotency-Key` header that makes retries safe.',
        '',
        'Webhooks: what the API POSTs to a subscription, one section per event type (the `webhooks` of this document;',
        "the typed client's `WebhookBody<'AppointmentStatusChanged'>` names a body):",
        // Swagger UI's deep link of a webhook (its section is `webhooks`, whatever the operation's tag).
        ...WEBHOOK_EVENT_TYPES.map((type) => `- [${type}](#/webhooks/receive${webhookSchemaName(type)})`),
        '',
        'Events on Amazon EventBridge, for the lab and for consumers in AWS: JSON Schemas of the `detail`, generated',
        'like this document from the code (in the repository under `docs/events/`):',
        // Served by the docs page's asset route (functions/docs/asset.ts): a link, relative to /docs, that opens.
        ...PUBLISHED_EVENTS.map((event) => `- [${event.detailType}](docs/assets/${event.file}) (source \`${event.source}\`): \`docs/events/${event.file}\`.`),
      ].join('\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'Lab Testing Service API team' },
    },
    servers: [{ url: LOCAL_SERVER, description: 'the local stack (npm start); the deployed API serves this document with its own URL' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ apiKey: [] }],
    paths,
    webhooks: hooks.webhooks,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: `An API key issued per client, with scopes among ${SCOPES.join(', ')} and an access context (profile groups, location groups).`,
        },
      },
      schemas: { ...schemas, ...hooks.schemas },
      responses: Object.fromEntries(Object.entries(GENERIC_ERRORS).map(([status, [name, description]]) => [name, errorResponse(description, Number(status))])),
    },
  };
}

export const documentText = async () => `${JSON.stringify(await openApiDocument(), null, 2)}\n`;

/** The types openapi-typescript generates from a document text. */
export async function clientTypesText(documentJson: string): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  // defaultNonNullable off: a request field with a default (language) stays optional for the caller.
  const ast = await openapiTS(documentJson, { alphabetize: false, defaultNonNullable: false });
  // One name for a webhook's body by its type, for a client's receiver: WebhookBody<'AppointmentStatusChanged'>.
  const helpers = [
    "/** The body of a webhook the API POSTs, by its type (the document's `webhooks`), e.g. WebhookBody<'AppointmentStatusChanged'>. */",
    "export type WebhookBody<T extends keyof webhooks> = NonNullable<webhooks[T]['post']>['requestBody']['content']['application/json'];",
    '/** Any webhook body, narrowed by its `type`. */',
    'export type AnyWebhookBody = { [T in keyof webhooks]: WebhookBody<T> }[keyof webhooks];',
  ].join('\n');
  return `/* Generated by npm run openapi from docs/openapi.json with openapi-typescript: do not edit. */\n${astToString(ast)}${helpers}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = await documentText();
  writeFileSync(OPENAPI_FILE, text);
  writeFileSync(CLIENT_TYPES_FILE, await clientTypesText(text));
  console.log(`wrote docs/openapi.json (${text.length} bytes) and docs/lab-api.d.ts`);
}
