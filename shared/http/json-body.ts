/**
 * The JSON request body, read with bounded work before any validation sees it. Every step refuses
 * as early and as cheaply as it can, so that no body a client can send costs more than a small one:
 *
 *   Content-Type application/json (415) → size ≤ 64 KiB, judged from the length before decoding (413)
 *   → bytes that are UTF-8 (400) → no nesting deeper than 16, judged from the text (400) → JSON (400) → no
 *   property named __proto__, constructor or prototype, no array longer than 1,000 items (400).
 *
 * API Gateway hands every body over as base64 (binaryMediaTypes is every type, infra/lab-api-stack.ts),
 * so the bytes reach us as the client sent them: a Latin-1 "J\xfcrgen" is refused here instead of
 * being stored as "J\ufffdrgen". The local server hands them over the same way.
 *
 * The parse itself is the design card's `@middy/http-json-body-parser`, behind the bounded checks above it:
 * it decodes base64 with Buffer#toString (which would turn invalid bytes into U+FFFD, hence our strict
 * decode first), accepts `application/*+json` (which we refuse first, with 415) and answers 422 for bad
 * JSON or a `__proto__` key (translated here into today's 400 answers). The structural limits run on its
 * result.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { GenericSchema } from 'valibot';
import { InvalidInput } from '../errors';
import { HttpError, UnsupportedMediaType } from './errors';
import type { LabContext } from './middlewares';

/** Our largest valid body (a home kit order with its address) is under 2 KiB; 64 KiB leaves room for any client. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * `application/json`, optionally with `charset=utf-8`. Other JSON-based types (`application/*+json`,
 * RFC 6839) are refused: each names a format with its own rules (JSON:API, merge patch, problem+json)
 * that this API does not implement, and a 415 tells such a client so before it relies on them.
 */
const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * No request of ours lists more than 100 distinct ids (a pickup), and duplicates are counted once: 1,000
 * leaves room for them. A longer array is refused before validation would build one issue per invalid
 * item: 16,000 invalid ids in 64 KiB cost 40 ms and 130 MB that way.
 */
export const MAX_ARRAY_ITEMS = 1000;

/** Names that would reach an object's prototype if any code ever merged a body into an object. */
const FORBIDDEN_PROPERTY_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * `ignoreBOM`: a byte order mark stays in the text (U+FEFF), so a body that starts with one is refused as JSON
 * (400), as RFC 8259 forbids senders to add it; the decoder would otherwise drop it unseen, and `<BOM>{}`
 * passed for an empty object on a route whose body may be left out.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class PayloadTooLarge extends HttpError {
  constructor() {
    super(413, `Request body must be at most ${MAX_JSON_BODY_BYTES / 1024} KiB`);
  }
}

/** The size of the bytes a base64 text decodes to, without decoding it. */
function base64DecodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

function bodyBytes(body: string, isBase64Encoded: boolean): Uint8Array {
  const size = isBase64Encoded ? base64DecodedLength(body) : Buffer.byteLength(body, 'utf8');
  if (size > MAX_JSON_BODY_BYTES) throw new PayloadTooLarge();
  return isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InvalidInput('Request body must be UTF-8 encoded text');
  }
}

/**
 * No request of ours nests deeper than 3 levels. 16 is checked on the text, before any parse: the
 * library's JSON.parse with a reviver recurses, and 32,000 levels in 63 KiB would overflow its stack.
 */
const MAX_DEPTH = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/** One pass over the text, skipping strings: refuses nesting deeper than MAX_DEPTH. Malformed text is the parser's to refuse. */
function refuseDeepNesting(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (OPENERS.has(c)) {
      if (++depth > MAX_DEPTH) throw new InvalidInput('Request body is nested too deeply');
    } else if (CLOSERS.has(c)) depth--;
  }
}

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Walks the parsed body's objects and arrays (at most MAX_DEPTH deep by now), without recursion, and refuses
 * a forbidden property name (JSON.parse makes "\u005f_proto__" an own property named __proto__) or an array
 * longer than 1,000 items (checked before looking into it: 30,000 numbers cost one comparison).
 */
function refuseForbiddenShapes(root: unknown): void {
  if (!isContainer(root)) return;
  const pending: { value: object; name: string }[] = [{ value: root, name: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, name } = next;
    if (Array.isArray(value)) {
      if (value.length > MAX_ARRAY_ITEMS) throw new InvalidInput(`${name || 'Request body'} must list at most ${MAX_ARRAY_ITEMS} items`);
      for (const item of value) if (isContainer(item)) pending.push({ value: item, name: `${name}[]` });
      continue;
    }
    for (const property in value) {
      if (FORBIDDEN_PROPERTY_NAMES.has(property)) throw new InvalidInput(`Property name "${property}" is not allowed`);
      const item = (value as Record<string, unknown>)[property];
      if (isContainer(item)) pending.push({ value: item, name: name ? `${name}.${property}` : property });
    }
  }
}

type JsonRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;

/** The library's parse, its 422 answers in our words: a forbidden key by name, anything else as invalid JSON. */
const libraryParse = httpJsonBodyParser({ disableContentTypeCheck: true }).before as unknown as (request: JsonRequest) => void;

function parseWithLibrary(request: JsonRequest): void {
  try {
    libraryParse(request);
  } catch (error) {
    const key = (error as { cause?: { data?: unknown } }).cause?.data;
    if ((error as Error).message === 'Forbidden key in JSON body' && typeof key === 'string') {
      throw new InvalidInput(`Property name "${key}" is not allowed`);
    }
    throw new InvalidInput('Request body must be valid JSON');
  }
}

/**
 * Replaces `event.body` with the parsed JSON. An absent or empty body is left for validation to answer
 * "Request body must be a JSON object" (400), not 415.
 */
function readJsonBody(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext> {
  return {
    before: (request) => {
      const { event } = request;
      const { body } = event;
      if (body === null || body === undefined || body === '') return;
      if (!JSON_CONTENT_TYPE.test(event.headers?.['content-type'] ?? '')) throw new UnsupportedMediaType();
      // The library sees checked UTF-8 text, never the base64 it would decode leniently.
      event.body = decodeUtf8(bodyBytes(body, event.isBase64Encoded === true));
      event.isBase64Encoded = false;
      refuseDeepNesting(event.body);
      parseWithLibrary(request);
      refuseForbiddenShapes(event.body);
    },
  };
}

/**
 * What a route that takes a body declares: the body's schema, and the reading above that comes before it
 * (or a form's, shared/http/form-body.ts, with its media types; JSON when none are named).
 */
export interface JsonBody<S extends GenericSchema = GenericSchema> {
  readonly schema: S;
  readonly read: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;
  readonly mediaTypes?: readonly string[];
  /** The client may leave the body out (optionalJsonBody). */
  readonly optional?: true;
}

/**
 * `body: jsonBody(CreateProfileBody)` in a handler's definition: a JSON body of that schema. The reading
 * comes with the schema, so only a function whose route takes a body bundles it (issue #33).
 */
export function jsonBody<S extends GenericSchema>(schema: S): JsonBody<S> {
  return { schema, read: readJsonBody() };
}

/**
 * A JSON body the client may leave out (POST /appointments/{id}/patient-link): none, or an empty one, is read as
 * `{}`; one that is there is read as `jsonBody` reads it (content type, size, UTF-8, JSON).
 */
export function optionalJsonBody<S extends GenericSchema>(schema: S): JsonBody<S> {
  const read = readJsonBody();
  return {
    schema,
    optional: true,
    read: {
      before: (request) => {
        const { body } = request.event;
        if (body === null || body === undefined || body === '') return void ((request.event as { body: unknown }).body = {});
        return read.before?.(request);
      },
    },
  };
}
