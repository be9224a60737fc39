/**
 * Puts domain events on the bus: EventBridge in AWS (source `lab-api`), or — in the local stack — one
 * JSON line per event appended to LOCAL_EVENTS_FILE. Logs event ids and types only, never the detail.
 */
import { appendFile } from 'node:fs/promises';
import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { config } from '../config';
import { logger } from '../logger';
import { EVENT_SOURCE } from './event-source';

export interface DomainEvent {
  event_id: string;
  detail_type: string;
  occurred_at: string;
  detail: Record<string, unknown>;
}

export const eventBridge = new EventBridgeClient({ region: config.region });

export function toPutEventsEntry(event: DomainEvent): PutEventsRequestEntry {
  return {
    Source: EVENT_SOURCE,
    DetailType: event.detail_type,
    Detail: JSON.stringify(event.detail),
    EventBusName: config.eventBusName,
    Time: new Date(event.occurred_at),
  };
}

/** Publishes events (at most 10 per PutEvents call, EventBridge's limit); throws if any entry failed. */
export async function publish(events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (config.localEventsFile) {
    await appendFile(config.localEventsFile, events.map((e) => `${JSON.stringify(toPutEventsEntry(e))}\n`).join(''));
  } else {
    if (!config.eventBusName) throw new Error('Invalid configuration: EVENT_BUS_NAME is required to publish events');
    for (let i = 0; i < events.length; i += 10) {
      const batch = events.slice(i, i + 10);
      const result = await eventBridge.send(new PutEventsCommand({ Entries: batch.map(toPutEventsEntry) }));
      if ((result.FailedEntryCount ?? 0) > 0) {
        throw new Error(`EventBridge rejected ${result.FailedEntryCount} of ${batch.length} events`);
      }
    }
  }
  for (const event of events) logger.info('event published', { event_id: event.event_id, detail_type: event.detail_type });
}
