/**
 * The transactional outbox: an event that must never be lost is written in the SAME transaction as the
 * state change it announces, then published and deleted. If publishing fails, the entry stays, and the
 * relay (functions/events/relay-outbox.ts, every minute) publishes what is older than 30 s. An event may
 * thus be published twice; consumers drop duplicates by event_id.
 *
 * Access patterns:
 * - write an entry ........................ Put (inside the caller's TransactWriteItems)
 * - entries waiting longer than 30 s ...... Query GSI2 OUTBOX / <created_at>#<event_id>  (sparse index)
 * - clear an entry once published ......... DeleteItem
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../logger';
import { dynamo, tableName } from '../store/client';
import { GSI2, index, keys } from '../store/keys';
import { queryAll } from '../store/query';
import { type DomainEvent, publish } from './publisher';

export const RELAY_AFTER_MS = 30_000;

/**
 * The Put of an outbox entry, to add to a TransactWriteItems of the state change. It is indexed by when
 * it was written, not by the event's occurred_at (a courier's may be hours old), so the relay never
 * races the request that is about to publish it.
 */
export function outboxPut(event: DomainEvent, writtenAt: string) {
  return {
    Put: {
      TableName: tableName,
      Item: { ...keys.outbox(event.event_id), ...index.pendingOutbox(writtenAt, event.event_id), event, written_at: writtenAt },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

async function clear(event: DomainEvent): Promise<void> {
  await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.outbox(event.event_id) }));
}

/**
 * Right after the transaction: publish and clear. A failure is logged and left to the relay — the state
 * change is committed, so the request that made it still succeeds.
 */
export async function publishCommitted(events: DomainEvent[]): Promise<void> {
  try {
    await publish(events);
    await Promise.all(events.map(clear));
  } catch (error) {
    logger.warn('event publish failed; the outbox relay will retry', {
      event_ids: events.map((e) => e.event_id),
      errorName: error instanceof Error ? error.name : typeof error,
    });
  }
}

/** Publishes every entry older than RELAY_AFTER_MS, oldest first. Returns how many were published. */
export async function relayOutbox(now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - RELAY_AFTER_MS).toISOString();
  const items = await queryAll({
    TableName: tableName,
    IndexName: GSI2,
    KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :cutoff',
    ExpressionAttributeValues: { ':pk': 'OUTBOX', ':cutoff': cutoff },
  });
  let published = 0;
  let failed = 0;
  for (const item of items) {
    const event = item.event as DomainEvent;
    try {
      await publish([event]);
      await clear(event);
      published += 1;
    } catch (error) {
      // One entry that cannot be published must not hold back the others.
      failed += 1;
      logger.error('outbox relay could not publish', { event_id: event.event_id, errorName: error instanceof Error ? error.name : typeof error });
    }
  }
  if (failed > 0) throw new Error(`outbox relay: ${failed} of ${items.length} entries not published`);
  return published;
}
