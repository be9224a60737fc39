/**
 * The only module that knows the key formats of the single table: every partition and sort key, every prefix.
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
const PENDING_OUTBOX = 'OUTBOX';
/** GSI2 partition of webhook deliveries waiting for their next attempt. */
const DUE_DELIVERIES = 'WEBHOOK_DUE';
/** GSI2 partition of appointments whose critical results no clinician acknowledged yet. */
const UNACKNOWLEDGED_CRITICAL = 'CRITICAL_UNACKNOWLEDGED';

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

const HISTORY_SEQ_DIGITS = 6;

/**
 * The partitions of API key items. Functions that may otherwise only read update there the one attribute a
 * request's authentication writes, a key's day of last use (IAM dynamodb:LeadingKeys and
 * dynamodb:Attributes, infra/route-classes.ts).
 */
export const API_KEY_PARTITION_PREFIX = 'APIKEY#';
export const API_KEY_LAST_USE_ATTRIBUTE = 'last_used_on';

export const PROFILE_LINK_PREFIX = 'LINK#';
export const SEATS_PARTITION_PREFIX = 'SEATS#';
export type ProfileLinkKind = 'APPT' | 'KIT';

export const keys = {
  /** Which reference data records the data CLI manages (infra/data/apply.ts): the ones it may deactivate. */
  referenceData: { PK: 'REFERENCE_DATA', SK: 'MANIFEST' } as ItemKey,
  /** A scheduled job's lease (shared/store/leases.ts): which run may work now. */
  lease: (name: string): ItemKey => ({ PK: `LEASE#${name}`, SK: 'LEASE' }),
  /** The record of one Idempotency-Key (shared/store/idempotency.ts), in a partition of its own; the key hash already holds the API key. */
  idempotencyRecord: (keyHash: string): ItemKey => ({ PK: `IDEMPOTENCY#${keyHash}`, SK: 'IDEMPOTENCY' }),
  profile: (id: string): ItemKey => ({ PK: t(`PROFILE#${id}`), SK: 'PROFILE' }),
  profileGroup: (slug: string): ItemKey => ({ PK: `GROUP#${slug}`, SK: 'GROUP' }),
  /**
   * "This appointment or kit order was made for this person", in the profile's own partition: erasure
   * reads these consistently, where GSI1 may not show yet a booking made a moment before.
   */
  profileLink: (profileId: string, kind: ProfileLinkKind, id: string): ItemKey => ({
    PK: t(`PROFILE#${profileId}`),
    SK: `${PROFILE_LINK_PREFIX}${kind}#${id}`,
  }),
  location: (id: string): ItemKey => ({ PK: `LOCATION#${id}`, SK: 'LOCATION' }),
  /**
   * The seats taken in one slot of a location (shared/store/seats.ts): a partition per location, sorted by
   * the slot's start (a UTC instant, fixed width), so a date range's bookings are one Query.
   */
  seats: (locationId: string, slotStart: string): ItemKey => ({ PK: t(`${SEATS_PARTITION_PREFIX}${locationId}`), SK: slotStart }),
  panel: (id: string): ItemKey => ({ PK: `PANEL#${id}`, SK: 'PANEL' }),
  biomarker: (id: number): ItemKey => ({ PK: `BIOMARKER#${id}`, SK: 'BIOMARKER' }),
  apiKey: (sha256: string): ItemKey => ({ PK: `${API_KEY_PARTITION_PREFIX}${sha256}`, SK: 'APIKEY' }),
  /**
   * A key id's own item: whether it is revoked and the hashes of its secrets. Read consistently, unlike
   * GSI1, it is what rotate and revoke serialise on. Outside APIKEY#, so the reading functions, which may
   * update a secret's day of last use, cannot touch it.
   */
  apiKeyId: (keyId: string): ItemKey => ({ PK: `KEYID#${keyId}`, SK: 'APIKEY' }),
  appointment: (id: string): ItemKey => ({ PK: t(`APPT#${id}`), SK: appointmentSk.appointment }),
  /** Panel and biomarker links live in the appointment's partition: one Query reads the aggregate. */
  appointmentPanel: (id: string, panelId: string): ItemKey => ({ PK: t(`APPT#${id}`), SK: `${appointmentSk.panel}${panelId}` }),
  appointmentBiomarker: (id: string, biomarkerId: number): ItemKey => ({
    PK: t(`APPT#${id}`),
    SK: `${appointmentSk.biomarker}${biomarkerId}`,
  }),
  /** One item per barcode: a barcode identifies one sample, whether drawn at a location or at home. */
  barcode: (barcode: string): ItemKey => ({ PK: t(`BARCODE#${barcode}`), SK: 'BARCODE' }),
  outbox: (eventId: string): ItemKey => ({ PK: t(`OUTBOX#${eventId}`), SK: 'OUTBOX' }),
  /** Results and report links of an appointment, in its partition. */
  clinicalResult: (appointmentId: string, biomarkerId: number): ItemKey => ({
    PK: t(`APPT#${appointmentId}`),
    SK: `${appointmentSk.clinicalResult}${biomarkerId}`,
  }),
  geneticResult: (appointmentId: string, biomarkerId: number): ItemKey => ({
    PK: t(`APPT#${appointmentId}`),
    SK: `${appointmentSk.geneticResult}${biomarkerId}`,
  }),
  /** A test the lab could not perform on the appointment's specimen (issue #29), in its partition. */
  rejectedTest: (appointmentId: string, biomarkerId: number): ItemKey => ({
    PK: t(`APPT#${appointmentId}`),
    SK: `${appointmentSk.rejectedTest}${biomarkerId}`,
  }),
  appointmentDocument: (appointmentId: string, documentId: string): ItemKey => ({
    PK: t(`APPT#${appointmentId}`),
    SK: `${appointmentSk.document}${documentId}`,
  }),
  /** A document on its own: its S3 key and the profile that owns it, for GET /documents/{id}. */
  document: (id: string): ItemKey => ({ PK: t(`DOC#${id}`), SK: 'DOC' }),
  /** A lab report already stored: the same event_id twice stores once. */
  ingestedReport: (eventId: string): ItemKey => ({ PK: t(`INGESTED#${eventId}`), SK: 'INGESTED' }),
  homeKitOrder: (id: string): ItemKey => ({ PK: t(`KIT#${id}`), SK: 'KIT' }),
  shipment: (reference: string): ItemKey => ({ PK: t(`SHIPMENT#${reference}`), SK: 'SHIPMENT' }),
  /** An appointment handed to a shipment at pickup, in the appointment's partition. */
  appointmentShipment: (appointmentId: string, reference: string): ItemKey => ({
    PK: t(`APPT#${appointmentId}`),
    SK: `${appointmentSk.shipment}${reference}`,
  }),
  /**
   * The n-th status history entry of a resource (appointment, kit order, shipment), in a partition of its
   * own: the history is one Query, and reading the resource never reads its history. n is zero-padded so
   * that the string order is the order of the changes, whatever clocks said.
   */
  historyEntry: (resource: ItemKey, n: number): ItemKey => ({
    PK: t(`HISTORY#${withoutRealm(resource.PK)}`),
    SK: `${HISTORY_ENTRY_PREFIX}${String(n).padStart(HISTORY_SEQ_DIGITS, '0')}`,
  }),
  /** A webhook subscription; its deliveries live in its partition (the delivery log is one Query). */
  webhook: (id: string): ItemKey => ({ PK: t(`WEBHOOK#${id}`), SK: 'WEBHOOK' }),
  webhookDelivery: (webhookId: string, deliveryId: string): ItemKey => ({ PK: t(`WEBHOOK#${webhookId}`), SK: `${WEBHOOK_DELIVERY_PREFIX}${deliveryId}` }),
  /**
   * "This subscription wants this event type": one item per type in a partition of the type, so the
   * subscriptions an event goes to are one Query that reads only them.
   */
  webhookRoute: (eventType: string, webhookId: string): ItemKey => ({ PK: t(`WEBHOOK_ROUTE#${eventType}`), SK: `WEBHOOK#${webhookId}` }),
  /** An event as the event log keeps it (shared/store/event-log.ts), for GET /events/{id}. */
  eventLogEntry: (eventId: string): ItemKey => ({ PK: t(`EVENT#${eventId}`), SK: 'EVENT' }),
  /**
   * How many subscriptions an API key has: a conditional counter keeps it at most 10 under concurrency. In
   * the realm, so that a sandbox key's count expires with its subscriptions.
   */
  webhookCount: (keyId: string): ItemKey => ({ PK: t(`KEYID#${keyId}`), SK: 'WEBHOOK_COUNT' }),
} as const;

export const WEBHOOK_DELIVERY_PREFIX = 'DELIVERY#';
/** The partition of the subscriptions of an event type (webhookRoute items). */
export const webhookRoutesOf = (eventType: string) => t(`WEBHOOK_ROUTE#${eventType}`);
/** The partition of a subscription's deliveries, newest first by their time-ordered ids. */
export const deliveriesOf = (webhookId: string) => ({ PK: t(`WEBHOOK#${webhookId}`), skPrefix: WEBHOOK_DELIVERY_PREFIX });

export const HISTORY_ENTRY_PREFIX = 'ENTRY#';
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

/** The partition holding a resource's history entries. */
export const historyOf = (resource: ItemKey) => ({ PK: t(`HISTORY#${withoutRealm(resource.PK)}`), skPrefix: HISTORY_ENTRY_PREFIX });

export const partitions = {
  appointment: (id: string) => t(`APPT#${id}`),
} as const;

/**
 * The base-table key of an item that a paged list shows under GSI1SK `<WORD>#<instant>#<id>`: its id is
 * the last segment. A page cursor then only needs the GSI1SK of the last item answered.
 */
const listedBy = (key: (id: string) => ItemKey) => (gsi1sk: string) => key(gsi1sk.slice(gsi1sk.lastIndexOf('#') + 1));

/** GSI1 entries: the partition names a list, the sort key orders it. */
export const index = {
  /** Active locations of a location group. */
  activeLocation: (locationGroup: string, id: string) => ({ GSI1PK: `LOCGROUP#${locationGroup}`, GSI1SK: `LOCATION#${id}` }),
  activeLocationsOf: (locationGroup: string) => ({ GSI1PK: `LOCGROUP#${locationGroup}`, skPrefix: 'LOCATION#' }),
  /** The catalog: panels by name, biomarkers by id (zero-padded so the string order is numeric). */
  catalogPanel: (name: string, id: string) => ({ GSI1PK: 'CATALOG', GSI1SK: `PANEL#${name}#${id}` }),
  catalogBiomarker: (id: number) => ({ GSI1PK: 'CATALOG', GSI1SK: `BIOMARKER#${String(id).padStart(10, '0')}` }),
  catalogPanels: { GSI1PK: 'CATALOG', skPrefix: 'PANEL#' },
  catalogBiomarkers: { GSI1PK: 'CATALOG', skPrefix: 'BIOMARKER#' },
  /** API keys by their public key id, for the keys CLI (list, revoke) without a Scan. */
  apiKey: (keyId: string) => ({ GSI1PK: 'APIKEYS', GSI1SK: `APIKEY#${keyId}` }),
  apiKeys: { GSI1PK: 'APIKEYS', skPrefix: 'APIKEY#' },
  /** A profile's appointments by date (scheduled_at, or created_at for a home kit's), newest first. */
  appointmentOfProfile: (profileId: string, sortInstant: string, id: string) => ({
    GSI1PK: t(`PROFILE#${profileId}`),
    GSI1SK: `APPT#${sortInstant}#${id}`,
  }),
  appointmentsOfProfile: (profileId: string) => ({ GSI1PK: t(`PROFILE#${profileId}`), skPrefix: 'APPT#', baseKey: listedBy(keys.appointment) }),
  /** A profile's home kit orders, newest first. */
  homeKitOrderOfProfile: (profileId: string, createdAt: string, id: string) => ({ GSI1PK: t(`PROFILE#${profileId}`), GSI1SK: `KIT#${createdAt}#${id}` }),
  homeKitOrdersOfProfile: (profileId: string) => ({ GSI1PK: t(`PROFILE#${profileId}`), skPrefix: 'KIT#', baseKey: listedBy(keys.homeKitOrder) }),
  /** A location group's shipments, newest first (the list reads it descending). */
  shipmentOfLocationGroup: (locationGroup: string, createdAt: string, reference: string) => ({
    GSI1PK: t(`LOCGROUP#${locationGroup}`),
    GSI1SK: `SHIPMENT#${createdAt}#${reference}`,
  }),
  shipmentsOfLocationGroup: (locationGroup: string) => ({
    GSI1PK: t(`LOCGROUP#${locationGroup}`),
    skPrefix: 'SHIPMENT#',
    baseKey: listedBy(keys.shipment),
  }),
  /** The appointments a shipment carries (the link items of their partitions). */
  appointmentOfShipment: (reference: string, appointmentId: string) => ({ GSI1PK: t(`SHIPMENT#${reference}`), GSI1SK: `APPT#${appointmentId}` }),
  appointmentsOfShipment: (reference: string) => ({ GSI1PK: t(`SHIPMENT#${reference}`), skPrefix: 'APPT#' }),
  /** GSI2: outbox entries waiting to be published, oldest first. */
  pendingOutbox: (createdAt: string, eventId: string) => ({ GSI2PK: t(PENDING_OUTBOX), GSI2SK: `${createdAt}#${eventId}` }),
  /** A subscription of an API key, by creation. */
  webhookOfKey: (keyId: string, createdAt: string, id: string) => ({ GSI1PK: `KEYID#${keyId}#WEBHOOKS`, GSI1SK: `WEBHOOK#${createdAt}#${id}` }),
  webhooksOfKey: (keyId: string) => ({ GSI1PK: `KEYID#${keyId}#WEBHOOKS`, skPrefix: 'WEBHOOK#' }),
  /**
   * The event log of a tenant (a profile or location group), one partition per kind of resource the events
   * announce, so that a key reads only the partitions its scopes may receive; newest first by when they occurred.
   */
  eventOfTenant: (tenant: string, resourceKind: string, occurredAt: string, eventId: string) => ({
    GSI1PK: t(`EVENTS#${tenant}#${resourceKind}`),
    GSI1SK: `${EVENT_LOG_SK_PREFIX}${occurredAt}#${eventId}`,
  }),
  eventsOfTenant: (tenant: string, resourceKind: string) => ({ GSI1PK: t(`EVENTS#${tenant}#${resourceKind}`) }),
  /** GSI2: a pending delivery, by when its next attempt is due (the retry sweep's Query). */
  dueDelivery: (dueAt: string, webhookId: string, deliveryId: string) => ({ GSI2PK: t(DUE_DELIVERIES), GSI2SK: `${dueAt}#${webhookId}#${deliveryId}` }),
  dueDeliveriesBefore: (instant: string) => ({ GSI2PK: t(DUE_DELIVERIES), GSI2SKBefore: instant }),
  /** Every outbox entry written before `instant`: the relay's Query. */
  pendingOutboxBefore: (instant: string) => ({ GSI2PK: t(PENDING_OUTBOX), GSI2SKBefore: instant }),
  /**
   * GSI2, on the appointment item: its critical results, reported at `reportedAt`, wait for a clinician.
   * Set by the ingest with the critical value, removed by the acknowledgement.
   */
  unacknowledgedCritical: (reportedAt: string, appointmentId: string) => ({
    GSI2PK: t(UNACKNOWLEDGED_CRITICAL),
    GSI2SK: `${reportedAt}#${appointmentId}`,
  }),
  unacknowledgedCriticalBefore: (instant: string) => ({ GSI2PK: t(UNACKNOWLEDGED_CRITICAL), GSI2SKBefore: instant }),
} as const;
