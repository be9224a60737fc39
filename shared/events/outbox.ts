/**
 * The transactional outbox: events that must never be lost are written in the SAME transaction as the
 * state change they announce (shared/store/outbox.ts), then published and deleted. If publishing fails,
 * the entry stays, and the relay (functions/events/relay-outbox.ts, every minute) publishes what is older
 * than 30 s. An event may thus be published twice; consumers drop duplicates by event_id.
 */
import { logger } from '../logger';
import { clearOutboxEntry, outboxEntriesBefore } from '../store/outbox';
import { type DomainEvent, publish } from './publisher';

export const RELAY_AFTER_MS = 30_000;

/**
 * Right after the transaction: publish and clear. A failure is logged and left to the relay — the state
 * change is committed, so the request that made it still succeeds.
 */
export async function publishCommitted(events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await publish(events);
    await clearOutboxEntry(events);
  } catch (error) {
    logger.warn('event publish failed; the outbox relay will retry', {
      event_ids: events.map((e) => e.event_id),
      errorName: error instanceof Error ? error.name : typeof error,
    });
  }
}

/** Publishes every entry older than RELAY_AFTER_MS, oldest first. Returns how many events were published. */
export async function relayOutbox(now: Date): Promise<number> {
  const entries = await outboxEntriesBefore(new Date(now.getTime() - RELAY_AFTER_MS).toISOString());
  let published = 0;
  let failed = 0;
  for (const { events } of entries) {
    try {
      await publish(events);
      await clearOutboxEntry(events);
      published += events.length;
    } catch (error) {
      // One entry that cannot be published must not hold back the others.
      failed += 1;
      logger.error('outbox relay could not publish', {
        event_ids: events.map((e) => e.event_id),
        errorName: error instanceof Error ? error.name : typeof error,
      });
    }
  }
  if (failed > 0) throw new Error(`outbox relay: ${failed} of ${entries.length} entries not published`);
  return published;
}
