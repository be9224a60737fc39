/**
 * The event log (docs/events-and-webhooks.md "Event log"): what a key could have received by webhook, to
 * reconcile from after downtime. The dispatcher records each event before it fans it out, so an event
 * delivered to anyone is in the log. A key sees an event under the webhook rules (mayReceive): its scopes
 * receive the type, and its groups hold the tenant; another tenant's event is a 403, as any resource of
 * another tenant is (docs/endpoints.md "Errors"). Sandbox keys read the sandbox's log, live keys the live
 * one (shared/sandbox.ts): the other realm's events are not found.
 */
import { type AccessContext } from '../auth/access';
import { NotFound, NotPermitted } from '../errors';
import type { DomainEvent } from '../events/publisher';
import { type EventLogEntry, type EventLogRange, getEventLogEntry, pageEventLog, putEventLogEntry } from '../store/event-log';
import type { Page, PageRequest } from '../store/pages';
import { eventLogPartitionOf, eventLogPartitionsOf, isWebhookEventType, mayReceive, receivesAnyEvent, type WebhookEventType } from '../webhooks/event-types';

export const EVENT_NOT_FOUND = 'Event not found';

/** Records an event of a webhook type in the log of its realm; other events (a lab order) are not logged. */
export async function recordEvent(event: DomainEvent, now: Date): Promise<void> {
  if (!isWebhookEventType(event.detail_type)) return;
  const partition = eventLogPartitionOf(event.detail_type, event.detail);
  if (!partition) return; // names no tenant: nobody could receive it
  await putEventLogEntry({ id: event.event_id, type: event.detail_type, timestamp: event.occurred_at, data: event.detail }, partition, now);
}

function assertReceivesEvents(access: AccessContext): void {
  if (!receivesAnyEvent(access)) throw new NotPermitted('This API key lacks the scopes to receive any event type, so it has no event log');
}

export function listEvents(query: EventLogRange & { type?: WebhookEventType }, access: AccessContext, page: PageRequest): Promise<Page<EventLogEntry>> {
  assertReceivesEvents(access);
  const partitions = eventLogPartitionsOf(access, query.type);
  if (partitions.length === 0) return Promise.resolve({ items: [] });
  // A type of the results kind shares its partitions with four others: the filter keeps it alone.
  return pageEventLog(partitions, query, page, query.type);
}

export async function getEvent(id: string, access: AccessContext): Promise<EventLogEntry> {
  assertReceivesEvents(access);
  const entry = await getEventLogEntry(id);
  if (!entry || !isWebhookEventType(entry.type)) throw new NotFound(EVENT_NOT_FOUND);
  if (!mayReceive(access, entry.type, entry.data)) throw new NotPermitted('This API key has no access to this event');
  return entry;
}
