/**
 * The HTTP edge of the patient's link (issue #53, docs/patient-page.md): the security headers of every answer of
 * its routes, and the JSON body of its two changes (reschedule, cancel), which another site must not be able to
 * send in the patient's browser:
 *
 *   Content-Type application/json, whether or not there is a body (415: a form's types too; an HTML form can
 *   send only those and text/plain, so no form of another site reaches the use case) → `Sec-Fetch-Site`, when
 *   the browser sends it, `same-origin` (403) → `Origin`, when sent, the page's own (403) → the JSON read.
 *
 * The page's own origin is the one its links point at (PATIENT_PAGE_ORIGIN, else EMAIL_LINK_ORIGIN), or the
 * origin the request itself reached (its Host): the same server either way, which another site's page cannot
 * make a browser name as its Origin. The second is what makes the local stack work from http://localhost:3000
 * as from http://127.0.0.1:3000.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { GenericSchema } from 'valibot';
import { config } from '../config';
import { NotPermitted } from '../errors';
import { UnsupportedMediaType } from './errors';
import { type JsonBody, jsonBody } from './json-body';
import type { LabContext } from './middlewares';
import { requestBaseUrl } from './static-responses';
import { TOKEN_ROUTE_HEADERS } from './token-route-headers';

/**
 * On every answer of the link's routes, errors included (shared/http/stack.ts `headers`): no frame, no Referer
 * (the token is in the address), no cache, no index. The page's own Content-Security-Policy comes with the
 * rendered page (shared/patient-page/render.ts); the JSON answers get PATIENT_JSON_HEADERS' stricter one.
 */
export const PATIENT_LINK_HEADERS = TOKEN_ROUTE_HEADERS;

/** The JSON endpoints' headers: the link's, and a policy under which nothing would run or load. */
export const PATIENT_JSON_HEADERS = {
  ...PATIENT_LINK_HEADERS,
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
} as const;

const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

const originOf = (url: string | undefined): string | undefined => {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** The origins a post of the page comes from: the configured page origin, and the origin this request reached. */
export function ownOrigins(event: APIGatewayProxyEvent): Set<string> {
  const origins = new Set<string>();
  for (const url of [config.email.patientPageOrigin ?? config.email.linkOrigin, requestBaseUrl(event)]) {
    const origin = originOf(url);
    if (origin && origin !== 'null') origins.add(origin);
  }
  return origins;
}

export const CROSS_SITE = 'This request must come from the appointment page itself';

function sameOriginJson(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext> {
  return {
    before: ({ event }) => {
      if (!JSON_TYPE.test(event.headers?.['content-type'] ?? '')) throw new UnsupportedMediaType();
      const site = event.headers?.['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin') throw new NotPermitted(CROSS_SITE);
      const origin = event.headers?.origin;
      if (origin !== undefined && !ownOrigins(event).has(origin)) throw new NotPermitted(CROSS_SITE);
    },
  };
}

/** `body: sameOriginJsonBody(Schema)`: the checks above, then the JSON body as `jsonBody` reads it. */
export function sameOriginJsonBody<S extends GenericSchema>(schema: S): JsonBody<S> {
  const checks = sameOriginJson();
  const read = jsonBody(schema).read;
  return {
    schema,
    read: {
      before: async (request) => {
        await checks.before?.(request);
        return read.before?.(request);
      },
    },
  };
}
