/**
 * Appointments: the APPT item plus its panel and biomarker links in one partition (APPT#<id>).
 * Every status change is one conditional write or one transaction: two racing requests never both win.
 *
 * Access patterns:
 * - an appointment with its links ............ Query          PK=APPT#<id>
 * - several appointments (pickup batch) ...... BatchGetItem   APPT#<id> / APPT
 * - a profile's appointments, newest first ... Query          GSI1 PROFILE#<id> / APPT#<instant>#<id>, descending
 * - create ................................... TransactWrite  ConditionCheck active location + Put
 * - reschedule / relocate .................... TransactWrite  Update (status = scheduled) [+ ConditionCheck location]
 * - attach panels / biomarkers ............... TransactWrite  ConditionCheck (status = scheduled) + Update per link
 * - confirm the draw ......................... TransactWrite  Update (status = scheduled) + Put BARCODE# + Put OUTBOX#
 * - cancel ................................... UpdateItem     (status = scheduled)
 * - pickup ................................... TransactWrite  Update per appointment (status = blood_drawn)
 *                                              [+ ConditionCheck shipment + Put SHIPMENT#<ref> link per appointment]
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type AppointmentStatus, assertCancellable, assertEditable, decideConfirm } from '../domain/appointment';
import type { ValueOperator } from '../domain/results';
import { linkedShipmentId } from '../domain/shipment';
import { outboxPut } from '../events/outbox';
import type { Variant } from '../events/lab-results-reported';
import type { DomainEvent } from '../events/publisher';
import { Conflict, NotFound } from '../http/errors';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import { index, keys, partitions } from './keys';
import type { ReferenceRange } from './catalog';
import { type Page, type PageRequest, pageByIndexPrefix } from './pages';
import { batchGetAll, queryAll, withoutKeys } from './query';
import { LOCATION_NOT_FOUND } from './locations';
import { TransactionCancelled, transactWrite } from './transactions';
import { setAttributes } from './update-expression';

export interface AppointmentRecord {
  id: string;
  profile_id: string;
  /** The profile's group, copied here: the access context of an appointment is its profile's group. */
  profile_group_slug: string;
  location_id: string | null;
  scheduled_at: string | null;
  status: AppointmentStatus;
  test_method: 'practitioner' | 'home' | null;
  cancellation_reason: string | null;
  barcode: string | null;
  blood_drawn_at: string | null;
  picked_up_at: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface PanelLink {
  panel_id: string;
  added_at: string;
}
export interface BiomarkerLink {
  biomarker_id: number;
  added_at: string;
}
export interface ShipmentLink {
  id: string;
  added_at: string;
}

export interface ClinicalResultRecord {
  biomarker_id: number;
  value: number;
  value_operator: ValueOperator;
  unit_id: number | null;
  unit: string | null;
  reference_range_lab: ReferenceRange | null;
  tested_at: string;
  comment: string | null;
  reported_at: string;
}

export interface GeneticResultRecord {
  biomarker_id: number;
  gene: string;
  genotype: string;
  clinical_significance: string;
  risk_description: string;
  tested_at: string;
  comment: string | null;
  variants: Variant[];
  reported_at: string;
}

export interface DocumentLink {
  id: string;
  file_name: string;
  added_at: string;
}

export interface AppointmentAggregate {
  appointment: AppointmentRecord;
  panels: PanelLink[];
  biomarkers: BiomarkerLink[];
  shipments: ShipmentLink[];
  clinicalResults: ClinicalResultRecord[];
  geneticResults: GeneticResultRecord[];
  documents: DocumentLink[];
}

export const APPOINTMENT_NOT_FOUND = 'Appointment not found';

/** Oldest link first; links added together are ordered by id, so answers are stable. */
const byAddedAt =
  <T extends { added_at: string }>(id: (link: T) => string | number) =>
  (a: T, b: T) => {
    const [idA, idB] = [id(a), id(b)];
    return a.added_at.localeCompare(b.added_at) || (typeof idA === 'number' && typeof idB === 'number' ? idA - idB : String(idA).localeCompare(String(idB)));
  };

function listingKeys(appointment: AppointmentRecord) {
  return index.appointmentOfProfile(
    appointment.profile_id,
    appointment.scheduled_at ?? appointment.created_at,
    appointment.id,
  );
}

/** The appointment and its links in one Query; undefined when there is no such appointment. */
export async function getAppointmentAggregate(id: string): Promise<AppointmentAggregate | undefined> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk',
    ConsistentRead: true,
    ExpressionAttributeValues: { ':pk': partitions.appointment(id) },
  });
  const aggregate: Partial<AppointmentAggregate> & Omit<AppointmentAggregate, 'appointment'> = {
    panels: [],
    biomarkers: [],
    shipments: [],
    clinicalResults: [],
    geneticResults: [],
    documents: [],
  };
  for (const item of items) {
    const sk = item.SK as string;
    if (sk === 'APPT') aggregate.appointment = withoutKeys<AppointmentRecord>(item);
    else if (sk.startsWith('PANEL#')) aggregate.panels.push(withoutKeys<PanelLink>(item));
    else if (sk.startsWith('BIOMARKER#')) aggregate.biomarkers.push(withoutKeys<BiomarkerLink>(item));
    else if (sk.startsWith('SHIPMENT#')) aggregate.shipments.push(withoutKeys<ShipmentLink>(item));
    else if (sk.startsWith('RESULT#')) aggregate.clinicalResults.push(withoutKeys<ClinicalResultRecord>(item));
    else if (sk.startsWith('GENETIC#')) aggregate.geneticResults.push(withoutKeys<GeneticResultRecord>(item));
    else if (sk.startsWith('DOC#')) aggregate.documents.push(withoutKeys<DocumentLink>(item));
  }
  if (!aggregate.appointment) return undefined;
  aggregate.panels.sort(byAddedAt((link) => link.panel_id));
  aggregate.biomarkers.sort(byAddedAt((link) => link.biomarker_id));
  aggregate.shipments.sort(byAddedAt((link) => link.id));
  aggregate.documents.sort(byAddedAt((link) => link.id));
  aggregate.geneticResults.sort((a, b) => a.biomarker_id - b.biomarker_id);
  return aggregate as AppointmentAggregate;
}

export async function getAppointmentAggregateOrThrow(id: string): Promise<AppointmentAggregate> {
  const aggregate = await getAppointmentAggregate(id);
  if (!aggregate) throw new NotFound(APPOINTMENT_NOT_FOUND);
  return aggregate;
}

export async function getAppointments(ids: string[]): Promise<AppointmentRecord[]> {
  const items = await batchGetAll(ids.map((id) => keys.appointment(id)));
  return items.map((item) => withoutKeys<AppointmentRecord>(item));
}

export function listAppointmentsOfProfile(profileId: string, page: PageRequest): Promise<Page<AppointmentRecord>> {
  return pageByIndexPrefix<AppointmentRecord>([index.appointmentsOfProfile(profileId)], page);
}

/**
 * A conditional write on a scheduled appointment failed: a racing request changed it between our read
 * and our write. Read it again and answer the 409 its new status calls for.
 */
async function explainLostRace(appointmentId: string): Promise<never> {
  const { appointment } = await getAppointmentAggregateOrThrow(appointmentId);
  assertEditable(appointment.status);
  throw new Conflict('The appointment changed while this request was processed; retry it');
}

const locationIsActive = (locationId: string) => ({
  ConditionCheck: {
    TableName: tableName,
    Key: keys.location(locationId),
    ConditionExpression: 'active = :true',
    ExpressionAttributeValues: { ':true': true },
  },
});

const isScheduled = { ConditionExpression: '#status = :scheduled', names: { '#status': 'status' }, values: { ':scheduled': 'scheduled' } };

/** Item 0 of the transaction: the location is still active (it may be deactivated meanwhile). */
export async function createAppointment(appointment: AppointmentRecord): Promise<void> {
  await transactWriteOr(() => {
    throw new NotFound(LOCATION_NOT_FOUND);
  }, [
    locationIsActive(appointment.location_id as string),
    ...appointmentItems(appointment, { panels: [], biomarkers: [] }),
  ]);
}

/** The Puts of a new appointment and its test links (a home kit's appointment is born with its tests). */
export function appointmentItems(appointment: AppointmentRecord, links: { panels: PanelLink[]; biomarkers: BiomarkerLink[] }) {
  return [
    {
      Put: {
        TableName: tableName,
        Item: { ...keys.appointment(appointment.id), ...listingKeys(appointment), ...appointment },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    ...links.panels.map((link) => ({ Put: { TableName: tableName, Item: { ...keys.appointmentPanel(appointment.id, link.panel_id), ...link } } })),
    ...links.biomarkers.map((link) => ({
      Put: { TableName: tableName, Item: { ...keys.appointmentBiomarker(appointment.id, link.biomarker_id), ...link } },
    })),
  ];
}

/** Runs the transaction; when a precondition failed, `explain` turns that into the error to answer. */
async function transactWriteOr(explain: (error: TransactionCancelled) => Promise<never> | never, items: Parameters<typeof transactWrite>[0]) {
  try {
    await transactWrite(items);
  } catch (error) {
    if (error instanceof TransactionCancelled) await explain(error);
    throw error;
  }
}

export interface SchedulePatch {
  scheduled_at?: string;
  location_id?: string;
}

/** Item 0: the appointment is still scheduled. Item 1 (when relocating): the new location is active. */
export async function changeSchedule(appointment: AppointmentRecord, patch: SchedulePatch, updatedAt: string): Promise<AppointmentRecord> {
  const next: AppointmentRecord = { ...appointment, ...patch, updated_at: updatedAt };
  // The list's sort key follows scheduled_at; a relocation alone leaves it (and a racing reschedule) alone.
  const update = setAttributes({ ...patch, updated_at: updatedAt, ...(patch.scheduled_at ? { GSI1SK: listingKeys(next).GSI1SK } : {}) });
  const explain = (error: TransactionCancelled) => {
    if (error.failedAt(1)) throw new NotFound(LOCATION_NOT_FOUND);
    return explainLostRace(appointment.id);
  };
  await transactWriteOr(explain, [
    {
      Update: {
        TableName: tableName,
        Key: keys.appointment(appointment.id),
        ...update,
        ConditionExpression: isScheduled.ConditionExpression,
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...isScheduled.names },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...isScheduled.values },
      },
    },
    ...(patch.location_id ? [locationIsActive(patch.location_id)] : []),
  ]);
  return next;
}

export interface Attachments {
  panelIds?: string[];
  biomarkerIds?: number[];
}

/** Item 0: the appointment is still scheduled. Re-attaching keeps the first added_at (if_not_exists). */
export async function attachTests(appointmentId: string, attachments: Attachments, now: string): Promise<void> {
  const link = (key: { PK: string; SK: string }, idName: string, id: string | number) => ({
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: 'SET #id = :id, added_at = if_not_exists(added_at, :now)',
      ExpressionAttributeNames: { '#id': idName },
      ExpressionAttributeValues: { ':id': id, ':now': now },
    },
  });
  await transactWriteOr(() => explainLostRace(appointmentId), [
    {
      ConditionCheck: {
        TableName: tableName,
        Key: keys.appointment(appointmentId),
        ConditionExpression: isScheduled.ConditionExpression,
        ExpressionAttributeNames: isScheduled.names,
        ExpressionAttributeValues: isScheduled.values,
      },
    },
    ...(attachments.panelIds ?? []).map((id) => link(keys.appointmentPanel(appointmentId, id), 'panel_id', id)),
    ...(attachments.biomarkerIds ?? []).map((id) => link(keys.appointmentBiomarker(appointmentId, id), 'biomarker_id', id)),
  ]);
}

/**
 * Item 0: the appointment is still scheduled. Item 1: the barcode is not used by any other sample.
 * Item 2: the LabOrderRequested outbox entry — committed with the state change or not at all.
 * A lost race is read back: the winner confirmed with the same barcode → 'already-recorded' (a safe
 * retry, no second event); anything else → 409.
 */
export async function recordBloodDraw(
  appointmentId: string,
  barcode: string,
  event: DomainEvent,
): Promise<'recorded' | 'already-recorded'> {
  const at = event.occurred_at;
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: keys.appointment(appointmentId),
          UpdateExpression: 'SET #status = :drawn, barcode = :barcode, blood_drawn_at = :at, updated_at = :at',
          ConditionExpression: isScheduled.ConditionExpression,
          ExpressionAttributeNames: isScheduled.names,
          ExpressionAttributeValues: { ...isScheduled.values, ':drawn': 'blood_drawn', ':barcode': barcode, ':at': at },
        },
      },
      {
        Put: {
          TableName: tableName,
          Item: { ...keys.barcode(barcode), barcode, appointment_id: appointmentId, created_at: at },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      outboxPut(event, at),
    ]);
    return 'recorded';
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    if (error.failedAt(0)) {
      const { appointment } = await getAppointmentAggregateOrThrow(appointmentId);
      if (decideConfirm(appointment.status, appointment.barcode, barcode) === 'already-confirmed') return 'already-recorded';
    }
    if (error.failedAt(1)) throw new Conflict('This barcode is already used by another sample');
    throw new Conflict('The appointment changed while this request was processed; retry it');
  }
}

/** Cancels a scheduled appointment; a racing request that changed it first makes this a 409. */
export async function cancelAppointment(appointmentId: string, reason: string, at: string): Promise<AppointmentRecord> {
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.appointment(appointmentId),
        UpdateExpression: 'SET #status = :cancelled, cancellation_reason = :reason, updated_at = :at',
        ConditionExpression: isScheduled.ConditionExpression,
        ExpressionAttributeNames: isScheduled.names,
        ExpressionAttributeValues: { ...isScheduled.values, ':cancelled': 'cancelled', ':reason': reason, ':at': at },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return withoutKeys<AppointmentRecord>(Attributes ?? {});
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The item comes back raw (AttributeValue) on a failed condition.
    const status = (error.Item?.status as { S?: AppointmentStatus } | undefined)?.S;
    if (status) assertCancellable(status);
    throw new Conflict('The appointment changed while this request was processed; retry it');
  }
}

/**
 * Moves every listed appointment from blood_drawn to in_transit, all or none (one condition per item).
 * With a shipment: it must still accept samples (item 0), and each appointment gets its link, which
 * GSI1 lists under the shipment.
 */
export async function recordPickup(appointments: AppointmentRecord[], at: string, shipmentReference?: string): Promise<void> {
  const shipmentItems = shipmentReference
    ? [
        {
          ConditionCheck: {
            TableName: tableName,
            Key: keys.shipment(shipmentReference),
            ConditionExpression: '#status IN (:pending, :shipped, :transit)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':pending': 'pending', ':shipped': 'shipped', ':transit': 'in_transit' },
          },
        },
        ...appointments.map((appointment) => ({
          Put: {
            TableName: tableName,
            Item: {
              ...keys.appointmentShipment(appointment.id, shipmentReference),
              ...index.appointmentOfShipment(shipmentReference, appointment.id),
              id: linkedShipmentId(shipmentReference),
              appointment_id: appointment.id,
              // The shipment lists its appointments only to keys that may see their profiles.
              profile_group_slug: appointment.profile_group_slug,
              added_at: at,
            },
          },
        })),
      ]
    : [];
  await transactWrite([
    ...shipmentItems,
    ...appointments.map(({ id }) => ({
      Update: {
        TableName: tableName,
        Key: keys.appointment(id),
        UpdateExpression: 'SET #status = :transit, picked_up_at = :at, updated_at = :at',
        ConditionExpression: '#status = :drawn',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':transit': 'in_transit', ':drawn': 'blood_drawn', ':at': at },
      },
    })),
  ]);
}
