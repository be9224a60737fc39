/**
 * Puts domain events on the bus: EventBridge in AWS (source `lab-api`; `lab-api.sandbox` for what sandbox
 * data caused, shared/sandbox.ts), or — in the local stack — one
 * JSON line per event appended to LOCAL_EVENTS_FILE. Logs event ids and types only, never the detail.
 */
import { appendFile } from 'node:fs/promises';
import { EventBridgeClient, PutEventsCommand, type PutEventsCommandOutput, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { config } from '../config';
import { logger } from '../logger';
import { currentRealm } from '../sandbox';
import { EVENT_SOURCE, SANDBOX_EVENT_SOURCE } from './event-source';

export interface DomainEvent {
  event_id: string;
  detail_type: string;
  occurred_at: string;
  detail: Record<string, unknown>;
}

export const eventBridge = new EventBridgeClient({ region: config.region });

export function toPutEventsEntry(event: DomainEvent): PutEventsRequestEntry {
  return {
    Source: currentRealm() === 'sandbox' ? SANDBOX_EVENT_SOURCE : EVENT_SOURCE,
    DetailType: event.detail_type,
    Detail: JSON.stringify(event.detail),
    EventBusName: config.eventBusName,
    Time: new Date(event.occurred_at),
  };
}

/**
 * Some events of a publish were not put. `published` are those EventBridge accepted: they must not be put
 * again (a consumer would see them twice); `unpublished` are to be tried again.
 */
export class PublishFailed extends Error {
  override name = 'PublishFailed';
  constructor(
    readonly published: DomainEvent[],
    readonly unpublished: DomainEvent[],
    options?: { cause?: unknown },
  ) {
    super(`${unpublished.length} of ${published.length + unpublished.length} events not published`, options);
  }
}

/** The events of a batch EventBridge accepted: all, or (a partial failure) those whose answer has no ErrorCode. */
function acceptedOf(batch: DomainEvent[], result: PutEventsCommandOutput): DomainEvent[] {
  if ((result.FailedEntryCount ?? 0) === 0) return batch;
  // One answer entry per request entry, in order; an answer that does not say which failed counts as all failed.
  if (result.Entries?.length !== batch.length) return [];
  return batch.filter((_, i) => !result.Entries?.[i]?.ErrorCode);
}

/**
 * Publishes events (at most 10 per PutEvents call, EventBridge's limit). Throws PublishFailed when any
 * event was not put — a call that failed, or entries EventBridge rejected in a call that partly succeeded —
 * naming the events that were put, so that only the others are tried again.
 */
export async function publish(events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (config.localEventsFile) {
    await appendFile(config.localEventsFile, events.map((e) => `${JSON.stringify(toPutEventsEntry(e))}\n`).join(''));
    for (const event of events) logger.info('event published', { event_id: event.event_id, detail_type: event.detail_type });
    return;
  }
  if (!config.eventBusName) throw new Error('Invalid configuration: EVENT_BUS_NAME is required to publish events');
  const published: DomainEvent[] = [];
  let cause: unknown;
  for (let i = 0; i < events.length && cause === undefined; i += 10) {
    const batch = events.slice(i, i + 10);
    try {
      const accepted = acceptedOf(batch, await eventBridge.send(new PutEventsCommand({ Entries: batch.map(toPutEventsEntry) })));
      published.push(...accepted);
      for (const event of accepted) logger.info('event published', { event_id: event.event_id, detail_type: event.detail_type });
    } catch (error) {
      cause = error; // the bus does not answer: the later batches are not tried now
    }
  }
  if (published.length < events.length) {
    throw new PublishFailed(
      published,
      events.filter((event) => !published.includes(event)),
      { cause },
    );
  }
}
