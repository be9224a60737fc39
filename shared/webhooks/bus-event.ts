/**
 * The events the webhook dispatcher reads, in the two shapes they arrive in: an EventBridge event (what
 * the bus rule puts in the SQS queue, in AWS) and a PutEvents entry (a line of the local stack's events
 * file). Both become the DomainEvent the service published, with the realm its source names (live, or
 * sandbox: docs/sandbox.md). Only our own events with an event_id and an occurred_at qualify; anything else
 * is refused with the reason.
 */
import * as v from 'valibot';
import { EVENT_SOURCE, SANDBOX_EVENT_SOURCE } from '../events/event-source';
import type { DomainEvent } from '../events/publisher';
import type { Realm } from '../sandbox';

const Detail = v.looseObject({ event_id: v.pipe(v.string(), v.uuid()), occurred_at: v.pipe(v.string(), v.isoTimestamp()) });

/** What an EventBridge rule with an SQS target puts in each message body. */
const Source = v.picklist([EVENT_SOURCE, SANDBOX_EVENT_SOURCE]);
const EventBridgeEvent = v.looseObject({ source: Source, 'detail-type': v.string(), detail: Detail });

/** One line of LOCAL_EVENTS_FILE: the PutEvents entry the publisher would have sent. */
const PutEventsEntry = v.looseObject({ Source: Source, DetailType: v.string(), Detail: v.string() });

/** An event read from the bus, and which data it is about. */
export interface BusEvent {
  event: DomainEvent;
  realm: Realm;
}

const toBusEvent = (source: v.InferOutput<typeof Source>, detailType: string, detail: v.InferOutput<typeof Detail>): BusEvent => ({
  event: { event_id: detail.event_id, detail_type: detailType, occurred_at: detail.occurred_at, detail },
  realm: source === SANDBOX_EVENT_SOURCE ? 'sandbox' : 'live',
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
export function fromEventBridge(body: string): BusEvent {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new UnreadableEvent('the message body is not JSON');
  }
  const event = parse(EventBridgeEvent, json);
  return toBusEvent(event.source, event['detail-type'], event.detail);
}

/** A line of the local events file. */
export function fromPutEventsEntry(line: string): BusEvent {
  let entry: v.InferOutput<typeof PutEventsEntry>;
  try {
    entry = parse(PutEventsEntry, JSON.parse(line));
    return toBusEvent(entry.Source, entry.DetailType, parse(Detail, JSON.parse(entry.Detail)));
  } catch (error) {
    if (error instanceof UnreadableEvent) throw error;
    throw new UnreadableEvent('the line is not JSON');
  }
}
