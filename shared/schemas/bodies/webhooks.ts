/** What a client sends to subscribe a webhook and to change a subscription. */
import * as v from 'valibot';
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_STATUSES } from '../../domain/webhook';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/event-types';
import { freeText } from '../fields';

const url = v.pipe(
  v.string(),
  v.maxLength(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
  v.description('https (in AWS); never a private, loopback, link-local or reserved address. The local stack also accepts http://127.0.0.1 and localhost.'),
);
const eventTypes = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_TYPES, `must each be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`)),
  v.minLength(1, 'must name at least one event type'),
  v.maxLength(WEBHOOK_EVENT_TYPES.length, `must name at most ${WEBHOOK_EVENT_TYPES.length} event types`),
  v.description('The events to receive (EventBridge detail-types, docs/events/). A key receives only those it could read with its scopes.'),
);
const description = v.nullable(freeText(500));

export const CreateWebhookBody = v.strictObject({ url, event_types: eventTypes, description: v.optional(description) });

export const UpdateWebhookBody = v.pipe(
  v.strictObject({
    url: v.optional(url),
    event_types: v.optional(eventTypes),
    description: v.optional(description),
    status: v.optional(v.picklist(WEBHOOK_STATUSES, `must be one of ${WEBHOOK_STATUSES.join(', ')}`)),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'must change url, event_types, description or status'),
);
