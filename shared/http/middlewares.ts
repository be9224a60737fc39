/**
 * The middlewares of the one Middy stack (composed in shared/http/handler.ts). Each does one thing;
 * the order they run in is the spec's order of checks: key (401) → scope (403) → input (400) → handler.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { GenericSchema } from 'valibot';
import { type AccessContext, assertAnyScope } from '../auth/access';
import { authenticate } from '../auth/api-keys';
import type { Scope } from '../auth/scopes';
import { logger } from '../logger';
import { InvalidInput } from '../errors';
import { HttpError, statusOf, UnsupportedMediaType } from './errors';
import { baseHeaders } from './responses';
import { isJsonObject, parseOrBadRequest } from './validation';

/** What the stack learns about a request before the handler runs. */
export interface LabContext extends Context {
  access?: AccessContext;
  input?: { params: unknown; query: unknown; body: unknown };
}

type LabRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;
type LabMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;

/** What an error answers: `{ "error": message }`, JSON no cache may keep. */
const httpError = (statusCode: number, message: string) => ({
  statusCode,
  expose: true,
  message: JSON.stringify({ error: message }),
  headers: { ...baseHeaders },
});

const INTERNAL_ERROR = 'Internal server error';

/** Powertools Idempotency's refusals, by name (its classes are bundled only into the create handlers). */
const IDEMPOTENCY_ERRORS: Record<string, HttpError> = {
  IdempotencyAlreadyInProgressError: new HttpError(409, 'A request with this Idempotency-Key is still in progress; retry it shortly'),
  IdempotencyValidationError: new HttpError(422, 'This Idempotency-Key was already used for a different request'),
};

/** Middy's own HTTP errors (body parser): malformed JSON is a 400 here, as the spec's errors table says. */
function fromMiddyError(error: { statusCode: number; message: string }): HttpError {
  if (error.statusCode === 415) return new UnsupportedMediaType();
  if (error.statusCode === 422) return new HttpError(400, 'Request body must be valid JSON');
  return new HttpError(error.statusCode, error.message);
}

function hasClientStatus(error: unknown): error is { statusCode: number; message: string } {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Our mapping, in front of @middy/http-error-handler: every error becomes the HTTP error it answers
 * (shared/http/errors.ts says which status a transport-neutral error is), with `{ "error": message }`
 * as its body. Unknown errors become 500 "Internal server error" and are logged by name and stack only:
 * an AWS error message may quote stored values, and those can be patient data.
 */
export function errorResponses(): LabMiddleware {
  return {
    onError: (request: LabRequest) => {
      const error = request.error;
      const status = statusOf(error);
      const idempotencyRefusal = error ? IDEMPOTENCY_ERRORS[error.name] : undefined;
      let mapped: ReturnType<typeof httpError>;
      if (status !== undefined && error) mapped = httpError(status, error.message);
      else if (idempotencyRefusal) mapped = httpError(idempotencyRefusal.statusCode, idempotencyRefusal.message);
      else if (hasClientStatus(error)) {
        const fromMiddy = fromMiddyError(error);
        mapped = httpError(fromMiddy.statusCode, fromMiddy.message);
      } else {
        logger.error('Unhandled error', {
          errorName: error?.name ?? typeof error,
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
 * One log line per request: route, status, duration and the request ids. Nothing else. Middy plugin
 * hooks, not a middleware: requestEnd runs for every request, also one answered early (an idempotent
 * replay), which skips every `after`.
 */
export function accessLog(routeName: string) {
  const started = new WeakMap<object, number>();
  return {
    requestStart: (request: Request) => void started.set(request, performance.now()),
    requestEnd: (request: Request) => {
      const { event, context, response } = request as LabRequest;
      logger.info('request', {
        route: routeName,
        status: response?.statusCode,
        duration_ms: Math.round(performance.now() - (started.get(request) ?? performance.now())),
        api_request_id: event?.requestContext?.requestId,
        function_request_id: context?.awsRequestId,
      });
    },
  };
}

/**
 * Content-Type check for routes with a body. An empty body is let through so that validation answers
 * 400 "body must be a JSON object" rather than 415; any other body must be declared JSON.
 */
export function requireJsonContentType(): LabMiddleware {
  return {
    before: ({ event }) => {
      if (event.body === null || event.body === undefined || event.body === '') return;
      const contentType = event.headers?.['content-type'] ?? '';
      if (!/^application\/(.+\+)?json\s*(;|$)/i.test(contentType)) throw new UnsupportedMediaType();
    },
  };
}

export function authenticateApiKey(): LabMiddleware {
  return {
    before: async (request) => {
      request.context.access = await authenticate(request.event.headers?.['x-api-key']);
    },
  };
}

export function requireScopes(scopes: readonly Scope[]): LabMiddleware {
  return {
    before: ({ context }) => {
      if (!context.access) throw new Error('requireScopes runs after authenticateApiKey');
      assertAnyScope(context.access, scopes);
    },
  };
}

export interface InputSchemas {
  params?: GenericSchema;
  query?: GenericSchema;
  body?: GenericSchema;
}

export function validateInput(schemas: InputSchemas): LabMiddleware {
  return {
    before: ({ event, context }) => {
      const body: unknown = event.body;
      if (schemas.body && !isJsonObject(body)) throw new InvalidInput('Request body must be a JSON object');
      context.input = {
        params: schemas.params ? parseOrBadRequest(schemas.params, event.pathParameters ?? {}, 'path') : undefined,
        query: schemas.query ? parseOrBadRequest(schemas.query, event.queryStringParameters ?? {}, 'query') : undefined,
        body: schemas.body ? parseOrBadRequest(schemas.body, body, 'body') : undefined,
      };
    },
  };
}
