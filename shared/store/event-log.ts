/**
 * The event log (docs/events-and-webhooks.md "Event log"): every webhook event type's event, as its webhook
 * body `{type, timestamp, data}` with its id, kept EVENT_LOG_RETENTION_DAYS (DynamoDB TTL). One item per
 * event, in the realm of the event (shared/sandbox.ts); GSI1 files it under its tenant and resource kind
 * (shared/webhooks/event-types.ts), so a key's list reads only the partitions it may receive.
 *
 * Access patterns:
 * - record an event (the dispatcher, once per event) ... PutItem          PK=EVENT#<id>
 * - one event by id .................................... GetItem          PK=EVENT#<id>
 * - a key's events, newest first ....................... Query GSI1 each  EVENTS#<tenant>#<kind> / EVENT#<occurred_at>#<id>
 *                                                        (a page reads at most `limit` per partition; a `type`
 *                                                        filter inside the results kind drops what it reads)
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { EVENT_LOG_SK_PREFIX } from './keys';
import * as keys from './keys/items';
import * as index from './keys/index-entries';
import type { Page, PageRequest } from './pages';
import { pageByRange } from './ranged-pages';
import { TTL_ATTRIBUTE } from './table';

export const EVENT_LOG_RETENTION_DAYS = 30;

export interface EventLogEntry {
  id: string;
  type: string;
  /** When it occurred, a UTC instant (the list's order). */
  timestamp: string;
  data: Record<string, unknown>;
}

export interface EventLogPartition {
  tenant: string;
  kind: string;
}

const utc = (instant: string) => new Date(instant).toISOString();

/** Records an event; recording it again (a redelivered event) writes the same item. */
export async function putEventLogEntry(entry: EventLogEntry, partition: EventLogPartition, now: Date): Promise<void> {
  const timestamp = utc(entry.timestamp);
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.eventLogEntry(entry.id),
        ...index.eventOfTenant(partition.tenant, partition.kind, timestamp, entry.id),
        ...entry,
        // Kept from when it was recorded: a late redelivery never shortens it.
        [TTL_ATTRIBUTE]: Math.floor(now.getTime() / 1000) + EVENT_LOG_RETENTION_DAYS * 86_400,
      },
    }),
  );
}

export async function getEventLogEntry(id: string): Promise<EventLogEntry | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.eventLogEntry(id), ConsistentRead: true }));
  return Item ? { id: Item.id, type: Item.type, timestamp: Item.timestamp, data: Item.data } : undefined;
}

export interface EventLogRange {
  /** Only events after this instant; undefined: from the start. */
  after?: string;
  /** Only events before this instant; undefined: to now. */
  before?: string;
}

/**
 * A page of the events of `partitions`, newest first, of one type when `type` is given. The range is a
 * condition on the sort key, so the events outside it are never read.
 */
export function pageEventLog(partitions: EventLogPartition[], range: EventLogRange, page: PageRequest, type?: string): Promise<Page<EventLogEntry>> {
  return pageByRange<EventLogEntry>(
    {
      partitions: partitions.map(({ tenant, kind }) => index.eventsOfTenant(tenant, kind).GSI1PK),
      // After T: above every key of T ('~' sorts after the id's characters); before T: below every key of T.
      from: range.after === undefined ? EVENT_LOG_SK_PREFIX : `${EVENT_LOG_SK_PREFIX}${utc(range.after)}#~`,
      to: range.before === undefined ? `${EVENT_LOG_SK_PREFIX}~` : `${EVENT_LOG_SK_PREFIX}${utc(range.before)}#`,
      ...(type ? { filter: { attribute: 'type', anyOf: [type] } } : {}),
    },
    page,
  );
}
