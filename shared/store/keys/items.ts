/**
 * The base-table key of each kind of item of the single table (shared/store/keys.ts says how the keys are
 * laid out). Imported as a namespace, `import * as keys from './keys/items'`, so that a bundle keeps only the
 * builders its function calls.
 */
import { inCurrentRealm as t, withoutRealm } from '../../sandbox';
import {
  API_KEY_PARTITION_PREFIX,
  appointmentSk,
  HISTORY_ENTRY_PREFIX,
  type ItemKey,
  MESSAGE_SK_PREFIX,
  PATIENT_LINK_RATE_PARTITION_PREFIX,
  PROFILE_LINK_PREFIX,
  type ProfileLinkKind,
  SEATS_PARTITION_PREFIX,
  WEBHOOK_DELIVERY_PREFIX,
} from '../keys';

const HISTORY_SEQ_DIGITS = 6;

/** Which reference data records the data CLI manages (infra/data/apply.ts): the ones it may deactivate. */
export const referenceData = { PK: 'REFERENCE_DATA', SK: 'MANIFEST' } as ItemKey;
/** A scheduled job's lease (shared/store/leases.ts): which run may work now. */
export const lease = (name: string): ItemKey => ({ PK: `LEASE#${name}`, SK: 'LEASE' });
/** The record of one Idempotency-Key (shared/store/idempotency.ts), in a partition of its own; the key hash already holds the API key. */
export const idempotencyRecord = (keyHash: string): ItemKey => ({ PK: `IDEMPOTENCY#${keyHash}`, SK: 'IDEMPOTENCY' });
export const profile = (id: string): ItemKey => ({ PK: t(`PROFILE#${id}`), SK: 'PROFILE' });
export const profileGroup = (slug: string): ItemKey => ({ PK: `GROUP#${slug}`, SK: 'GROUP' });
/**
 * "This appointment or kit order was made for this person", in the profile's own partition: erasure
 * reads these consistently, where GSI1 may not show yet a booking made a moment before.
 */
export const profileLink = (profileId: string, kind: ProfileLinkKind, id: string): ItemKey => ({
  PK: t(`PROFILE#${profileId}`),
  SK: `${PROFILE_LINK_PREFIX}${kind}#${id}`,
});
export const location = (id: string): ItemKey => ({ PK: `LOCATION#${id}`, SK: 'LOCATION' });
/**
 * The seats taken in one slot of a location (shared/store/seats.ts): a partition per location, sorted by
 * the slot's start (a UTC instant, fixed width), so a date range's bookings are one Query.
 */
export const seats = (locationId: string, slotStart: string): ItemKey => ({ PK: t(`${SEATS_PARTITION_PREFIX}${locationId}`), SK: slotStart });
export const panel = (id: string): ItemKey => ({ PK: `PANEL#${id}`, SK: 'PANEL' });
export const biomarker = (id: number): ItemKey => ({ PK: `BIOMARKER#${id}`, SK: 'BIOMARKER' });
export const apiKey = (sha256: string): ItemKey => ({ PK: `${API_KEY_PARTITION_PREFIX}${sha256}`, SK: 'APIKEY' });
/**
 * A key id's own item: whether it is revoked and the hashes of its secrets. Read consistently, unlike
 * GSI1, it is what rotate and revoke serialise on. Outside APIKEY#, so the reading functions, which may
 * update a secret's day of last use, cannot touch it.
 */
export const apiKeyId = (keyId: string): ItemKey => ({ PK: `KEYID#${keyId}`, SK: 'APIKEY' });
export const appointment = (id: string): ItemKey => ({ PK: t(`APPT#${id}`), SK: appointmentSk.appointment });
/** Panel and biomarker links live in the appointment's partition: one Query reads the aggregate. */
export const appointmentPanel = (id: string, panelId: string): ItemKey => ({ PK: t(`APPT#${id}`), SK: `${appointmentSk.panel}${panelId}` });
export const appointmentBiomarker = (id: string, biomarkerId: number): ItemKey => ({
  PK: t(`APPT#${id}`),
  SK: `${appointmentSk.biomarker}${biomarkerId}`,
});
/** One item per barcode: a barcode identifies one sample, whether drawn at a location or at home. */
export const barcode = (barcode: string): ItemKey => ({ PK: t(`BARCODE#${barcode}`), SK: 'BARCODE' });
/** One item per requisition number: the claim that makes each unique across the service (domain/requisition.ts). */
export const requisition = (number: string): ItemKey => ({ PK: t(`REQUISITION#${number}`), SK: 'REQUISITION' });
export const outbox = (eventId: string): ItemKey => ({ PK: t(`OUTBOX#${eventId}`), SK: 'OUTBOX' });
/** Results and report links of an appointment, in its partition. */
export const clinicalResult = (appointmentId: string, biomarkerId: number): ItemKey => ({
  PK: t(`APPT#${appointmentId}`),
  SK: `${appointmentSk.clinicalResult}${biomarkerId}`,
});
export const geneticResult = (appointmentId: string, biomarkerId: number): ItemKey => ({
  PK: t(`APPT#${appointmentId}`),
  SK: `${appointmentSk.geneticResult}${biomarkerId}`,
});
/** A test the lab could not perform on the appointment's specimen (issue #29), in its partition. */
export const rejectedTest = (appointmentId: string, biomarkerId: number): ItemKey => ({
  PK: t(`APPT#${appointmentId}`),
  SK: `${appointmentSk.rejectedTest}${biomarkerId}`,
});
export const appointmentDocument = (appointmentId: string, documentId: string): ItemKey => ({
  PK: t(`APPT#${appointmentId}`),
  SK: `${appointmentSk.document}${documentId}`,
});
/** A document on its own: its S3 key and the profile that owns it, for GET /documents/{id}. */
export const document = (id: string): ItemKey => ({ PK: t(`DOC#${id}`), SK: 'DOC' });
/** A lab report already stored: the same event_id twice stores once. */
export const ingestedReport = (eventId: string): ItemKey => ({ PK: t(`INGESTED#${eventId}`), SK: 'INGESTED' });
export const homeKitOrder = (id: string): ItemKey => ({ PK: t(`KIT#${id}`), SK: 'KIT' });
export const shipment = (reference: string): ItemKey => ({ PK: t(`SHIPMENT#${reference}`), SK: 'SHIPMENT' });
/** An appointment handed to a shipment at pickup, in the appointment's partition. */
export const appointmentShipment = (appointmentId: string, reference: string): ItemKey => ({
  PK: t(`APPT#${appointmentId}`),
  SK: `${appointmentSk.shipment}${reference}`,
});
/**
 * The n-th status history entry of a resource (appointment, kit order, shipment), in a partition of its
 * own: the history is one Query, and reading the resource never reads its history. n is zero-padded so
 * that the string order is the order of the changes, whatever clocks said.
 */
export const historyEntry = (resource: ItemKey, n: number): ItemKey => ({
  PK: t(`HISTORY#${withoutRealm(resource.PK)}`),
  SK: `${HISTORY_ENTRY_PREFIX}${String(n).padStart(HISTORY_SEQ_DIGITS, '0')}`,
});
/** A webhook subscription; its deliveries live in its partition (the delivery log is one Query). */
export const webhook = (id: string): ItemKey => ({ PK: t(`WEBHOOK#${id}`), SK: 'WEBHOOK' });
export const webhookDelivery = (webhookId: string, deliveryId: string): ItemKey => ({
  PK: t(`WEBHOOK#${webhookId}`),
  SK: `${WEBHOOK_DELIVERY_PREFIX}${deliveryId}`,
});
/**
 * "This subscription wants this event type": one item per type in a partition of the type, so the
 * subscriptions an event goes to are one Query that reads only them.
 */
export const webhookRoute = (eventType: string, webhookId: string): ItemKey => ({ PK: t(`WEBHOOK_ROUTE#${eventType}`), SK: `WEBHOOK#${webhookId}` });
/** An event as the event log keeps it (shared/store/event-log.ts), for GET /events/{id}. */
export const eventLogEntry = (eventId: string): ItemKey => ({ PK: t(`EVENT#${eventId}`), SK: 'EVENT' });
/**
 * How many subscriptions an API key has: a conditional counter keeps it at most 10 under concurrency. In
 * the realm, so that a sandbox key's count expires with its subscriptions.
 */
export const webhookCount = (keyId: string): ItemKey => ({ PK: t(`KEYID#${keyId}`), SK: 'WEBHOOK_COUNT' });
/**
 * A lab report whose barcode matched no drawn order (issue #51), kept for matching by hand: an item of its
 * own, listed through GSI1 while it waits (index.waitingUnmatchedResult).
 */
export const unmatchedResult = (id: string): ItemKey => ({ PK: t(`UNMATCHED#${id}`), SK: 'UNMATCHED' });
/**
 * A message to a person (issue #52, shared/store/messages.ts), in a partition of the profile's own (never the
 * profile's: reading a profile never pages through them), newest first by its time-ordered id.
 */
export const message = (profileId: string, messageId: string): ItemKey => ({ PK: t(`MESSAGES#${profileId}`), SK: `${MESSAGE_SK_PREFIX}${messageId}` });
/**
 * An unsubscribe link's token, by its SHA-256 only (the token is never stored): which profile it unsubscribes.
 * Outside the realm prefix: the token alone must find it. Only live messages are sent, so every token is a
 * live profile's.
 */
export const unsubscribeToken = (tokenHash: string): ItemKey => ({ PK: `UNSUBSCRIBE#${tokenHash}`, SK: 'UNSUBSCRIBE' });
/**
 * A patient link's token (issue #53, shared/store/patient-links.ts), by its SHA-256 only: which appointment it
 * opens. Outside the realm, as the unsubscribe token: the token alone must find its appointment, live or
 * sandbox, so the item names the realm.
 */
export const patientLink = (tokenHash: string): ItemKey => ({ PK: `PATIENT_LINK#${tokenHash}`, SK: 'PATIENT_LINK' });
/** The requests one patient link made in one minute (a UTC minute, `2026-12-01T09:05`): its rate limit's counter. */
export const patientLinkRate = (tokenHash: string, minute: string): ItemKey => ({
  PK: `${PATIENT_LINK_RATE_PARTITION_PREFIX}${tokenHash}`,
  SK: `MINUTE#${minute}`,
});
/**
 * The changes (reschedule, cancel) made to one appointment through its patient links on one UTC day
 * (`2026-12-01`): the changes' daily limit's counter. In the appointment's realm.
 */
export const patientLinkChanges = (appointmentId: string, day: string): ItemKey => ({ PK: t(`PATIENT_LINK_CHANGES#${appointmentId}`), SK: `DAY#${day}` });
/** An email address that bounced or complained (issue #52), by the SHA-256 of the address: no address in a key. */
export const emailAddress = (addressHash: string): ItemKey => ({ PK: `EMAIL#${addressHash}`, SK: 'EMAIL' });
/** Which message SES's message id is: what a bounce or complaint names. */
export const sentEmail = (sesMessageId: string): ItemKey => ({ PK: `SES#${sesMessageId}`, SK: 'SES' });
/** An appointment's reminder, due at a time (GSI2, index.dueReminder) until it is sent or dropped. */
export const reminder = (appointmentId: string): ItemKey => ({ PK: t(`REMINDER#${appointmentId}`), SK: 'REMINDER' });
