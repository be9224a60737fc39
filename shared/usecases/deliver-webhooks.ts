/**
 * Delivering webhooks (docs/events-and-webhooks.md "Webhooks"). Three ways in, one way out:
 * - an event from the bus (the dispatcher: SQS in AWS, the events file's tail locally) → a delivery per
 *   subscription that wants it and whose key may see it now, first attempt at once;
 * - the retry sweep → the deliveries whose next attempt is due;
 * - a client's test send or manual retry → one attempt now, answered to the client.
 * Each attempt is claimed first (shared/store/webhook-deliveries.ts), signed with the subscription's
 * current secrets, sent, and recorded; the retry schedule lives in the delivery, not in a sleeping Lambda.
 *
 * Times here are the real clock, not LAB_CLOCK: a webhook's timestamp must be the send time, or receivers
 * refuse it (Standard Webhooks allows 5 minutes of skew).
 */
import { randomUUID } from 'node:crypto';
import { accessOfKeyId } from '../auth/api-keys';
import { config } from '../config';
import { afterAttempt, ATTEMPT_LEASE_MS, isAccepted, signingSecrets, WEBHOOK_DISABLED_LOG } from '../domain/webhook';
import { Conflict, NotFound } from '../errors';
import type { DomainEvent } from '../events/publisher';
import { logger } from '../logger';
import { BUSINESS_METRICS, countBusiness } from '../metrics';
import { claimDelivery, type DeliveryRecord, dueDeliveries, getDelivery, insertClaimedDelivery, recordAttempt } from '../store/webhook-deliveries';
import { getWebhooks, recordDeliveryEnd, type WebhookRecord, webhooksFor } from '../store/webhooks';
import { deliveryId } from '../webhooks/delivery-id';
import { isWebhookEventType, mayReceive, WEBHOOK_TEST_EVENT } from '../webhooks/event-types';
import { testMessage, type WebhookMessage, webhookMessage } from '../webhooks/message';
import { type SendResult, sendWebhook } from '../webhooks/sender';
import { signWebhook } from '../webhooks/signing';
import { ownWebhook } from './manage-webhooks';
import { recordEvent } from './event-log';
import type { Caller } from './request';
import { inRealm, sumOverRealms } from '../sandbox';
import type { BusEvent } from '../webhooks/bus-event';

const leaseFrom = (now: Date) => new Date(now.getTime() + ATTEMPT_LEASE_MS);

/** Why this delivery may not be sent any more (it then fails at once), or undefined when it may. */
async function refusal(delivery: DeliveryRecord, webhook: WebhookRecord | undefined): Promise<string | undefined> {
  if (!webhook) return 'the webhook subscription was deleted';
  if (webhook.status === 'disabled') return 'the webhook subscription is disabled';
  const access = await accessOfKeyId(webhook.key_id);
  if (!access) return 'the API key of the subscription was revoked';
  if (isWebhookEventType(delivery.event_type)) {
    const { data } = JSON.parse(delivery.payload) as { data: Record<string, unknown> };
    if (!mayReceive(access, delivery.event_type, data)) return 'the API key of the subscription may no longer see this resource';
  }
  return undefined;
}

/**
 * How an attempt came about. A scheduled one (the first, or a retry the sweep found due) follows the
 * schedule, and a delivery it ends counts in the subscription's failure streak. A manual one (the
 * client's retry) is one extra try: success ends the delivery, failure leaves it as it was (still
 * waiting on its schedule, or failed) and counts in no streak.
 */
type AttemptKind = { kind: 'scheduled' } | { kind: 'manual'; before: DeliveryRecord };

/** What the attempt makes of the delivery. */
function nextState(claimed: DeliveryRecord, how: AttemptKind, refused: boolean, accepted: boolean, now: Date) {
  if (refused) return { outcome: 'failed' as const, next_attempt_at: null };
  if (how.kind === 'scheduled') return afterAttempt(claimed.attempts, accepted, now);
  if (accepted) return { outcome: 'succeeded' as const, next_attempt_at: null };
  return how.before.outcome === 'pending'
    ? { outcome: 'pending' as const, next_attempt_at: how.before.due_at }
    : { outcome: 'failed' as const, next_attempt_at: null };
}

/** One claimed attempt: sign, send, record, and end the delivery or schedule its next attempt. */
async function attempt(claimed: DeliveryRecord, webhook: WebhookRecord | undefined, now: Date, how: AttemptKind): Promise<DeliveryRecord> {
  const refused = await refusal(claimed, webhook);
  let result: SendResult;
  if (refused || !webhook) {
    result = { status_code: null, error: refused ?? null };
  } else {
    const secrets = signingSecrets(webhook.secrets, now).map((s) => s.secret);
    const headers = signWebhook(secrets, claimed.event_id, new Date(), claimed.payload);
    result = await sendWebhook(webhook.url, headers, claimed.payload, config.webhookUrlPolicy);
  }
  const accepted = !refused && isAccepted(result.status_code);
  // The failure rate on-call watches (infra/monitoring.ts): real sends of real events, not a test's.
  if (!refused && webhook && claimed.event_type !== WEBHOOK_TEST_EVENT) {
    countBusiness(accepted ? BUSINESS_METRICS.webhookDeliveriesSucceeded : BUSINESS_METRICS.webhookDeliveriesFailed);
  }
  const next = nextState(claimed, how, Boolean(refused), accepted, now);
  const recorded = await recordAttempt(claimed, { ...next, attempted_at: now.toISOString(), status_code: result.status_code, error: result.error });
  // The streak is about the client's endpoint and the schedule: test sends and manual retries stay out of it.
  const counts = !refused && webhook && how.kind === 'scheduled' && claimed.event_type !== WEBHOOK_TEST_EVENT;
  if (counts && next.outcome !== 'pending') {
    const ended = await recordDeliveryEnd(webhook.id, accepted, now.toISOString());
    if (ended === 'disabled') logger.warn(WEBHOOK_DISABLED_LOG, { webhook_id: webhook.id, key_id: webhook.key_id });
  }
  // Ids, numbers and outcomes only: never the URL (it may carry a client's token) or a body.
  logger.info('webhook attempt', {
    webhook_id: claimed.webhook_id,
    delivery_id: claimed.id,
    event_id: claimed.event_id,
    event_type: claimed.event_type,
    attempt: claimed.attempts,
    status_code: result.status_code,
    outcome: next.outcome,
  });
  return recorded;
}

/**
 * Runs every task to its end before answering, so that no attempt is left running (and frozen with its
 * Lambda) when another fails; then throws the first failure, if any.
 */
async function settleAll<T>(tasks: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(tasks);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}

/** A new delivery of `message` to `webhook`, claimed and attempted at once; undefined when it exists already. */
async function deliverNew(webhook: WebhookRecord, message: WebhookMessage, now: Date): Promise<DeliveryRecord | undefined> {
  const lease = leaseFrom(now).toISOString();
  const delivery: DeliveryRecord = {
    id: deliveryId(webhook.id, message.event_id, message.occurred_at),
    webhook_id: webhook.id,
    event_id: message.event_id,
    event_type: message.type,
    occurred_at: message.occurred_at,
    created_at: now.toISOString(),
    payload: message.payload,
    attempts: 1,
    outcome: 'pending',
    due_at: lease,
    leased_until: lease,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
  };
  if (!(await insertClaimedDelivery(delivery, now))) return undefined;
  return attempt(delivery, webhook, now, { kind: 'scheduled' });
}

/**
 * An event from the bus, in its realm (docs/sandbox.md): a sandbox event reaches sandbox subscriptions only,
 * because their routes, and the deliveries made, live in sandbox partitions.
 */
export function dispatchBusEvent({ event, realm }: BusEvent, now: Date = new Date()): Promise<DeliveryRecord[]> {
  return inRealm(realm, () => dispatchEvent(event, now));
}

/**
 * Fans an event out to the subscriptions that want its type and whose key may see it now (its tenant,
 * its scopes, not revoked). Answers the deliveries made; an event seen before makes none.
 */
export async function dispatchEvent(event: DomainEvent, now: Date = new Date()): Promise<DeliveryRecord[]> {
  const type = event.detail_type;
  if (!isWebhookEventType(type)) return [];
  // In the log before any delivery: a webhook a client received is always there to reconcile from.
  await recordEvent(event, now);
  const routes = await webhooksFor(type);
  if (routes.length === 0) return [];
  const keyIds = [...new Set(routes.map((route) => route.key_id))];
  const accessByKey = new Map(await Promise.all(keyIds.map(async (keyId) => [keyId, await accessOfKeyId(keyId)] as const)));
  const receiving = routes.filter((route) => {
    const access = accessByKey.get(route.key_id);
    return access !== undefined && mayReceive(access, type, event.detail);
  });
  if (receiving.length === 0) return [];
  const webhooks = (await getWebhooks(receiving.map((route) => route.webhook_id))).filter((webhook) => webhook.status === 'enabled');
  const message = webhookMessage(event);
  const made = await settleAll(webhooks.map((webhook) => deliverNew(webhook, message, now)));
  return made.filter((delivery): delivery is DeliveryRecord => delivery !== undefined);
}

/**
 * Attempts up to `limit` deliveries of each realm whose next attempt is due at `now`; answers how many it
 * attempted. Each realm has its own queue of due deliveries (docs/sandbox.md).
 */
export function attemptDueDeliveries(now: Date = new Date(), limit = 25): Promise<number> {
  return sumOverRealms(() => attemptDueIn(now, limit));
}

async function attemptDueIn(now: Date, limit: number): Promise<number> {
  const due = await dueDeliveries(now, limit);
  if (due.length === 0) return 0;
  const webhooks = new Map((await getWebhooks([...new Set(due.map((d) => d.webhook_id))])).map((webhook) => [webhook.id, webhook]));
  const attempted = await settleAll(
    due.map(async (delivery) => {
      const claimed = await claimDelivery(delivery, 'due', now, leaseFrom(now));
      if (!claimed) return false; // another sweep or a manual retry got it first
      await attempt(claimed, webhooks.get(delivery.webhook_id), now, { kind: 'scheduled' });
      return true;
    }),
  );
  return attempted.filter(Boolean).length;
}

const mustBeEnabled = (webhook: WebhookRecord) => {
  if (webhook.status === 'disabled') throw new Conflict('The webhook is disabled; PATCH its status to enabled first');
};

/** POST /webhooks/{id}/test: a `webhook.test` delivery, attempted now (and retried like any other). */
export async function sendTestWebhook(id: string, { access }: Caller): Promise<DeliveryRecord> {
  const webhook = await ownWebhook(id, access);
  mustBeEnabled(webhook);
  const now = new Date();
  return (await deliverNew(webhook, testMessage(webhook.id, randomUUID(), now), now)) as DeliveryRecord;
}

/**
 * POST /webhooks/{id}/deliveries/{delivery_id}/retry: one more attempt now, whatever the delivery's
 * outcome (a failed one after the endpoint is fixed, or a succeeded one the client wants again), with
 * the same webhook-id and body. 409 while another attempt of it is in flight.
 */
export async function retryDelivery(id: string, deliveryIdToRetry: string, { access }: Caller): Promise<DeliveryRecord> {
  const webhook = await ownWebhook(id, access);
  mustBeEnabled(webhook);
  const delivery = await getDelivery(webhook.id, deliveryIdToRetry);
  if (!delivery) throw new NotFound('delivery not found');
  const now = new Date();
  const claimed = await claimDelivery(delivery, 'any', now, leaseFrom(now));
  if (!claimed) throw new Conflict('An attempt of this delivery is in flight; read the delivery log in a moment');
  return attempt(claimed, webhook, now, { kind: 'manual', before: delivery });
}
