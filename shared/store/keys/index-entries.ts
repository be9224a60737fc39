/**
 * GSI1 entries, the lists: the partition names a list, the sort key orders it; and GSI2 entries, what a
 * scheduled function must find (shared/store/keys.ts says how the keys are laid out). Imported as a
 * namespace, `import * as index from './keys/index-entries'`, so that a bundle keeps only what its function uses.
 */
import { inCurrentRealm as t } from '../../sandbox';
import { EVENT_LOG_SK_PREFIX, type ItemKey } from '../keys';
import { appointment, homeKitOrder, shipment, unmatchedResult } from './items';

/** GSI2 partition of the outbox entries waiting to be published. */
const PENDING_OUTBOX = 'OUTBOX';
/** GSI2 partition of webhook deliveries waiting for their next attempt. */
const DUE_DELIVERIES = 'WEBHOOK_DUE';
/** GSI2 partition of appointments whose critical results no clinician acknowledged yet. */
const UNACKNOWLEDGED_CRITICAL = 'CRITICAL_UNACKNOWLEDGED';
/** GSI2 partition of the appointment reminders waiting for their time (issue #52). */
const DUE_REMINDERS = 'REMINDERS_DUE';

/**
 * The base-table key of an item that a paged list shows under GSI1SK `<WORD>#<instant>#<id>`: its id is
 * the last segment. A page cursor then only needs the GSI1SK of the last item answered.
 */
const listedBy = (key: (id: string) => ItemKey) => (gsi1sk: string) => key(gsi1sk.slice(gsi1sk.lastIndexOf('#') + 1));

/** Active locations of a location group. */
export const activeLocation = (locationGroup: string, id: string) => ({ GSI1PK: `LOCGROUP#${locationGroup}`, GSI1SK: `LOCATION#${id}` });
export const activeLocationsOf = (locationGroup: string) => ({ GSI1PK: `LOCGROUP#${locationGroup}`, skPrefix: 'LOCATION#' });
/** The catalog: panels by name, biomarkers by id (zero-padded so the string order is numeric). */
export const catalogPanel = (name: string, id: string) => ({ GSI1PK: 'CATALOG', GSI1SK: `PANEL#${name}#${id}` });
export const catalogBiomarker = (id: number) => ({ GSI1PK: 'CATALOG', GSI1SK: `BIOMARKER#${String(id).padStart(10, '0')}` });
export const catalogPanels = { GSI1PK: 'CATALOG', skPrefix: 'PANEL#' };
export const catalogBiomarkers = { GSI1PK: 'CATALOG', skPrefix: 'BIOMARKER#' };
/** API keys by their public key id, for the keys CLI (list, revoke) without a Scan. */
export const apiKey = (keyId: string) => ({ GSI1PK: 'APIKEYS', GSI1SK: `APIKEY#${keyId}` });
export const apiKeys = { GSI1PK: 'APIKEYS', skPrefix: 'APIKEY#' };
/** A profile's appointments by date (scheduled_at, or created_at for a home kit's), newest first. */
export const appointmentOfProfile = (profileId: string, sortInstant: string, id: string) => ({
  GSI1PK: t(`PROFILE#${profileId}`),
  GSI1SK: `APPT#${sortInstant}#${id}`,
});
export const appointmentsOfProfile = (profileId: string) => ({ GSI1PK: t(`PROFILE#${profileId}`), skPrefix: 'APPT#', baseKey: listedBy(appointment) });
/** A profile's home kit orders, newest first. */
export const homeKitOrderOfProfile = (profileId: string, createdAt: string, id: string) => ({
  GSI1PK: t(`PROFILE#${profileId}`),
  GSI1SK: `KIT#${createdAt}#${id}`,
});
export const homeKitOrdersOfProfile = (profileId: string) => ({ GSI1PK: t(`PROFILE#${profileId}`), skPrefix: 'KIT#', baseKey: listedBy(homeKitOrder) });
/** A location group's shipments, newest first (the list reads it descending). */
export const shipmentOfLocationGroup = (locationGroup: string, createdAt: string, reference: string) => ({
  GSI1PK: t(`LOCGROUP#${locationGroup}`),
  GSI1SK: `SHIPMENT#${createdAt}#${reference}`,
});
export const shipmentsOfLocationGroup = (locationGroup: string) => ({
  GSI1PK: t(`LOCGROUP#${locationGroup}`),
  skPrefix: 'SHIPMENT#',
  baseKey: listedBy(shipment),
});
/** The appointments a shipment carries (the link items of their partitions). */
export const appointmentOfShipment = (reference: string, appointmentId: string) => ({ GSI1PK: t(`SHIPMENT#${reference}`), GSI1SK: `APPT#${appointmentId}` });
export const appointmentsOfShipment = (reference: string) => ({ GSI1PK: t(`SHIPMENT#${reference}`), skPrefix: 'APPT#' });
/** GSI2: outbox entries waiting to be published, oldest first. */
export const pendingOutbox = (createdAt: string, eventId: string) => ({ GSI2PK: t(PENDING_OUTBOX), GSI2SK: `${createdAt}#${eventId}` });
/** A subscription of an API key, by creation. */
export const webhookOfKey = (keyId: string, createdAt: string, id: string) => ({ GSI1PK: `KEYID#${keyId}#WEBHOOKS`, GSI1SK: `WEBHOOK#${createdAt}#${id}` });
export const webhooksOfKey = (keyId: string) => ({ GSI1PK: `KEYID#${keyId}#WEBHOOKS`, skPrefix: 'WEBHOOK#' });
/**
 * The event log of a tenant (a profile or location group), one partition per kind of resource the events
 * announce, so that a key reads only the partitions its scopes may receive; newest first by when they occurred.
 */
export const eventOfTenant = (tenant: string, resourceKind: string, occurredAt: string, eventId: string) => ({
  GSI1PK: t(`EVENTS#${tenant}#${resourceKind}`),
  GSI1SK: `${EVENT_LOG_SK_PREFIX}${occurredAt}#${eventId}`,
});
export const eventsOfTenant = (tenant: string, resourceKind: string) => ({ GSI1PK: t(`EVENTS#${tenant}#${resourceKind}`) });
/** GSI2: a pending delivery, by when its next attempt is due (the retry sweep's Query). */
export const dueDelivery = (dueAt: string, webhookId: string, deliveryId: string) => ({
  GSI2PK: t(DUE_DELIVERIES),
  GSI2SK: `${dueAt}#${webhookId}#${deliveryId}`,
});
export const dueDeliveriesBefore = (instant: string) => ({ GSI2PK: t(DUE_DELIVERIES), GSI2SKBefore: instant });
/** Every outbox entry written before `instant`: the relay's Query. */
export const pendingOutboxBefore = (instant: string) => ({ GSI2PK: t(PENDING_OUTBOX), GSI2SKBefore: instant });
/**
 * GSI2, on the appointment item: its critical results, reported at `reportedAt`, wait for a clinician.
 * Set by the ingest with the critical value, removed by the acknowledgement.
 */
export const unacknowledgedCritical = (reportedAt: string, appointmentId: string) => ({
  GSI2PK: t(UNACKNOWLEDGED_CRITICAL),
  GSI2SK: `${reportedAt}#${appointmentId}`,
});
export const unacknowledgedCriticalBefore = (instant: string) => ({ GSI2PK: t(UNACKNOWLEDGED_CRITICAL), GSI2SKBefore: instant });
/**
 * The unmatched results waiting for someone to match or discard them (issue #51), by when they arrived: the
 * list reads it newest first, the check (functions/events/critical-results-check.ts) the ones older than its
 * bound. Matching or discarding takes the entry off, so the partition holds only what waits.
 */
const WAITING_UNMATCHED = 'UNMATCHED_RESULTS';
const UNMATCHED_SK_PREFIX = 'UNMATCHED#';
export const waitingUnmatchedResult = (receivedAt: string, id: string) => ({
  GSI1PK: t(WAITING_UNMATCHED),
  GSI1SK: `${UNMATCHED_SK_PREFIX}${receivedAt}#${id}`,
});
export const waitingUnmatchedResults = () => ({ GSI1PK: t(WAITING_UNMATCHED), skPrefix: UNMATCHED_SK_PREFIX, baseKey: listedBy(unmatchedResult) });
/** The waiting ones that arrived before `instant`: a GSI1SK range below it. */
export const waitingUnmatchedBefore = (instant: string) => ({
  GSI1PK: t(WAITING_UNMATCHED),
  from: UNMATCHED_SK_PREFIX,
  below: `${UNMATCHED_SK_PREFIX}${instant}`,
});
/** GSI2, on a reminder item: due at `dueAt` (the reminder sweep's Query). */
export const dueReminder = (dueAt: string, appointmentId: string) => ({ GSI2PK: t(DUE_REMINDERS), GSI2SK: `${dueAt}#${appointmentId}` });
export const dueRemindersBefore = (instant: string) => ({ GSI2PK: t(DUE_REMINDERS), GSI2SKBefore: instant });
