/**
 * Every response a test receives is checked against docs/openapi.json: the status is documented for the
 * operation, the content type is the documented one, documented required headers are present, and a JSON
 * body matches its schema (ajv, JSON Schema 2020-12: OpenAPI 3.1's dialect). A mismatch throws, so the
 * test that received the response fails.
 *
 * The document leaves response objects open (a client must tolerate new fields); here they are closed
 * (additionalProperties: false), so a field the contract does not show fails the test.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll } from 'vitest';
import document from '../../docs/openapi.json' with { type: 'json' };

type Json = Record<string, unknown>;
interface MediaDoc {
  schema?: Json;
}
interface ResponseDoc {
  $ref?: string;
  content?: Record<string, MediaDoc>;
  headers?: Record<string, { required?: boolean }>;
}
interface OperationDoc {
  operationId: string;
  responses: Record<string, ResponseDoc>;
}

export const OUTPUT_DIR = join(import.meta.dirname, '../../test-output');

/** A copy of the document whose object schemas allow only the properties they list. */
function closed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(closed) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, closed(inner)])) as Json;
  if (copy.type === 'object' && copy.properties && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy as T;
}

const DOCUMENT_ID = 'https://lab-api.local/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...closed(document), $id: DOCUMENT_ID });

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Templates with fewer parameters first, so /appointments/pickup wins over /appointments/{id}. */
const templates = Object.keys(document.paths)
  .map((path) => ({ path, pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`), params: path.split('{').length }))
  .sort((a, b) => a.params - b.params);

/** The operation a request reaches, matched as the gateway and the local server do: a literal segment wins over a {param}. */
function operationOf(method: string, url: string): { path: string; operation: OperationDoc } | undefined {
  // The path as sent, dot segments unresolved (a URL parser would turn /appointments/%2e%2e/results into /results).
  const pathname = url.startsWith('/') ? (url.split(/[?#]/)[0] ?? '/') : new URL(url).pathname;
  const matching = templates.filter((template) => template.pattern.test(pathname));
  const fewest = Math.min(...matching.map((template) => template.params));
  for (const template of matching.filter((candidate) => candidate.params === fewest)) {
    const operation = (document.paths as Record<string, Record<string, OperationDoc>>)[template.path]?.[method.toLowerCase()];
    if (operation) return { path: template.path, operation };
  }
  return undefined;
}

function resolveResponse(response: ResponseDoc): ResponseDoc {
  if (!response.$ref) return response;
  const name = response.$ref.split('/').pop()!;
  return (document.components.responses as Record<string, ResponseDoc>)[name]!;
}

let validated = 0;
const observed = new Set<string>();

export interface ReceivedResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text or bytes of another one. */
  body: unknown;
}

/**
 * Throws unless a webhook we POSTed matches the document's `webhooks` entry for its type: the Standard
 * Webhooks headers it declares, and the body against its schema.
 */
export function assertWebhookDocumented(headers: Record<string, unknown>, body: string): void {
  const parsed = JSON.parse(body) as { type?: string };
  const hook = (
    document as {
      webhooks?: Record<string, { post: { parameters: { name: string }[]; requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
    }
  ).webhooks?.[String(parsed.type)];
  if (!hook) throw new Error(`webhook of type ${String(parsed.type)} is not in docs/openapi.json's webhooks`);
  for (const { name } of hook.post.parameters) if (typeof headers[name] !== 'string') throw new Error(`webhook ${parsed.type} without its ${name} header`);
  const validate = ajv.getSchema(`${DOCUMENT_ID}${hook.post.requestBody.content['application/json']!.schema.$ref}`)!;
  if (!validate(parsed)) throw new Error(`webhook ${parsed.type} does not match its documented body: ${ajv.errorsText(validate.errors)}`);
}

/** What the gateway answers before any operation runs (shared/http/gateway-responses.ts), always an {error}. */
const GATEWAY_STATUSES = [401, 404, 405, 413];

/**
 * Throws when the response does not match the operation's documented answer. A request that reaches no
 * operation (an unknown path, a wrong method) must get one of the gateway's {error} answers.
 */
export function assertDocumented(method: string, url: string, response: ReceivedResponse): void {
  const match = operationOf(method, url);
  if (!match) {
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/Error`)!;
    if (!GATEWAY_STATUSES.includes(response.status) || !validate(response.body)) {
      throw new Error(`${method} ${url} reaches no operation, yet answered ${response.status} ${JSON.stringify(response.body)}`);
    }
    validated += 1;
    observed.add(`(gateway) ${response.status}`);
    return;
  }
  const { operation, path } = match;
  const where = `${operation.operationId} (${method} ${path}) answered ${response.status}`;
  const documented = operation.responses[String(response.status)];
  if (!documented) {
    throw new Error(`${where}, which docs/openapi.json does not document (documented: ${Object.keys(operation.responses).join(', ')})`);
  }
  const answer = resolveResponse(documented);
  for (const [name, header] of Object.entries(answer.headers ?? {})) {
    if (header.required && !response.headers.has(name)) throw new Error(`${where} without its documented ${name} header`);
  }
  const contentType = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  const media = Object.keys(answer.content ?? {});
  if (media.length > 0 && !media.includes('*/*') && !media.includes(contentType)) {
    throw new Error(`${where} with Content-Type ${contentType}; documented: ${media.join(', ')}`);
  }
  if (contentType === 'application/json' && answer.content?.['application/json']?.schema) {
    const responseRef = documented.$ref
      ? `#/components/responses/${documented.$ref.split('/').pop()}`
      : `#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${response.status}`;
    const validate = ajv.getSchema(`${DOCUMENT_ID}${responseRef}/content/${pointer('application/json')}/schema`)!;
    if (!validate(response.body)) {
      throw new Error(`${where} with a body that does not match docs/openapi.json: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
    }
  }
  validated += 1;
  observed.add(`${operation.operationId} ${response.status}`);
}

/** Each test file adds its count to a file the global teardown of its project sums (see contract-summary.global.ts). */
export function recordContractChecks(project: string): void {
  afterAll(() => {
    if (validated === 0) return;
    mkdirSync(OUTPUT_DIR, { recursive: true });
    appendFileSync(join(OUTPUT_DIR, `contract-${project}.jsonl`), `${JSON.stringify({ validated, observed: [...observed] })}\n`);
    validated = 0;
    observed.clear();
  });
}
