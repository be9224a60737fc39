/**
 * The answers API Gateway gives by itself, before any function runs: an unknown path, a known path with
 * another method, a keyed route without an `x-api-key` header. They are named once here because two
 * sides must give them identically: the CDK stack configures the gateway with them and the
 * local server answers with them, so a client sees the same status, `Allow` header and body locally and
 * deployed. The functions' own 401 for a missing key uses the same message (named in shared/auth/api-key-header.ts).
 */

import { MISSING_KEY_MESSAGE } from '../auth/api-key-header';
import { answerCorsHeaders } from './cors-policy';

export interface GatewayAnswer {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly error: string };
}

export { API_KEY_HEADER, MISSING_KEY_MESSAGE } from '../auth/api-key-header';

/** A path no route has (API Gateway: no method on that resource). */
export const unknownPath: GatewayAnswer = { statusCode: 404, headers: {}, body: { error: 'Not found' } };

/** A keyed route called without an `x-api-key` header, or with an empty one. */
export const missingKey: GatewayAnswer = { statusCode: 401, headers: {}, body: { error: MISSING_KEY_MESSAGE } };

/**
 * The stage as a whole is over its throttle (infra/stages: `throttle`), or, deployed, a key over the rate or
 * burst of its usage plan: API Gateway answers both as THROTTLED, and a second is what its token bucket
 * refills in. (The local server answers a key over its own limits with those, and the RateLimit headers:
 * shared/domain/rate-limits.ts; API Gateway's answers are fixed templates that cannot compute them.)
 */
export const stageThrottled: GatewayAnswer = {
  statusCode: 429,
  headers: { 'Retry-After': '1' },
  body: { error: 'Too many requests for this API key or for the API as a whole; retry after 1 s' },
};

/**
 * Deployed: the key's usage plan quota for the day is used up (API Gateway's QUOTA_EXCEEDED). Usage plan
 * quotas of a day reset at 00:00 UTC; a fixed template cannot say how many seconds away that is, so the
 * message says when.
 */
export const quotaExceeded: GatewayAnswer = {
  statusCode: 429,
  headers: {},
  body: { error: "This API key's daily request quota is used up; it resets at 00:00 UTC" },
};

/**
 * Deployed: a key the authorizer allowed, but in none of the stage's usage plans (API Gateway's
 * INVALID_API_KEY): it was issued without `--usage-plan`, or removed from the gateway. The operator's to fix.
 */
export const keyWithoutUsagePlan: GatewayAnswer = {
  statusCode: 403,
  headers: {},
  body: { error: 'This API key is not enabled on this stage; ask the API operator to register it with a usage plan' },
};

/** The authorizer could not look the key up (the table did not answer): not the client's fault, retry. */
export const keyCheckUnavailable: GatewayAnswer = {
  statusCode: 503,
  headers: { 'Retry-After': '1' },
  body: { error: 'The API key could not be checked now; retry' },
};

/**
 * A known path called with a method it has no route for. `method` is what the client sent; the stack
 * passes `$context.httpMethod`, which API Gateway fills in per request.
 */
export function wrongMethod(method: string, allowed: readonly string[]): GatewayAnswer {
  const allow = allowed.join(', ');
  return { statusCode: 405, headers: { Allow: allow }, body: { error: `Method ${method} not allowed; allowed: ${allow}` } };
}

/**
 * The CORS headers of the gateway's own answers (401 without a key, 404, 413, 429, 5xx) when CORS is on
 * (docs/deploy.md "CORS"). API Gateway writes them from fixed values: its gateway responses cannot compare the
 * request's Origin with a list. So they name the first listed origin, whatever the request's: that app reads
 * these errors, and an origin that is not listed is never echoed. (The 405 and the preflight can compare,
 * and name the request's origin when it is listed.)
 */
export function gatewayCorsHeaders(origins: readonly string[]): Readonly<Record<string, string>> {
  const [first] = origins;
  return first === undefined ? {} : answerCorsHeaders(first);
}
