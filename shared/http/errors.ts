/**
 * The HTTP side of errors. The operations throw the transport-neutral errors of shared/errors.ts; this
 * module says which status each one answers, and adds the few refusals only HTTP has (a content type,
 * an Idempotency-Key reused or still running). The error stage (shared/http/middlewares.ts) uses both.
 *
 * It also recognises, in this one place, the failures of AWS (DynamoDB, S3) that mean "try again later":
 * they answer 503 with `Retry-After`, never 500, and never with the SDK's message (it may quote items).
 */
import { Conflict, Gone, InvalidInput, type LabError, NotAuthenticated, NotFound, NotPermitted, TooManyRequests, Unavailable } from '../errors';

/** A refusal that exists only at the HTTP edge, with its status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(message = 'Content-Type must be application/json') {
    super(415, message);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a constructor of any arguments: TooManyRequests takes its Retry-After too
const STATUS_OF = new Map<abstract new (message: string, ...rest: any[]) => LabError, number>([
  [InvalidInput, 400],
  [NotAuthenticated, 401],
  [NotPermitted, 403],
  [NotFound, 404],
  [Conflict, 409],
  [Gone, 410],
  [TooManyRequests, 429],
  [Unavailable, 503],
]);

/** The status a transport-neutral error answers; undefined for an error that is not one of ours. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof HttpError) return error.statusCode;
  for (const [kind, status] of STATUS_OF) if (error instanceof kind) return status;
  return undefined;
}

/** Seconds a client should wait before it repeats a request answered 503 (the `Retry-After` header). */
export const RETRY_AFTER_SECONDS = 1;

/** What a client hears when AWS could not answer now; the SDK's own message is never passed on. */
export const TRY_AGAIN_LATER = 'The service is busy or briefly unavailable; retry the request after a pause';

/**
 * Errors of the AWS SDK v3 that say "not now" by name (checked against the classes of
 * @aws-sdk/client-dynamodb, @aws-sdk/client-s3 and the SDK's own retry classification): throttling,
 * transaction conflicts, and the service's own faults. By name, not by class, so that this module imports
 * no SDK client (a function without DynamoDB, GET /health, must not bundle one).
 */
const TRY_AGAIN_NAMES = new Set([
  // DynamoDB throttling (ThrottlingException and RequestLimitExceeded: on-demand and account limits).
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  // A concurrent transaction holds an item; the same TransactWriteItems is still running.
  'TransactionConflictException',
  'TransactionInProgressException',
  // The service itself: DynamoDB's InternalServerError and 503, S3's InternalError, 503 and throttling.
  'InternalServerError',
  'ServiceUnavailable',
  'InternalError',
  'SlowDown',
  // The SDK's request timeout (NodeHttpHandler's requestTimeout, with no answer of the service).
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);

/** A transaction cancelled only because of another transaction or throttling; a failed condition is ours to explain (409). */
const TRY_AGAIN_CANCELLATIONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * Node's connection failures that may pass (the SDK's NODEJS_TIMEOUT_ERROR_CODES and the unreachable
 * hosts of NODEJS_NETWORK_ERROR_CODES). Not ENOTFOUND or EAI_AGAIN: a name that does not resolve is, for
 * an AWS endpoint, a misconfigured endpoint or region, which no retry fixes: it must be a 500, logged as
 * an error, not a 503 logged as a warning for ever.
 */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

interface AwsErrorShape {
  name?: string;
  code?: string;
  cause?: unknown;
  $metadata?: object;
  $fault?: 'client' | 'server';
  $retryable?: object;
  CancellationReasons?: { Code?: string }[];
}

/**
 * Is this a failure of AWS that the same request may not meet a moment later: throttling, a transaction
 * conflict, a fault of the service (`$fault: "server"`, or marked `$retryable` by its model), a network
 * error or timeout of the SDK? The SDK has retried these already; the client may retry after a pause.
 *
 * Only an error of an AWS SDK call counts: one with `$metadata`, which the SDK's retry middleware sets on
 * every error it gives up on, a service's answer or a network error alike (@smithy/core
 * retry/middleware-retry). A TimeoutError of AbortSignal.timeout, or a fetch error whose cause is
 * ECONNREFUSED, has none: a bug or an outside call of ours, a 500. Also when wrapped (`cause`), as a
 * library may wrap an SDK error: the cause must then carry `$metadata`.
 */
export function isTryAgainLater(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const aws = error as AwsErrorShape;
  if (aws.$metadata === undefined) return isTryAgainLater(aws.cause, depth + 1);
  if (aws.name === 'TransactionCanceledException') {
    const codes = (aws.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None').filter((code) => code !== 'None');
    return codes.length > 0 && codes.every((code) => TRY_AGAIN_CANCELLATIONS.has(code));
  }
  return TRY_AGAIN_NAMES.has(aws.name ?? '') || aws.$fault === 'server' || aws.$retryable !== undefined || NETWORK_CODES.has(aws.code ?? '');
}
