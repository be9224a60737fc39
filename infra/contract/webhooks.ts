/**
 * The webhooks of the contract: OpenAPI 3.1's `webhooks` object, one operation per event type a
 * subscription may ask for (shared/webhooks/event-types.ts) and the test send. Each says what our POST to
 * the client's endpoint carries: the Standard Webhooks headers and the body `{type, timestamp, data}`
 * (shared/webhooks/message.ts), its `data` the event's detail with the very schema docs/events/ publishes
 * (infra/contract/event-schemas.ts), so the docs page renders them and the typed client exports their types.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import { ATTEMPT_TIMEOUT_MS } from '../../shared/domain/webhook';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '../../shared/webhooks/event-types';
import { PUBLISHED_EVENTS } from './event-schemas';

type Json = Record<string, unknown>;

/** The component name of an event type's webhook body: `AppointmentStatusChanged` → `AppointmentStatusChangedWebhook`. */
export const webhookSchemaName = (type: string) =>
  `${type
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Webhook`;

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The delivery id: the same on every retry of one event to one subscription. Drop duplicates by it.' },
  { name: 'webhook-timestamp', description: 'Seconds since the epoch when this attempt was signed. Refuse attempts more than 5 minutes old.' },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>` with the subscription secret ' +
      '(two during a secret rotation). Verify with any Standard Webhooks library.',
  },
].map(({ name, description }) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

/** The body schema of one event type: its `type` fixed, its `data` the event's detail. */
function body(type: string, description: string, data: Json): Json {
  return {
    type: 'object',
    description,
    required: ['type', 'timestamp', 'data'],
    additionalProperties: false,
    properties: {
      type: { const: type },
      timestamp: { type: 'string', format: 'date-time', description: 'When the event happened (not when this attempt was sent).' },
      data,
    },
  };
}

const TEST_DATA: Json = {
  type: 'object',
  required: ['webhook_id', 'message'],
  additionalProperties: false,
  properties: { webhook_id: { type: 'string', format: 'uuid' }, message: { type: 'string' } },
};

/** The `webhooks` object of the document, and the body schemas it refers to (for components.schemas). */
export function webhooksContract(): { webhooks: Record<string, Json>; schemas: Record<string, Json> } {
  const events = [
    ...WEBHOOK_EVENT_TYPES.map((type) => {
      const event = PUBLISHED_EVENTS.find((published) => published.detailType === type);
      if (!event) throw new Error(`webhook event type ${type} has no published schema (infra/contract/event-schemas.ts)`);
      const { $schema: _draft, ...data } = toJsonSchema(event.detail, { errorMode: 'ignore' }) as Json;
      return { type, description: `${event.description} Its \`data\` is docs/events/${event.file}.`, data };
    }),
    { type: WEBHOOK_TEST_EVENT, description: 'What POST /api/v1/webhooks/{id}/test sends, whatever the subscription asks for.', data: TEST_DATA },
  ];
  const schemas = Object.fromEntries(events.map(({ type, description, data }) => [webhookSchemaName(type), body(type, description, data)]));
  const webhooks = Object.fromEntries(
    events.map(({ type, description }) => [
      type,
      {
        post: {
          operationId: `receive${webhookSchemaName(type)}`,
          tags: ['Webhooks'],
          summary: `${type}, as POSTed to a subscription's URL`,
          description: `${description}\n\nAnswer 2xx within ${ATTEMPT_TIMEOUT_MS / 1000} s; anything else (or no answer) is retried with backoff, and replayable.`,
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${webhookSchemaName(type)}` } } } },
          responses: { '200': { description: 'Received. Any 2xx will do; the body is ignored.' } },
        },
      },
    ]),
  );
  return { webhooks, schemas };
}
