/**
 * Responses that are the same for every caller: the OpenAPI document, the docs page and its files. Unlike
 * the API's resources (shared/http/responses.ts, no-store) they carry no patient data and may be cached.
 *
 * Two of them depend on the request itself rather than on its parsed input: the address it was sent to
 * (the document's `servers`) and the encodings it accepts (gzip). A handler's `run` sees the parsed input
 * only, so these two are middlewares the handler adds to its stack (`handler.use(…)`, Middy's own idiom):
 * added last, their `after` hook is the first to see the response `run` returned, and finishes it. They
 * never modify that response in place: a handler may return a cached one. An error skips them.
 */
import { gzipSync } from 'node:zlib';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { LabContext } from './middlewares';
import type { BinaryBody, Reply } from './responses';

type LabMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;

export const cacheFor = (seconds: number) => `public, max-age=${seconds}`;

/** A file's bytes with their content type, cacheable for `maxAgeSeconds`. */
export function staticFile(bytes: Buffer, contentType: string, maxAgeSeconds: number): Reply<200, BinaryBody> {
  return {
    statusCode: 200,
    headers: { 'Content-Type': contentType, 'Cache-Control': cacheFor(maxAgeSeconds), 'X-Content-Type-Options': 'nosniff' },
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  };
}

/** An HTML page with its Content-Security-Policy, cacheable for `maxAgeSeconds`. */
export function htmlPage(html: string, contentSecurityPolicy: string, maxAgeSeconds: number): Reply<200, BinaryBody> {
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': cacheFor(maxAgeSeconds),
      'Content-Security-Policy': contentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body: html,
  };
}

const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * Where this API was called, stage included: `https://abc.execute-api.eu-central-1.amazonaws.com/prod`
 * in AWS, `http://127.0.0.1:3000` locally. API Gateway's `requestContext.path` is the path as requested
 * (`/prod/api/v1/openapi.json`), `path` the route's own (`/api/v1/openapi.json`): what precedes it is the
 * stage (or a custom domain's base path). Headers are lower-case here (the stack lower-cased their names). A Host
 * that is not a host name answers a relative URL rather than reflect arbitrary text into the document.
 */
export function requestBaseUrl(event: APIGatewayProxyEvent): string {
  const requested = event.requestContext?.path ?? event.path;
  const prefix = requested.endsWith(event.path) ? requested.slice(0, requested.length - event.path.length) : '';
  const host = event.headers?.host ?? '';
  if (!HOST.test(host)) return prefix || '/';
  const scheme = event.headers?.['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https' ? 'https' : 'http';
  return `${scheme}://${host}${prefix}`;
}

/** Sets the `servers` of the OpenAPI document `run` answered to the one this request reached. */
export function serversOfRequest(): LabMiddleware {
  return {
    after: (request) => {
      const response = request.response;
      if (response?.statusCode !== 200) return;
      const document = JSON.parse(response.body) as Record<string, unknown>;
      const body = JSON.stringify({ ...document, servers: [{ url: requestBaseUrl(request.event) }] });
      request.response = { ...response, body };
    },
  };
}

/**
 * Whether an Accept-Encoding header allows gzip: listed with a non-zero quality, or not listed and `*`
 * allowed. No header means no compression (RFC 9110 allows any, but a client that sends none may not
 * decode it).
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  const qualities = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...parameters] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = parameters.find((p) => p.startsWith('q='));
    if (name) qualities.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  return (qualities.get('gzip') ?? qualities.get('*') ?? 0) > 0;
}

/** A static handler answers a handful of distinct bodies; more than this many means it is not one. */
const MAX_CACHED_BODIES = 16;

/**
 * Gzips a 200 response when the request accepts it (API Gateway answers at most 6 MB; Swagger UI's
 * script alone is 1.7 MB, 0.5 MB gzipped). Each distinct body is compressed once per container.
 * `Vary: Accept-Encoding` either way, so that a cache never serves the gzipped copy to a client that
 * did not ask for it.
 */
export function gzipWhenAccepted(): LabMiddleware {
  const compressed = new Map<string, string>();
  return {
    after: (request) => {
      const response = request.response;
      if (response?.statusCode !== 200) return;
      const headers = { ...response.headers, Vary: 'Accept-Encoding' };
      if (!acceptsGzip(request.event.headers?.['accept-encoding'])) {
        request.response = { ...response, headers };
        return;
      }
      let body = compressed.get(response.body);
      if (body === undefined) {
        body = gzipSync(Buffer.from(response.body, response.isBase64Encoded ? 'base64' : 'utf8')).toString('base64');
        if (compressed.size >= MAX_CACHED_BODIES) compressed.clear();
        compressed.set(response.body, body);
      }
      request.response = { ...response, headers: { ...headers, 'Content-Encoding': 'gzip' }, body, isBase64Encoded: true };
    },
  };
}
