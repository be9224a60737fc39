/**
 * Writing appointments, apart from status changes (those go through shared/store/transitions.ts; the
 * use cases in shared/usecases/ assemble them with the items below). Every write is one conditional
 * write or one transaction: two racing requests never both win.
 *
 * Access patterns:
 * - reschedule / relocate .................... TransactWrite  Update (scheduled at the slot read) + seats, location, person
 *                                                               + outbox (AppointmentRescheduled, when it moves)
 * - attach panels / biomarkers ............... TransactWrite  Update tests_version (status = scheduled) + Update per link
 * - (with a transition) claim a barcode ...... Put BARCODE#<barcode> (not yet claimed)
 * - (with a transition) claim a requisition .. Put REQUISITION#<number> (not yet claimed)
 * - (with a transition) hand to a shipment ... ConditionCheck shipment + Put SHIPMENT#<ref> link per appointment
 */
import { assertEditable } from '../../domain/appointment';
import type { Requisition } from '../../domain/requisition';
import { linkedShipmentId } from '../../domain/shipment';
import { Conflict } from '../../errors';
import type { DomainEvent } from '../../events/publisher';
import { tableName } from '../client';
import * as keys from '../keys/items';
import * as index from '../keys/index-entries';
import { outboxPut } from '../outbox';
import { type NamedItem, named, TransactionCancelled, transactWrite } from '../transactions';
import type { Condition } from '../transitions';
import { setAttributes } from '../update-expression';
import { getAppointmentAggregateOrThrow } from './reads';
import { type AppointmentRecord, type BiomarkerLink, heldSeatOf, listingKeys, type PanelLink } from './records';
import { releaseSeat } from '../seats';

export const CHANGED_MEANWHILE = 'The appointment changed while this request was processed; retry it';

/**
 * A conditional write on a scheduled appointment failed: a racing request changed it between our read
 * and our write. Read it again and answer the conflict its new status calls for.
 */
export async function explainLostRace(appointmentId: string): Promise<never> {
  const { appointment } = await getAppointmentAggregateOrThrow(appointmentId);
  assertEditable(appointment.status);
  throw new Conflict(CHANGED_MEANWHILE);
}

const isScheduled = { ConditionExpression: '#status = :scheduled', names: { '#status': 'status' }, values: { ':scheduled': 'scheduled' } };

/**
 * A cancellation frees the appointment's seat in the same transaction (none to free for one booked before
 * seats existed). The cancellation must then be conditional on the slot as read (slotAsRead).
 */
export const releaseHeldSeat = (appointment: AppointmentRecord): NamedItem[] => {
  const seat = heldSeatOf(appointment);
  return seat ? [releaseSeat(seat, appointment.id)] : [];
};

/**
 * The appointment is still at the time and location read, holding a seat or not as read (`npm run data --
 * seats` may seat it meanwhile): the seat a write frees is exactly the one it holds.
 */
export const slotAsRead = (appointment: AppointmentRecord): Condition => ({
  expression: `scheduled_at = :readScheduledAt AND location_id = :readLocation AND ${seatAsRead(appointment)}`,
  values: { ':readScheduledAt': appointment.scheduled_at, ':readLocation': appointment.location_id },
});

/** Whether the appointment holds a seat, as read (holds_seat is only ever true). */
export const seatAsRead = (appointment: AppointmentRecord) => (appointment.holds_seat ? 'attribute_exists(holds_seat)' : 'attribute_not_exists(holds_seat)');

/** An Update of fields besides the status (a lab report's critical results): the appointment must exist. */
export const appointmentUpdate = (appointmentId: string, fields: Partial<AppointmentRecord>): NamedItem =>
  named('appointment', {
    Update: { TableName: tableName, Key: keys.appointment(appointmentId), ...setAttributes(fields), ConditionExpression: 'attribute_exists(PK)' },
  });

/** The Puts of a new appointment's test links (a home kit's appointment is born with its tests). */
export function testLinkPuts(appointmentId: string, links: { panels: PanelLink[]; biomarkers: BiomarkerLink[] }): NamedItem[] {
  return [
    ...links.panels.map((link) => named('link', { Put: { TableName: tableName, Item: { ...keys.appointmentPanel(appointmentId, link.panel_id), ...link } } })),
    ...links.biomarkers.map((link) =>
      named('link', { Put: { TableName: tableName, Item: { ...keys.appointmentBiomarker(appointmentId, link.biomarker_id), ...link } } }),
    ),
  ];
}

/** Claims a barcode for a sample: one item per barcode, so no two samples (drawn or home kit) share one. */
export const barcodeClaim = (barcode: string, sample: { appointment_id: string; home_kit_order_id?: string }, at: string): NamedItem =>
  named('barcode', {
    Put: {
      TableName: tableName,
      Item: { ...keys.barcode(barcode), barcode, ...sample, created_at: at },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  });

/** Claims a requisition number for a sample: 60 random bits never met twice, and this makes it certain. */
export const requisitionClaim = (requisition: Requisition, appointmentId: string): NamedItem =>
  named('requisition', {
    Put: {
      TableName: tableName,
      Item: { ...keys.requisition(requisition.number), number: requisition.number, appointment_id: appointmentId, created_at: requisition.created_at },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  });

export const BARCODE_USED = 'This barcode is already used by another sample';

/** Runs the transaction; when a precondition failed, `explain` turns that into the error to throw. */
async function transactWriteOr(explain: (error: TransactionCancelled) => Promise<never> | never, items: NamedItem[]) {
  try {
    await transactWrite(items);
  } catch (error) {
    if (error instanceof TransactionCancelled) await explain(error);
    throw error;
  }
}

export interface SchedulePatch {
  scheduled_at: string;
  ends_at: string;
  location_id: string;
}

/**
 * Moves the appointment to another slot, with the booking's items (seats, location, person) and the
 * outbox entry of `events` (AppointmentRescheduled; none when nothing moves) in the same transaction, on
 * the condition that it is still scheduled at the slot read. A failed condition is thrown as
 * TransactionCancelled for the caller to decide again; then no event was written.
 */
export async function changeSchedule(
  appointment: AppointmentRecord,
  patch: SchedulePatch,
  booking: NamedItem[],
  updatedAt: string,
  events: DomainEvent[],
): Promise<AppointmentRecord> {
  // schedule_seq counts the moves (a PATCH that moves nothing has no event, and counts none): the SEQUENCE of
  // the patient's calendar entry (shared/usecases/patient-messages.ts).
  const seq = (appointment.schedule_seq ?? 0) + (events.length > 0 ? 1 : 0);
  const moved = { ...patch, holds_seat: true, updated_at: updatedAt, ...(seq > 0 ? { schedule_seq: seq } : {}) };
  const next: AppointmentRecord = { ...appointment, ...moved };
  // The list's sort key follows scheduled_at.
  const update = setAttributes({ ...moved, GSI1SK: listingKeys(next).GSI1SK });
  const asRead = slotAsRead(appointment);
  await transactWrite([
    named('appointment', {
      Update: {
        TableName: tableName,
        Key: keys.appointment(appointment.id),
        ...update,
        ConditionExpression: `${isScheduled.ConditionExpression} AND ${asRead.expression}`,
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...isScheduled.names },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...isScheduled.values, ...asRead.values },
      },
    }),
    ...booking,
    ...(events.length > 0 ? [outboxPut(events, updatedAt)] : []),
  ]);
  return next;
}

export interface Attachments {
  panelIds?: string[];
  biomarkerIds?: number[];
}

/**
 * A transition decided on the appointment's tests and location as read (confirm: its lab order lists
 * them; cancel: its answer shows them) re-checks both at its write: no attach (tests_version) and no
 * relocation landed meanwhile.
 */
export const testsAndLocationAsRead = (appointment: AppointmentRecord): Condition => ({
  expression:
    appointment.tests_version === undefined
      ? 'attribute_not_exists(tests_version) AND location_id = :readLocation'
      : 'tests_version = :readTests AND location_id = :readLocation',
  values: { ':readLocation': appointment.location_id, ...(appointment.tests_version === undefined ? {} : { ':readTests': appointment.tests_version }) },
});

/** The appointment must still be scheduled. Re-attaching keeps the first added_at (if_not_exists). */
export async function attachTests(appointmentId: string, attachments: Attachments, now: string): Promise<void> {
  const link = (key: { PK: string; SK: string }, idName: string, id: string | number) =>
    named('link', {
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #id = :id, added_at = if_not_exists(added_at, :now)',
        ExpressionAttributeNames: { '#id': idName },
        ExpressionAttributeValues: { ':id': id, ':now': now },
      },
    });
  await transactWriteOr(
    () => explainLostRace(appointmentId),
    [
      named('appointment', {
        // An Update, not a ConditionCheck: the new tests_version makes a confirm decided on the tests before
        // this attach fail its condition (testsAndLocationAsRead) instead of ordering the lab tests without ours.
        Update: {
          TableName: tableName,
          Key: keys.appointment(appointmentId),
          UpdateExpression: 'ADD tests_version :one',
          ConditionExpression: isScheduled.ConditionExpression,
          ExpressionAttributeNames: isScheduled.names,
          ExpressionAttributeValues: { ...isScheduled.values, ':one': 1 },
        },
      }),
      ...(attachments.panelIds ?? []).map((id) => link(keys.appointmentPanel(appointmentId, id), 'panel_id', id)),
      ...(attachments.biomarkerIds ?? []).map((id) => link(keys.appointmentBiomarker(appointmentId, id), 'biomarker_id', id)),
    ],
  );
}

/** The shipment still accepts samples (it may be delivered, faulted or cancelled meanwhile). */
export const shipmentAcceptsSamples = (reference: string): NamedItem =>
  named('shipment', {
    ConditionCheck: {
      TableName: tableName,
      Key: keys.shipment(reference),
      ConditionExpression: '#status IN (:pending, :shipped, :transit)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ':shipped': 'shipped', ':transit': 'in_transit' },
    },
  });

/** An appointment handed to a shipment at pickup: in its partition, listed by GSI1 under the shipment. */
export const shipmentLinkPut = (appointment: AppointmentRecord, reference: string, at: string): NamedItem =>
  named('link', {
    Put: {
      TableName: tableName,
      Item: {
        ...keys.appointmentShipment(appointment.id, reference),
        ...index.appointmentOfShipment(reference, appointment.id),
        id: linkedShipmentId(reference),
        appointment_id: appointment.id,
        // The shipment lists its appointments only to keys that may see their profiles.
        profile_group_slug: appointment.profile_group_slug,
        added_at: at,
      },
    },
  });
