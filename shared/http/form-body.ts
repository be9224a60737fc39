/**
 * A form body (issue #52: the one-click unsubscribe of RFC 8058, which mail providers POST as
 * `List-Unsubscribe=One-Click`), read with bounded work before validation sees it:
 *
 *   Content-Type application/x-www-form-urlencoded or multipart/form-data (RFC 8058 allows both; 415)
 *   → size ≤ 1 KiB, judged from the length before decoding (413) → bytes that are UTF-8 (400)
 *   → the fields, one value per name (the first), as an object for the route's valibot schema.
 *
 * A form is what a browser and a mail provider send, not JSON: only the routes that declare `formBody(…)`
 * read one (json-body.ts is the JSON routes'). Its declaration has the shape of a JSON body's, so the stack
 * and the OpenAPI generator treat both alike, each with its own media types.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { GenericSchema } from 'valibot';
import { InvalidInput } from '../errors';
import { HttpError, UnsupportedMediaType } from './errors';
import type { JsonBody } from './json-body';
import type { LabContext } from './middlewares';

/** `List-Unsubscribe=One-Click` is 26 bytes, as multipart a few hundred: 1 KiB holds either, and no more. */
export const MAX_FORM_BODY_BYTES = 1024;

export const FORM_MEDIA_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'] as const;

const URL_ENCODED = /^application\/x-www-form-urlencoded\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;
const MULTIPART = /^multipart\/form-data\s*;.*\bboundary\s*=\s*(?:"([^"]{1,70})"|([^\s;]{1,70}))/i;

class FormTooLarge extends HttpError {
  constructor() {
    super(413, `Request body must be at most ${MAX_FORM_BODY_BYTES / 1024} KiB`);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodedText(body: string, isBase64Encoded: boolean): string {
  const size = isBase64Encoded ? Math.floor((body.length * 3) / 4) - (body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0) : Buffer.byteLength(body, 'utf8');
  if (size > MAX_FORM_BODY_BYTES) throw new FormTooLarge();
  try {
    return utf8.decode(isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8'));
  } catch {
    throw new InvalidInput('Request body must be UTF-8 encoded text');
  }
}

/** The first value of each name: a repeated field cannot smuggle a second meaning past the schema. */
function firstValues(pairs: Iterable<[string, string]>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of pairs) if (!Object.hasOwn(fields, name)) Object.defineProperty(fields, name, { value, enumerable: true });
  return fields;
}

/** The text fields of a multipart/form-data body (RFC 7578): each part's name and value; files are not read. */
function* multipartFields(text: string, boundary: string): Generator<[string, string]> {
  for (const part of text.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) return;
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) continue;
    const disposition = /^content-disposition:\s*form-data\s*;(.*)$/im.exec(part.slice(0, headerEnd))?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined || /\bfilename\*?=/i.test(disposition)) continue;
    yield [name, part.slice(headerEnd + 4).replace(/\r\n$/, '')];
  }
}

function readFormBody(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext> {
  return {
    before: ({ event }) => {
      const { body } = event;
      // Absent or empty: validation answers that the field is missing (400), not 415.
      if (body === null || body === undefined || body === '') return void ((event as { body: unknown }).body = {});
      const type = event.headers?.['content-type'] ?? '';
      const multipart = MULTIPART.exec(type);
      if (!multipart && !URL_ENCODED.test(type)) throw new UnsupportedMediaType(`Content-Type must be ${FORM_MEDIA_TYPES.join(' or ')}`);
      const text = decodedText(body, event.isBase64Encoded === true);
      event.isBase64Encoded = false;
      const boundary = multipart && (multipart[1] ?? multipart[2]);
      (event as { body: unknown }).body = firstValues(boundary ? multipartFields(text, boundary) : new URLSearchParams(text));
    },
  };
}

/**
 * `body: formBody(Schema)` in a handler's definition: a form of that schema's fields (strings). Only a function
 * whose route takes a form bundles this reading.
 */
export function formBody<S extends GenericSchema>(schema: S): JsonBody<S> {
  return { schema, read: readFormBody(), mediaTypes: FORM_MEDIA_TYPES };
}
