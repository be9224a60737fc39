/**
 * The body of a webhook, as Standard Webhooks shapes it: `{type, timestamp, data}`. `data` is the event's
 * detail exactly as docs/events/ documents it — ids, statuses and the tenant's group, never a name, a
 * birth date, contact data or a result: a client reads details through the API with its own key.
 */
import { WEBHOOK_TEST_EVENT } from './event-types';

export interface WebhookMessage {
  event_id: string;
  type: string;
  occurred_at: string;
  /** The JSON body, fixed once: every retry and replay sends (and signs) these same bytes. */
  payload: string;
}

export function webhookMessage(event: { event_id: string; detail_type: string; occurred_at: string; detail: Record<string, unknown> }): WebhookMessage {
  return {
    event_id: event.event_id,
    type: event.detail_type,
    occurred_at: event.occurred_at,
    payload: JSON.stringify({ type: event.detail_type, timestamp: event.occurred_at, data: event.detail }),
  };
}

/** What POST /webhooks/{id}/test sends: the subscription's id and a line saying what this is. */
export function testMessage(webhookId: string, eventId: string, at: Date): WebhookMessage {
  return webhookMessage({
    event_id: eventId,
    detail_type: WEBHOOK_TEST_EVENT,
    occurred_at: at.toISOString(),
    detail: { webhook_id: webhookId, message: 'A test webhook from the Lab API: your endpoint receives and verifies webhooks.' },
  });
}
