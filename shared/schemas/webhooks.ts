/** The subscription and delivery representations (what a client sends is in bodies/webhooks.ts). */
import * as v from 'valibot';
import { ATTEMPT_TIMEOUT_MS, DELIVERY_OUTCOMES, MAX_ATTEMPTS, WEBHOOK_STATUSES } from '../domain/webhook';
import type { DeliveryRecord } from '../store/webhook-deliveries';
import type { WebhookRecord } from '../store/webhooks';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '../webhooks/event-types';
import { instant, uuid } from './fields';

export const WebhookParams = v.object({ id: uuid });
export const DeliveryParams = v.object({ id: uuid, delivery_id: uuid });

const webhookEntries = {
  id: uuid,
  url: v.string(),
  event_types: v.array(v.picklist(WEBHOOK_EVENT_TYPES)),
  description: v.nullable(v.string()),
  status: v.pipe(v.picklist(WEBHOOK_STATUSES), v.description('disabled: by the client, or after deliveries failed 5 times in a row (see disabled_reason)')),
  disabled_reason: v.nullable(v.string()),
  created_at: instant,
  updated_at: v.nullable(instant),
};

export const Webhook = v.object(webhookEntries);
export type Webhook = v.InferOutput<typeof Webhook>;

/** The create and rotate-secret answers: the subscription and its signing secret, shown this once. */
export const WebhookWithSecret = v.object({
  ...webhookEntries,
  secret: v.pipe(v.string(), v.description('whsec_…: the Standard Webhooks signing secret. Shown in this answer only; store it now.')),
});
export type WebhookWithSecret = v.InferOutput<typeof WebhookWithSecret>;

export const WebhookDelivery = v.object({
  id: uuid,
  webhook_id: uuid,
  event_id: v.pipe(uuid, v.description('The event, and the webhook-id header of every attempt.')),
  event_type: v.pipe(v.string(), v.description(`${WEBHOOK_EVENT_TYPES.join(', ')} or ${WEBHOOK_TEST_EVENT}`)),
  occurred_at: instant,
  created_at: instant,
  attempts: v.pipe(v.number(), v.integer(), v.description(`Attempts made so far (${MAX_ATTEMPTS} on the schedule, plus manual retries).`)),
  outcome: v.pipe(
    v.picklist(DELIVERY_OUTCOMES),
    v.description('pending: an attempt is scheduled or in flight; succeeded: a 2xx; failed: every attempt failed (or it may no longer be sent).'),
  ),
  last_attempt_at: v.nullable(instant),
  last_status_code: v.pipe(v.nullable(v.number()), v.description('The HTTP status of the last attempt; null when there was none (see last_error).')),
  last_error: v.pipe(v.nullable(v.string()), v.description(`Why the last attempt failed: the status, no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s, …`)),
  next_attempt_at: v.pipe(v.nullable(instant), v.description('When the next attempt is due, while pending.')),
});
export type WebhookDelivery = v.InferOutput<typeof WebhookDelivery>;

export function toWebhook(webhook: WebhookRecord): Webhook {
  return {
    id: webhook.id,
    url: webhook.url,
    event_types: webhook.event_types as Webhook['event_types'],
    description: webhook.description,
    status: webhook.status,
    disabled_reason: webhook.disabled_reason,
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
  };
}

export const toWebhookWithSecret = ({ webhook, secret }: { webhook: WebhookRecord; secret: string }): WebhookWithSecret => ({ ...toWebhook(webhook), secret });

export function toWebhookDelivery(delivery: DeliveryRecord): WebhookDelivery {
  return {
    id: delivery.id,
    webhook_id: delivery.webhook_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    occurred_at: delivery.occurred_at,
    created_at: delivery.created_at,
    attempts: delivery.attempts,
    outcome: delivery.outcome,
    last_attempt_at: delivery.last_attempt_at,
    last_status_code: delivery.last_status_code,
    last_error: delivery.last_error,
    next_attempt_at: delivery.outcome === 'pending' ? delivery.due_at : null,
  };
}
