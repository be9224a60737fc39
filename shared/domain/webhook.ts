/**
 * Webhook subscriptions and deliveries (docs/events-and-webhooks.md "Webhooks"): the rules, free of any I/O.
 *
 * A delivery is one event for one subscription. Its first attempt runs as soon as the event arrives; a
 * failed attempt (no 2xx within the timeout) is retried on RETRY_SCHEDULE, and after the last one the
 * delivery is `failed`. A subscription whose deliveries fail DISABLE_AFTER_FAILED_DELIVERIES times in a
 * row is disabled: its endpoint has then refused everything for days.
 */
export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const DELIVERY_OUTCOMES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait before each retry: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — about 28 hours in all. */
export const RETRY_SCHEDULE_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
/** The first attempt and one per retry. */
export const MAX_ATTEMPTS = 1 + RETRY_SCHEDULE_MS.length;
/** One request waits at most this long for the receiver's answer. */
export const ATTEMPT_TIMEOUT_MS = 10 * SECOND;
/**
 * An attempt claims its delivery for this long: a dispatcher that dies mid-attempt leaves the delivery to
 * the retry sweep once the lease is over (the attempt counts as failed).
 */
export const ATTEMPT_LEASE_MS = ATTEMPT_TIMEOUT_MS + 20 * SECOND;

/** Five failed deliveries in a row, each after eight attempts over about 28 hours: the endpoint is gone. */
export const DISABLE_AFTER_FAILED_DELIVERIES = 5;
export const MAX_WEBHOOKS_PER_KEY = 10;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** After a rotation the previous secret keeps signing, beside the new one, this long. */
export const SECRET_OVERLAP_MS = 24 * HOUR;
/** A subscription keeps this many secrets at most (the current one and those still overlapping). */
export const MAX_SECRETS = 5;
/** The delivery log keeps a delivery this long (DynamoDB TTL). */
export const DELIVERY_RETENTION_MS = 30 * 24 * HOUR;

/** A receiver accepted the webhook: any 2xx, as Standard Webhooks says. */
export const isAccepted = (statusCode: number | null): boolean => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * What a delivery becomes after its `attempts`-th attempt: done, failed for good, or due again after the
 * schedule's wait.
 */
export function afterAttempt(attempts: number, accepted: boolean, now: Date): { outcome: DeliveryOutcome; next_attempt_at: string | null } {
  if (accepted) return { outcome: 'succeeded', next_attempt_at: null };
  const wait = RETRY_SCHEDULE_MS[attempts - 1];
  if (wait === undefined) return { outcome: 'failed', next_attempt_at: null };
  return { outcome: 'pending', next_attempt_at: new Date(now.getTime() + wait).toISOString() };
}

/** The secrets that still sign at `now`: the current one (no expiry) and those within their overlap. */
export function signingSecrets<S extends { expires_at: string | null }>(secrets: readonly S[], now: Date): S[] {
  return secrets.filter((secret) => secret.expires_at === null || Date.parse(secret.expires_at) > now.getTime());
}

/** The log line of a subscription disabled by its failures: the stack's alarm counts it (infra/monitoring.ts). */
export const WEBHOOK_DISABLED_LOG = 'webhook subscription disabled';
