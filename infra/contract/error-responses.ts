/**
 * The errors every operation of docs/openapi.json may answer besides its own (infra/contract/openapi.ts):
 * which generic ones a route gets from its inputs, scopes and Idempotency-Key support, with their headers.
 */
import { type OperationDoc } from '../../shared/contract/operations';
import type { HandlerContract } from '../../shared/http/handler';
import { type Route } from '../../shared/routes';

type Json = Record<string, unknown>;

/** A 503 always says when to try again (shared/http/middlewares.ts sets it on every 503). */
const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before repeating the request.', required: true, schema: { type: 'integer', minimum: 1 } },
};

/** A 429 says when to try again, and, for a key over its own limits, which limits (shared/domain/rate-limits.ts). */
const RATE_LIMITED = {
  ...RETRY_AFTER,
  'RateLimit-Policy': {
    description: 'The key\'s limits as a list: `"burst";q=<requests>;w=<seconds>` and, with a daily quota, `"daily";q=<requests>;w=86400`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of each: `"burst";r=<requests>;t=<seconds until full>, "daily";r=<requests>;t=<seconds until 00:00 UTC>`.',
    schema: { type: 'string' },
  },
};

export const errorResponse = (description: string, status?: number) => ({
  description,
  ...(status === 503 ? { headers: RETRY_AFTER } : status === 429 ? { headers: RATE_LIMITED } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** Errors that follow from a route's kind, documented once under components.responses. */
export const GENERIC_ERRORS = {
  400: ['BadRequest', 'Invalid input: the message names the field and the rule.'],
  413: ['PayloadTooLarge', 'The body is larger than 64 KiB.'],
  429: [
    'TooManyRequests',
    "The key is over its own request limits (or the stage default's: a rate with a burst, a daily quota), or the whole stage is throttled: " +
      'retry after Retry-After seconds. RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers) say which limit and what is left ' +
      "(a key's own limits are enforced by the local stack now, by API Gateway usage plans once deployed with them).",
  ],
  401: ['Unauthorized', 'Missing or unknown API key.'],
  403: ['Forbidden', 'The key lacks the scope, or the resource is outside its access context.'],
  409: ['IdempotencyKeyInProgress', 'A request with this Idempotency-Key is still in progress: retry later.'],
  415: ['UnsupportedMediaType', 'The body is not application/json (charset utf-8, if given).'],
  422: ['IdempotencyKeyReused', 'This Idempotency-Key was already used for a different request.'],
  500: ['ServerError', 'An unexpected error, logged with the request id.'],
  503: [
    'ServiceUnavailable',
    'The database or the file store could not answer now (throttling, a conflicting transaction, a brief outage): retry after Retry-After seconds; ' +
      'a write of several steps (an erasure, a pickup of many) is finished by the retry.',
  ],
} as const;

/**
 * Which generic errors a route can answer: from its inputs, its scopes and its Idempotency-Key support. A
 * keyed route reads DynamoDB (the key's lookup, at least), so it can answer 503 too; the keyless ones
 * (health, this document, the docs page) touch no AWS service.
 */
function genericStatuses(route: Route, contract: HandlerContract): (keyof typeof GENERIC_ERRORS)[] {
  const statuses: (keyof typeof GENERIC_ERRORS)[] = [];
  statuses.push(400); // every route refuses a query parameter it does not take
  if (route.scopes.length > 0) statuses.push(401, 403, 503);
  if (contract.idempotent) statuses.push(409, 422);
  // A form's 413 and 415 (its own size and types) are the route's own errors, in its row.
  if (contract.body && !contract.bodyMediaTypes) statuses.push(413, 415);
  statuses.push(429, 500);
  return statuses.sort((a, b) => a - b);
}

/** Error answers: the route's own (with when they happen), then the generic ones by reference. */
export function errorResponses(route: Route, contract: HandlerContract, doc: OperationDoc): Json {
  const answers: Json = {};
  const own: Record<string, string> = doc.errors ?? {};
  for (const [status, when] of Object.entries(own)) answers[status] = errorResponse(when, Number(status));
  for (const status of genericStatuses(route, contract)) {
    // A status the route answers with a body of its own (the patient's page answers its 429, 500, 503 as pages).
    if (doc.responses[status]) continue;
    const [name, description] = GENERIC_ERRORS[status];
    answers[status] = own[status] ? errorResponse(`${own[status]}; or: ${description}`, status) : { $ref: `#/components/responses/${name}` };
  }
  return answers;
}
