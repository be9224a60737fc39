/**
 * The outbox's items. The events one transaction announces are written by it as ONE entry (an entry
 * costs a transaction item, and a pickup of many appointments has few to spare), published right after
 * the commit and deleted; the relay (shared/events/outbox.ts) publishes what a failed publish left.
 *
 * Access patterns:
 * - write an entry ........................ Put (inside the caller's TransactWriteItems)
 * - entries written before an instant ..... Query GSI2 OUTBOX / <written_at>#<event_id>  (sparse index)
 * - clear an entry once published ......... DeleteItem
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent } from '../events/publisher';
import { dynamo, tableName } from './client';
import { GSI2, index, keys } from './keys';
import { queryAll } from './query';
import { type NamedItem, named } from './transactions';

/** An entry as stored: entries written before the outbox held several events have `event` instead. */
export interface OutboxEntry {
  events: DomainEvent[];
}

/**
 * The Put of an outbox entry, to add to the TransactWriteItems of the state change. It is indexed by when
 * it was written, not by the events' occurred_at (a courier's may be hours old), so the relay never races
 * the request that is about to publish it. Keyed by its first event's id.
 */
export function outboxPut(events: DomainEvent[], writtenAt: string): NamedItem {
  const id = (events[0] as DomainEvent).event_id;
  return named('outbox', {
    Put: {
      TableName: tableName,
      Item: { ...keys.outbox(id), ...index.pendingOutbox(writtenAt, id), events, written_at: writtenAt },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  });
}

export async function clearOutboxEntry(events: DomainEvent[]): Promise<void> {
  await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.outbox((events[0] as DomainEvent).event_id) }));
}

/** Every entry written before `instant`, oldest first. */
export async function outboxEntriesBefore(instant: string): Promise<OutboxEntry[]> {
  const { GSI2PK, GSI2SKBefore } = index.pendingOutboxBefore(instant);
  const items = await queryAll({
    TableName: tableName,
    IndexName: GSI2,
    KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :cutoff',
    ExpressionAttributeValues: { ':pk': GSI2PK, ':cutoff': GSI2SKBefore },
  });
  return items.map((item) => ({ events: (item.events as DomainEvent[] | undefined) ?? [item.event as DomainEvent] }));
}
