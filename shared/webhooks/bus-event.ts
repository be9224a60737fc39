/**
 * The events the webhook dispatcher reads, in the two shapes they arrive in: an EventBridge event (what
 * the bus rule puts in the SQS queue, in AWS) and a PutEvents entry (a line of the local stack's events
 * file). Both become the DomainEvent the service published. Only our own events with an event_id and
 * an occurred_at qualify; anything else is refused with the reason.
 */
import * as v from 'valibot';
import { EVENT_SOURCE } from '../events/event-source';
import type { DomainEvent } from '../events/publisher';

const Detail = v.looseObject({ event_id: v.pipe(v.string(), v.uuid()), occurred_at: v.pipe(v.string(), v.isoTimestamp()) });

/** What an EventBridge rule with an SQS target puts in each message body. */
const EventBridgeEvent = v.looseObject({ source: v.literal(EVENT_SOURCE), 'detail-type': v.string(), detail: Detail });

/** One line of LOCAL_EVENTS_FILE: the PutEvents entry the publisher would have sent. */
const PutEventsEntry = v.looseObject({ Source: v.literal(EVENT_SOURCE), DetailType: v.string(), Detail: v.string() });

const toDomainEvent = (detailType: string, detail: v.InferOutput<typeof Detail>): DomainEvent => ({
  event_id: detail.event_id,
  detail_type: detailType,
  occurred_at: detail.occurred_at,
  detail,
});

export class UnreadableEvent extends Error {
  override name = 'UnreadableEvent';
}

function parse<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) throw new UnreadableEvent(`not an event of ${EVENT_SOURCE}: ${parsed.issues.map((i) => v.getDotPath(i) ?? 'event').join(', ')}`);
  return parsed.output;
}

/** An SQS message body holding an EventBridge event. */
export function fromEventBridge(body: string): DomainEvent {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new UnreadableEvent('the message body is not JSON');
  }
  const event = parse(EventBridgeEvent, json);
  return toDomainEvent(event['detail-type'], event.detail);
}

/** A line of the local events file. */
export function fromPutEventsEntry(line: string): DomainEvent {
  let entry: v.InferOutput<typeof PutEventsEntry>;
  try {
    entry = parse(PutEventsEntry, JSON.parse(line));
    return toDomainEvent(entry.DetailType, parse(Detail, JSON.parse(entry.Detail)));
  } catch (error) {
    if (error instanceof UnreadableEvent) throw error;
    throw new UnreadableEvent('the line is not JSON');
  }
}
