/**
 * The middlewares of the one Middy stack (composed in shared/http/stack.ts; the key stage's are in
 * shared/http/api-key.ts, so that a public function does not bundle the key lookup). Each does one thing;
 * the order they run in is the spec's order of checks: key (401) → scope (403) → input (400) → handler.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import type { AccessContext } from '../auth/access';
import { errorNames, logger } from '../logger';
import { countRequest, requestMetrics } from '../metrics';
import { InvalidInput, TooManyRequests, Unavailable } from '../errors';
import { isTryAgainLater, RETRY_AFTER_SECONDS, statusOf, TRY_AGAIN_LATER } from './errors';
import { baseHeaders } from './responses';
import { isJsonObject, parseOrBadRequest } from './validation';

/** What the stack learns about a request before the handler runs. */
export interface LabContext extends Context {
  access?: AccessContext;
  input?: { params: unknown; query: unknown; body: unknown };
}

type LabRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;
type LabMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;

/**
 * What an error answers: `{ "error": message }`, JSON no cache may keep. A 503 says when to try again
 * (`Retry-After`, in seconds), whichever failure it stands for, and so does a 429 (a patient link's rate limit).
 */
const httpError = (statusCode: number, message: string, retryAfterSeconds = RETRY_AFTER_SECONDS) => ({
  statusCode,
  expose: true,
  message: JSON.stringify({ error: message }),
  headers: { ...baseHeaders, ...(statusCode === 503 || statusCode === 429 ? { 'Retry-After': String(retryAfterSeconds) } : {}) },
});

const INTERNAL_ERROR = 'Internal server error';

/**
 * Our mapping, in front of @middy/http-error-handler: every error becomes the HTTP error it answers
 * (shared/http/errors.ts says which status a transport-neutral error is), with `{ "error": message }`
 * as its body. A failure of AWS that may pass (throttling, a transaction conflict, a fault of the service, a
 * network error: shared/http/errors.ts isTryAgainLater) becomes 503 with Retry-After, logged by name only.
 * Other unknown errors become 500 "Internal server error" and are logged by name and stack only: an AWS
 * error message may quote stored values, and those can be patient data.
 */
export function errorResponses(): LabMiddleware {
  return {
    onError: (request: LabRequest) => {
      const error = request.error;
      const status = statusOf(error);
      let mapped: ReturnType<typeof httpError>;
      if (status !== undefined && error) mapped = httpError(status, error.message, error instanceof TooManyRequests ? error.retryAfterSeconds : undefined);
      else if (isTryAgainLater(error)) {
        logger.warn('AWS could not answer now; answered 503', errorNames(error));
        mapped = httpError(503, TRY_AGAIN_LATER);
      } else {
        logger.error('Unhandled error', {
          ...errorNames(error),
          stack: error?.stack?.split('\n').slice(1).join('\n'),
        });
        mapped = httpError(500, INTERNAL_ERROR);
      }
      request.error = Object.assign(new Error(mapped.message), mapped);
    },
  };
}

/**
 * The error stage, outermost first: @middy/http-error-handler writes the response of the HTTP error our
 * mapping made (it logs nothing: our mapping logged what may be logged).
 */
export const errorStage = (): [LabMiddleware, LabMiddleware] => [
  httpErrorHandler({ logger: false, fallbackMessage: JSON.stringify({ error: INTERNAL_ERROR }) }) as LabMiddleware,
  errorResponses(),
];

/**
 * One log line per request: route, status, duration and the request ids. Nothing else. And the same
 * request as metrics (shared/metrics.ts requestMetrics): in that line when it is written (an EMF document
 * may hold other fields; one line per request, not two), else on a line of its own. Middy plugin hooks,
 * not a middleware: requestEnd runs for every request, also one answered early (an idempotent replay),
 * which skips every `after`.
 */
export function accessLog(routeName: string) {
  const started = new WeakMap<object, number>();
  return {
    /**
     * A run still going when the invocation's time is nearly up (Middy's early timeout, 5 ms before it: an
     * overloaded machine, a dependency that stopped answering) is the service's "not now", never a 500: 503
     * with Retry-After. Its change may or may not have been made, as with any request whose answer was lost:
     * the writes are conditional or idempotent, so reading before repeating it, or repeating it, is safe.
     */
    timeoutEarlyResponse: () => {
      throw new Unavailable('The request ran out of time; retry it in a moment');
    },
    requestStart: (request: Request) => void started.set(request, performance.now()),
    requestEnd: (request: Request) => {
      const { event, response } = request as LabRequest;
      const durationMs = Math.round(performance.now() - (started.get(request) ?? performance.now()));
      if (!logger.writes('INFO')) return countRequest(routeName, response?.statusCode, durationMs);
      // The metrics document is a fresh object: the line's own fields join it rather than a copy of it. The
      // line's head names the function's request id and the service (shared/logger.ts), the dimension's value.
      logger.info(
        'request',
        Object.assign(requestMetrics(routeName, response?.statusCode, durationMs) ?? {}, {
          route: routeName,
          status: response?.statusCode,
          duration_ms: durationMs,
          api_request_id: event?.requestContext?.requestId,
        }),
      );
    },
  };
}

/**
 * Header names in lower case, as HTTP defines them case-insensitive and API Gateway hands them over as the
 * client wrote them (`X-Api-Key`, `content-type`). Into objects without a prototype, so that a header named
 * `__proto__` is only a header. Of two names that differ by case only, the last wins.
 * (@middy/http-header-normalizer did this before, with 1.5 KB of options in every bundle: issue #33.)
 */
export function lowerCaseHeaderNames(): LabMiddleware {
  const lowerCased = <T>(headers: Record<string, T>) => {
    const named: Record<string, T> = Object.create(null);
    for (const name in headers) named[name.toLowerCase()] = headers[name]!;
    return named;
  };
  return {
    before: ({ event }) => {
      if (event.headers) event.headers = lowerCased(event.headers);
      if (event.multiValueHeaders) event.multiValueHeaders = lowerCased(event.multiValueHeaders);
    },
  };
}

export interface InputSchemas {
  params?: GenericSchema;
  query?: GenericSchema;
  body?: GenericSchema;
}

const isEmpty = (values: Record<string, unknown> | null | undefined) => !values || Object.keys(values).length === 0;

/** The query of a route that takes none: any parameter is refused, so a typo never passes silently. */
const NO_QUERY = v.strictObject({});

export function validateInput(schemas: InputSchemas): LabMiddleware {
  return {
    before: ({ event, context }) => {
      const body: unknown = event.body;
      if (schemas.body && !isJsonObject(body)) throw new InvalidInput('Request body must be a JSON object');
      const params = schemas.params ? parseOrBadRequest(schemas.params, event.pathParameters ?? {}, 'path') : undefined;
      const given = event.queryStringParameters;
      // A route without a query refuses any parameter it is given (none given: nothing to check).
      if (!schemas.query && !isEmpty(given)) parseOrBadRequest(NO_QUERY, given, 'query');
      context.input = {
        params,
        query: schemas.query ? parseOrBadRequest(schemas.query, given ?? {}, 'query') : undefined,
        body: schemas.body ? parseOrBadRequest(schemas.body, body, 'body') : undefined,
      };
    },
  };
}
