/**
 * The outbox's items. The events one transaction announces are written by it as ONE entry (an entry
 * costs a transaction item, and a pickup of many appointments has few to spare), published right after
 * the commit and deleted; the relay (shared/events/outbox.ts) publishes what a failed publish left.
 *
 * Access patterns:
 * - write an entry ........................ Put (inside the caller's TransactWriteItems)
 * - entries written before an instant ..... Query GSI2 OUTBOX / <written_at>#<event_id>  (sparse index)
 * - an entry as it is now ................. GetItem, consistent (GSI2 lags: the relay reads each entry again)
 * - keep only its events not yet published  UpdateItem (after a partial failure: the others must not be put twice)
 * - clear an entry once published ......... DeleteItem
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent } from '../events/publisher';
import { dynamo, tableName } from './client';
import { writtenIf } from './conditions';
import { GSI2, type ItemKey } from './keys';
import * as keys from './keys/items';
import * as index from './keys/index-entries';
import { queryAll } from './query';
import { type NamedItem, named } from './transactions';

/** An entry as stored: entries written before the outbox held several events have `event` instead. */
export interface OutboxEntry {
  /** Its item's key: that of its first event when written; the events it still holds may no longer include that one. */
  key: ItemKey;
  events: DomainEvent[];
}

/** The key of the entry `outboxPut` wrote for these events. */
export const outboxKeyOf = (events: DomainEvent[]): ItemKey => keys.outbox((events[0] as DomainEvent).event_id);

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

export async function clearOutboxEntry(key: ItemKey): Promise<void> {
  await dynamo.send(new DeleteCommand({ TableName: tableName, Key: key }));
}

/** After a partial publish: the entry keeps only `events`, those not yet published (an entry gone meanwhile stays gone). */
export async function keepUnpublished(key: ItemKey, events: DomainEvent[]): Promise<void> {
  await writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET events = :events REMOVE event',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':events': events },
      }),
    ),
  );
}

const entryOf = (item: Record<string, unknown>): OutboxEntry => ({
  key: { PK: item.PK as string, SK: item.SK as string },
  events: (item.events as DomainEvent[] | undefined) ?? [item.event as DomainEvent],
});

/**
 * The entry at `key` as stored now (a consistent read), or undefined when it is gone. GSI2 is eventually
 * consistent: it may still list an entry already published and deleted, or the events an entry held
 * before keepUnpublished; publishing what it lists would put those events a second time.
 */
export async function currentOutboxEntry(key: ItemKey): Promise<OutboxEntry | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item ? entryOf(Item) : undefined;
}

/** Every entry written before `instant`, oldest first, as GSI2 lists them (possibly stale: see currentOutboxEntry). */
export async function outboxEntriesBefore(instant: string): Promise<OutboxEntry[]> {
  const { GSI2PK, GSI2SKBefore } = index.pendingOutboxBefore(instant);
  const items = await queryAll({
    TableName: tableName,
    IndexName: GSI2,
    KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :cutoff',
    ExpressionAttributeValues: { ':pk': GSI2PK, ':cutoff': GSI2SKBefore },
  });
  return items.map(entryOf);
}
