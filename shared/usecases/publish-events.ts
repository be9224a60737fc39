/**
 * The transactional outbox: events that must never be lost are written in the SAME transaction as the
 * state change they announce (shared/store/outbox.ts), then published and deleted. If publishing fails,
 * the entry stays, and the relay (functions/events/relay-outbox.ts, every minute) publishes what is older
 * than 30 s. When EventBridge takes only some events of an entry (a partial failure), the entry keeps
 * only the others, so no accepted event is put again. The relay lists entries on GSI2, which lags, so it
 * reads each entry again (consistently) and publishes what it holds now, or nothing when it is gone. An
 * event may still be published twice — put, then the delete (or that update) failed; or a PutEvents
 * answer that does not say which entries failed, so all are tried again — so consumers drop duplicates
 * by event_id.
 */
import { errorNames, logger } from '../logger';
import { clearOutboxEntry, currentOutboxEntry, keepUnpublished, type OutboxEntry, outboxEntriesBefore, outboxKeyOf } from '../store/outbox';
import { sumOverRealms } from '../sandbox';
import { type DomainEvent, publish, PublishFailed } from '../events/publisher';

export const RELAY_AFTER_MS = 30_000;

/**
 * Right after the transaction: publish and clear. A failure is logged and left to the relay — the state
 * change is committed, so the request that made it still succeeds.
 */
export async function publishCommitted(events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await publishEntry({ key: outboxKeyOf(events), events });
  } catch (error) {
    logger.warn('event publish failed; the outbox relay will retry', {
      event_ids: unpublishedOf(error, events).map((e) => e.event_id),
      ...errorNames(error),
    });
  }
}

/** Publishes an entry's events and deletes it; after a partial failure it keeps only the events not put. */
async function publishEntry(entry: OutboxEntry): Promise<void> {
  try {
    await publish(entry.events);
  } catch (error) {
    if (error instanceof PublishFailed && error.published.length > 0) await keepUnpublished(entry.key, error.unpublished);
    throw error;
  }
  await clearOutboxEntry(entry.key);
}

const unpublishedOf = (error: unknown, events: DomainEvent[]) => (error instanceof PublishFailed ? error.unpublished : events);

/**
 * Publishes every entry older than RELAY_AFTER_MS, oldest first, live then sandbox (each realm's outbox is
 * its own partition, and its events its own source: docs/sandbox.md). Returns how many events were published.
 */
export function relayOutbox(now: Date): Promise<number> {
  return sumOverRealms(() => relayRealm(now));
}

async function relayRealm(now: Date): Promise<number> {
  const entries = await outboxEntriesBefore(new Date(now.getTime() - RELAY_AFTER_MS).toISOString());
  let published = 0;
  let failed = 0;
  for (const listed of entries) {
    let entry = listed;
    try {
      // GSI2 may list an entry already deleted, or with events since published: what is stored now counts.
      const current = await currentOutboxEntry(listed.key);
      if (current === undefined) continue;
      entry = current;
      await publishEntry(entry);
      published += entry.events.length;
    } catch (error) {
      // One entry that cannot be published must not hold back the others.
      failed += 1;
      if (error instanceof PublishFailed) published += error.published.length;
      logger.error('outbox relay could not publish', {
        event_ids: unpublishedOf(error, entry.events).map((e) => e.event_id),
        ...errorNames(error),
      });
    }
  }
  if (failed > 0) throw new Error(`outbox relay: ${failed} of ${entries.length} entries not published`);
  return published;
}
