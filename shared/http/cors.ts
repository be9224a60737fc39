/**
 * The functions' side of CORS (policy: shared/http/cors-policy.ts, docs/deploy.md "CORS"): an answer to a request
 * whose `Origin` is one of CORS_ALLOW_ORIGINS names that origin, `Vary: Origin` and the headers the browser
 * may read; any other answer gets only `Vary: Origin` (a cache must not serve one to the other). Without CORS_ALLOW_ORIGINS there is no middleware at all.
 * Preflights never reach a function: API Gateway (and the local server) answer `OPTIONS` themselves.
 *
 * The headers are written here, not by @middy/http-cors (issue #33): the policy above already decides whether
 * an origin is allowed, and what is left is three headers, which the library wrote with 4 KB of option
 * handling in every bundle. Access-Control-Expose-Headers goes only to an allowed origin; and an answer given
 * early (an idempotent replay) skips every `after`, so `corsOnEarlyAnswer` gives that answer the same headers.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../config';
import { allowedOrigin, answerCorsHeaders } from './cors-policy';
import type { LabContext } from './middlewares';

type LabRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;
type LabMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;

/** A Vary header value that names Origin, keeping what it named. */
function withOrigin(vary: unknown): string {
  const names = typeof vary === 'string' && vary.trim() !== '' ? vary.split(',').map((name) => name.trim()) : [];
  return names.some((name) => name.toLowerCase() === 'origin') ? names.join(', ') : [...names, 'Origin'].join(', ');
}

function corsWriter(origins: readonly string[]): (request: LabRequest) => void {
  return (request) => {
    const response = request.response;
    if (!response) return;
    // A copy: a handler may answer a cached response object (shared/http/static-responses.ts), which must
    // not keep one caller's origin for the next. Vary either way: a cache must tell the two answers apart.
    // The headers API Gateway's own answers carry too (the policy's answerCorsHeaders), Vary merged.
    const origin = allowedOrigin(request.event?.headers, origins);
    const headers = { ...response.headers, ...(origin === undefined ? {} : answerCorsHeaders(origin)), Vary: withOrigin(response.headers?.Vary) };
    request.response = { ...response, headers };
  };
}

/**
 * The CORS headers of every answer, errors included: registered outermost (before the error stage), so its
 * `after` and `onError` run last, on the response as it leaves.
 */
export function corsHeaders(origins: readonly string[] = config.corsAllowOrigins): LabMiddleware[] {
  if (origins.length === 0) return [];
  const write = corsWriter(origins);
  return [{ after: write, onError: write }];
}

/** `middleware` whose early answer (its `before` returns one, as a replayed create) carries the CORS headers too. */
export function corsOnEarlyAnswer(middleware: LabMiddleware, origins: readonly string[] = config.corsAllowOrigins): LabMiddleware {
  const before = middleware.before;
  if (origins.length === 0 || !before) return middleware;
  const write = corsWriter(origins);
  return {
    ...middleware,
    before: async (request) => {
      const answer: unknown = await before(request);
      if (answer === undefined) return undefined;
      request.response = answer as APIGatewayProxyResult;
      write(request);
      return request.response;
    },
  };
}
