/**
 * Per-key request limits (issue #31): a steady rate with a burst (a token bucket: `burst` requests at once,
 * refilled at `rate_limit` per second) and a daily quota (UTC days), the semantics of an API Gateway usage
 * plan. A key has its own limits or the stage's default. Over a limit, a request is answered 429 with
 * `Retry-After` and the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-11:
 * `RateLimit-Policy` and `RateLimit`, structured-field lists naming a policy each). Pure: the clock is a
 * parameter, the state a Map the caller keeps.
 */

export interface KeyLimits {
  /** Requests per second, steady. */
  rate_limit: number;
  /** Requests at once: the bucket's size. */
  burst: number;
  /** Requests per UTC day; null: none. */
  daily_quota: number | null;
}

export const MAX_RATE_LIMIT = 10_000;
export const MAX_BURST = 5_000;
export const MAX_DAILY_QUOTA = 100_000_000;

const DAY_MS = 86_400_000;

interface KeyState {
  tokens: number;
  refilledAt: number;
  day: number;
  used: number;
}

export type Admission = { admitted: true } | { admitted: false; retryAfterSeconds: number; message: string; headers: Readonly<Record<string, string>> };

/** The state of every key's bucket and quota, as one gateway (one process) counts them. */
export class RateLimiter {
  private readonly keys = new Map<string, KeyState>();

  /** Takes one request of `keyId` at `nowMs`, or says why not and when to retry. */
  take(keyId: string, limits: KeyLimits, nowMs: number): Admission {
    const day = Math.floor(nowMs / DAY_MS);
    const state = this.keys.get(keyId) ?? { tokens: limits.burst, refilledAt: nowMs, day, used: 0 };
    // Requests of one key may be counted slightly out of their clock's order: time never runs backwards here.
    const elapsedMs = Math.max(0, nowMs - state.refilledAt);
    state.tokens = Math.min(limits.burst, state.tokens + (elapsedMs / 1000) * limits.rate_limit);
    state.refilledAt = Math.max(state.refilledAt, nowMs);
    // A new day renews the quota; a clock stepped back over midnight does not renew it again.
    if (day > state.day) Object.assign(state, { day, used: 0 });
    this.keys.set(keyId, state);

    const secondsToMidnight = Math.ceil(((day + 1) * DAY_MS - nowMs) / 1000);
    const quotaLeft = limits.daily_quota === null ? null : limits.daily_quota - state.used;
    if (quotaLeft !== null && quotaLeft <= 0) {
      return refused(
        limits,
        state,
        secondsToMidnight,
        secondsToMidnight,
        `This API key used its daily quota of ${limits.daily_quota} requests; it renews at 00:00 UTC, in ${secondsToMidnight} s`,
      );
    }
    if (state.tokens < 1) {
      const retry = Math.max(1, Math.ceil((1 - state.tokens) / limits.rate_limit));
      return refused(
        limits,
        state,
        retry,
        secondsToMidnight,
        `Too many requests for this API key: at most ${limits.rate_limit} per second (burst ${limits.burst}); retry after ${retry} s`,
      );
    }
    state.tokens -= 1;
    state.used += 1;
    return { admitted: true };
  }
}

function refused(limits: KeyLimits, state: KeyState, retryAfterSeconds: number, secondsToMidnight: number, message: string): Admission {
  return {
    admitted: false,
    retryAfterSeconds,
    message,
    headers: { 'Retry-After': String(retryAfterSeconds), ...rateLimitHeaders(limits, state, secondsToMidnight) },
  };
}

/**
 * `RateLimit-Policy: "burst";q=<burst>;w=<seconds to refill it>, "daily";q=<quota>;w=86400` and
 * `RateLimit: "burst";r=<left>;t=<seconds until full>, "daily";r=<left>;t=<seconds to midnight UTC>`.
 */
function rateLimitHeaders(limits: KeyLimits, state: KeyState, secondsToMidnight: number): Record<string, string> {
  const refill = Math.max(1, Math.ceil(limits.burst / limits.rate_limit));
  const untilFull = Math.ceil((limits.burst - state.tokens) / limits.rate_limit);
  const policies = [`"burst";q=${limits.burst};w=${refill}`];
  const current = [`"burst";r=${Math.floor(state.tokens)};t=${Math.max(0, untilFull)}`];
  if (limits.daily_quota !== null) {
    policies.push(`"daily";q=${limits.daily_quota};w=86400`);
    current.push(`"daily";r=${Math.max(0, limits.daily_quota - state.used)};t=${secondsToMidnight}`);
  }
  return { 'RateLimit-Policy': policies.join(', '), RateLimit: current.join(', ') };
}

/** `list`'s words for a key's limits. */
export const describeLimits = (limits: KeyLimits) =>
  `${limits.rate_limit}/s burst ${limits.burst}${limits.daily_quota === null ? '' : `, ${limits.daily_quota}/day`}`;
