/** What the webhook subscription routes answer, their deliveries, and the event log. Joined with the other resources in shared/contract/operations.ts. */
import type { RouteName } from '../../routes';
import { EventLogEntries, EventLogEntry } from '../../schemas/event-log';
import { Webhook, WebhookDelivery, WebhookWithSecret } from '../../schemas/webhooks';
import { CHANGED_MEANWHILE, list, type OperationDoc, PAGE, success } from '../operation-doc';

export const webhooksOperations = {
  createWebhook: {
    tag: 'Webhooks',
    summary: 'Subscribe to events',
    description:
      'Creates a subscription of this API key: every event of the listed types about a resource the key may read (its scopes and ' +
      'its profile and location groups, checked again at each delivery) is POSTed to the url as `{type, timestamp, data}`, `data` ' +
      'being the event detail of docs/events/ (ids and statuses only). Signed with the secret of this answer, which no other answer shows. ' +
      'At most 10 subscriptions per key. A failed delivery (no 2xx within 10 s) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.',
    responses: { 201: { description: 'The subscription, enabled, with its signing secret.', schema: WebhookWithSecret } },
    errors: {
      403: 'the key lacks the scope to read one of the event types',
      409: 'the key already has 10 subscriptions',
    },
  },
  listWebhooks: {
    tag: 'Webhooks',
    summary: "List this key's subscriptions",
    description: 'The subscriptions this API key created, oldest first (at most 10). Secrets are never shown.',
    responses: { 200: { description: 'The subscriptions.', schema: list(Webhook) } },
  },
  getWebhook: {
    tag: 'Webhooks',
    summary: 'Get a subscription',
    description: 'A subscription of this API key, with its status and, when disabled, why.',
    responses: { 200: { description: 'The subscription.', schema: Webhook } },
    errors: { 404: 'webhook not found' },
  },
  updateWebhook: {
    tag: 'Webhooks',
    summary: 'Change a subscription',
    description:
      'Changes the url, event types, description or status. Enabling a disabled subscription clears its failure count; ' +
      'deliveries that failed meanwhile can be retried from the delivery log.',
    responses: { 200: { description: 'The changed subscription.', schema: Webhook } },
    errors: { 403: 'the key lacks the scope to read one of the event types', 404: 'webhook not found', 409: CHANGED_MEANWHILE },
  },
  deleteWebhook: {
    tag: 'Webhooks',
    summary: 'Delete a subscription',
    description: 'No further deliveries; scheduled retries end as failed. The delivery log expires with its 30-day retention.',
    responses: { 200: success },
    errors: { 404: 'webhook not found', 409: CHANGED_MEANWHILE },
  },
  rotateWebhookSecret: {
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description:
      'A new secret signs from now on. For 24 hours the previous one signs too (webhook-signature then carries both signatures), ' +
      'so a receiver verifies with either while the new secret is deployed.',
    responses: { 200: { description: 'The subscription and its new secret, shown this once.', schema: WebhookWithSecret } },
    errors: { 404: 'webhook not found', 409: CHANGED_MEANWHILE },
  },
  sendTestWebhook: {
    tag: 'Webhooks',
    summary: 'Send a test webhook',
    description:
      'Sends a `webhook.test` event to the subscription now and answers the delivery after its first attempt: outcome, the ' +
      "receiver's status code or why there was none. A failed test is retried like any delivery.",
    responses: { 200: { description: 'The delivery after its first attempt.', schema: WebhookDelivery } },
    errors: { 404: 'webhook not found', 409: 'the subscription is disabled' },
  },
  listWebhookDeliveries: {
    tag: 'Webhooks',
    summary: 'List deliveries',
    description: 'The delivery log of a subscription, newest first, paged: event, attempts, last status code, next attempt, outcome. Kept 30 days.',
    responses: { 200: { description: 'A page of deliveries.', schema: list(WebhookDelivery), ...PAGE } },
    errors: { 404: 'webhook not found' },
  },
  retryWebhookDelivery: {
    tag: 'Webhooks',
    summary: 'Retry a delivery',
    description:
      'Sends a delivery again now, with the same webhook-id and body: after a failed one once the endpoint is fixed, or a ' +
      'succeeded one to replay it. Answers the delivery after the attempt.',
    responses: { 200: { description: 'The delivery after this attempt.', schema: WebhookDelivery } },
    errors: { 404: 'webhook or delivery not found', 409: 'the subscription is disabled, or an attempt of this delivery is in flight' },
  },
  listEvents: {
    tag: 'Events',
    summary: 'List events',
    description:
      'The events this key could receive by webhook (its scopes receive the type, its groups hold the resource), whether or not it subscribed, ' +
      'newest first, paged; each `{id, type, timestamp, data}` exactly as the webhook body, with its id (the webhook-id of its deliveries). ' +
      '`type`, `after` and `before` narrow the list. Kept 30 days: a client that was down replays from here. A sandbox key reads the sandbox events.',
    responses: { 200: { description: 'A page of events.', schema: EventLogEntries, ...PAGE } },
    errors: { 403: 'the key lacks WEBHOOKS_MANAGE, or the scopes to receive any event type' },
  },
  getEvent: {
    tag: 'Events',
    summary: 'Get an event',
    description: 'One event of the log, as its webhook body with its id.',
    responses: { 200: { description: 'The event.', schema: EventLogEntry } },
    errors: {
      403: "the key lacks WEBHOOKS_MANAGE or the scopes to receive any event type; or the event is another tenant's, or of a type its scopes do not receive",
      404: 'event not found (or older than 30 days)',
    },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
