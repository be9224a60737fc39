/**
 * GET /events and /events/{id} (docs/events-and-webhooks.md "Event log"): the query of the list and an
 * entry as answered, `{id, type, timestamp, data}`: the webhook body of the event, with its id.
 */
import * as v from 'valibot';
import type { EventLogEntry as EventLogRecord } from '../store/event-log';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/event-types';
import { instant, uuid } from './fields';
import { PageQuery } from './pagination';

/** An instant the query compares with: ISO 8601 as the events write it, and one JavaScript reads (not `…,5Z`). */
const queryInstant = v.pipe(
  v.string(),
  v.isoTimestamp('must be an ISO 8601 instant, e.g. 2026-11-20T00:00:00Z'),
  v.check((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 instant, e.g. 2026-11-20T00:00:00Z'),
);

const eventType = v.picklist(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);

export const EventLogQuery = v.strictObject({
  ...PageQuery.entries,
  type: v.optional(v.pipe(eventType, v.description('Only events of this type.'))),
  after: v.optional(v.pipe(queryInstant, v.description('Only events that occurred after this instant (ISO 8601).'))),
  before: v.optional(v.pipe(queryInstant, v.description('Only events that occurred before this instant (ISO 8601).'))),
});

export const EventLogEntry = v.object({
  id: v.pipe(uuid, v.description("The event's id: the webhook-id header of its deliveries.")),
  type: eventType,
  timestamp: v.pipe(instant, v.description('When it occurred.')),
  data: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description("The event's detail, exactly as its webhook's `data` (the webhooks of this document, docs/events/)."),
  ),
});

export const EventLogEntries = v.array(EventLogEntry);

export const toEventLogEntry = (entry: EventLogRecord): v.InferOutput<typeof EventLogEntry> => ({
  id: entry.id,
  // Only webhook event types are recorded (shared/usecases/event-log.ts).
  type: entry.type as WebhookEventType,
  timestamp: entry.timestamp,
  data: entry.data,
});
