/**
 * GET /events and /events/{id} (docs/events-and-webhooks.md "Event log"): the query of the list and an
 * entry as answered, `{id, type, timestamp, data}`: the webhook body of the event, with its id.
 */
import * as v from 'valibot';
import type { EventLogEntry as EventLogRecord } from '../store/event-log';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/event-types';
import { instant, uuid } from './fields';
import { PageQuery } from './pagination';

const INSTANT_MESSAGE = 'must be an ISO 8601 instant from year 0000 to 9999 in UTC, e.g. 2026-11-20T00:00:00Z';
/**
 * An instant the query compares with: ISO 8601 as the events write it, one JavaScript reads (not `…,5Z`),
 * and whose UTC form has four year digits, as the sort keys it is compared with (an offset may carry
 * 9999-12-31T23:00-05:00 into year 10000).
 */
const queryInstant = v.pipe(
  v.string(),
  v.isoTimestamp(INSTANT_MESSAGE),
  v.check((value) => {
    const year = new Date(value).getUTCFullYear();
    return year >= 0 && year <= 9999;
  }, INSTANT_MESSAGE),
);

const eventType = v.picklist(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);

export const EventLogQuery = v.pipe(
  v.strictObject({
    ...PageQuery.entries,
    type: v.optional(v.pipe(eventType, v.description('Only events of this type.'))),
    after: v.optional(v.pipe(queryInstant, v.description('Only events that occurred after this instant (ISO 8601).'))),
    before: v.optional(v.pipe(queryInstant, v.description('Only events that occurred before this instant (ISO 8601).'))),
  }),
  v.forward(
    v.check(({ after, before }) => after === undefined || before === undefined || Date.parse(after) < Date.parse(before), 'must be later than after'),
    ['before'],
  ),
);

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
