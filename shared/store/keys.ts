/**
 * With keys/items.ts (the key of each kind of item) and keys/index-entries.ts (the GSI1 and GSI2 entries),
 * the only modules that know the key formats of the single table: every partition and sort key, every
 * prefix. Those two are imported as namespaces (`import * as keys from './keys/items'`): esbuild then keeps
 * in a function's bundle only the builders it calls, where one object of them all came whole (issue #33).
 *
 * Items of one aggregate share a partition so that one Query reads the whole aggregate.
 * GSI1 serves the lists by tenant or kind; an item that must not be listed (an inactive location)
 * simply has no GSI1 keys, so the index stays sparse and a list costs what it returns.
 *
 * The partitions of what clients create (profiles, appointments, kits, shipments, barcodes, seats, webhooks,
 * outbox, histories, the access log, the event log) and the index partitions that list them are in the
 * current realm, `t(…)`: prefixed `SANDBOX#` when a sandbox key's request (or an event it caused) runs
 * (shared/sandbox.ts). Reference data and API keys are the same for both.
 */
import { inCurrentRealm as t, withoutRealm } from '../sandbox';

export const GSI1 = 'GSI1';
/**
 * Sparse index of what a scheduled function must find: pending outbox entries (the relay), deliveries due
 * for an attempt (the retry sweep), critical results nobody acknowledged yet (the critical results check).
 */
export const GSI2 = 'GSI2';

export interface ItemKey {
  PK: string;
  SK: string;
}

/**
 * The sort keys of the items in an appointment's partition (APPT#<id>): the aggregate reader tells them
 * apart by these prefixes.
 */
export const appointmentSk = {
  appointment: 'APPT',
  panel: 'PANEL#',
  biomarker: 'BIOMARKER#',
  shipment: 'SHIPMENT#',
  clinicalResult: 'RESULT#',
  geneticResult: 'GENETIC#',
  rejectedTest: 'REJECTED#',
  document: 'DOC#',
} as const;

/**
 * The partitions of API key items. Functions that may otherwise only read update there the one attribute a
 * request's authentication writes, a key's day of last use (IAM dynamodb:LeadingKeys and
 * dynamodb:Attributes, infra/route-classes.ts).
 */
export const API_KEY_PARTITION_PREFIX = 'APIKEY#';
export const API_KEY_LAST_USE_ATTRIBUTE = 'last_used_on';

/**
 * The partitions of the patient links' rate counters (issue #53, keys/items.ts patientLinkRate), outside the
 * realm as the links are. The page's function is a read (a GET) that updates there only a counter and its TTL
 * (IAM dynamodb:LeadingKeys and dynamodb:Attributes, infra/route-classes.ts LINK_REQUEST_COUNTERS).
 */
export const PATIENT_LINK_RATE_PARTITION_PREFIX = 'PATIENT_LINK_RATE#';
export const PATIENT_LINK_RATE_COUNT_ATTRIBUTE = 'count';

export const PROFILE_LINK_PREFIX = 'LINK#';
export const SEATS_PARTITION_PREFIX = 'SEATS#';
export type ProfileLinkKind = 'APPT' | 'KIT';

export const WEBHOOK_DELIVERY_PREFIX = 'DELIVERY#';
/** The partition of the subscriptions of an event type (webhookRoute items). */
export const webhookRoutesOf = (eventType: string) => t(`WEBHOOK_ROUTE#${eventType}`);
/** The partition of a subscription's deliveries, newest first by their time-ordered ids. */
export const deliveriesOf = (webhookId: string) => ({ PK: t(`WEBHOOK#${webhookId}`), skPrefix: WEBHOOK_DELIVERY_PREFIX });

export const HISTORY_ENTRY_PREFIX = 'ENTRY#';
export const MESSAGE_SK_PREFIX = 'MSG#';
/** The partition of a profile's messages (issue #52), newest first. */
export const messagesOf = (profileId: string) => ({ PK: t(`MESSAGES#${profileId}`), skPrefix: MESSAGE_SK_PREFIX });
export const EVENT_LOG_SK_PREFIX = 'EVENT#';

/**
 * Who read a person's data (docs/privacy.md "Privacy"): a partition per profile of its own, never the profile's, so
 * that reading a profile or its lists never pages through audit entries. The read functions may put items
 * only into partitions with this prefix (IAM dynamodb:LeadingKeys, infra/route-classes.ts).
 */
export const ACCESS_LOG_PARTITION_PREFIX = 'ACCESS#';
const ACCESS_LOG_ENTRY_PREFIX = 'READ#';

/**
 * One read: sorted by time (a UTC instant, fixed width), then the request and the entry's place in it, so
 * that the key is unique and the newest read comes first in a descending Query.
 */
export const accessLogEntryKey = (profileId: string, at: string, requestId: string, n: number): ItemKey => ({
  PK: t(`${ACCESS_LOG_PARTITION_PREFIX}${profileId}`),
  SK: `${ACCESS_LOG_ENTRY_PREFIX}${at}#${requestId}#${n}`,
});

/** The partition of a profile's access log. */
export const accessLogOf = (profileId: string) => ({ PK: t(`${ACCESS_LOG_PARTITION_PREFIX}${profileId}`), skPrefix: ACCESS_LOG_ENTRY_PREFIX });

/**
 * The access log of a lab report that matched no order (issue #51), whose patient no profile names yet: its
 * own partition, by its id, outliving the unmatched result for the access log's retention.
 */
export const unmatchedAccessLogEntryKey = (unmatchedResultId: string, at: string, requestId: string, n: number): ItemKey => ({
  PK: t(`${ACCESS_LOG_PARTITION_PREFIX}UNMATCHED#${unmatchedResultId}`),
  SK: `${ACCESS_LOG_ENTRY_PREFIX}${at}#${requestId}#${n}`,
});
export const unmatchedAccessLogOf = (unmatchedResultId: string) => ({
  PK: t(`${ACCESS_LOG_PARTITION_PREFIX}UNMATCHED#${unmatchedResultId}`),
  skPrefix: ACCESS_LOG_ENTRY_PREFIX,
});

/** The partition holding a resource's history entries. */
export const historyOf = (resource: ItemKey) => ({ PK: t(`HISTORY#${withoutRealm(resource.PK)}`), skPrefix: HISTORY_ENTRY_PREFIX });

export const partitions = {
  appointment: (id: string) => t(`APPT#${id}`),
} as const;
