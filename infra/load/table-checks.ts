/**
 * The invariants of a load run that only the stored data can tell (issue #54), read where they live: the
 * table, through the store modules, and the local events file. Run inside the load's local server
 * (./server-process.ts), whose environment names them.
 *
 * - seats: at every slot the run touched, the seat item's appointment ids are exactly the appointments that
 *   hold a seat there (each read back), never more than the location's capacity, and every appointment still
 *   scheduled holds its seat;
 * - lab orders: exactly one LabOrderRequested (by event id: a relayed event logged twice is one event) per
 *   appointment whose draw was confirmed, and none for any other;
 * - the outbox: empty, in both realms (each entry listed read again: the index may lag);
 * - webhooks: which events each subscription should have received — the live events of its types since it was
 *   created that its key may see (the dispatcher's own rule, mayReceive) — for the load process to compare
 *   with what its receivers recorded.
 */
import { readFileSync } from 'node:fs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { accessOfKeyId } from '../../shared/auth/api-keys';
import { capacityOf } from '../../shared/domain/booking';
import { LAB_ORDER_REQUESTED } from '../../shared/events/lab-order-requested';
import { inRealm } from '../../shared/sandbox';
import { getAppointments } from '../../shared/store/appointments/reads';
import { type AppointmentRecord, heldSeatOf } from '../../shared/store/appointments/records';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { getLocation } from '../../shared/store/locations';
import { currentOutboxEntry, outboxEntriesBefore } from '../../shared/store/outbox';
import { fromPutEventsEntry } from '../../shared/webhooks/bus-event';
import { isWebhookEventType, mayReceive } from '../../shared/webhooks/event-types';

export interface TableCheckRequest {
  /** Every appointment the run created (a 201), and every slot it booked or moved one into. */
  appointmentIds: string[];
  touchedSlots: { locationId: string; start: string }[];
  /** The webhooks to reconcile, each with its key, its event types and the byte of the events file it began at. */
  webhooks: { webhookId: string; keyId: string; eventTypes: string[]; eventsFrom: number }[];
}

export interface TableCheckResult {
  violations: string[];
  slotsChecked: number;
  seatsHeld: number;
  confirmedDraws: number;
  labOrdersRequested: number;
  outboxLeft: number;
  /** Per webhook id: the event ids it should have received, each once. */
  expectedDeliveries: Record<string, string[]>;
}

const slotKey = (locationId: string, start: string) => `${locationId} ${start}`;

/** The seat an appointment holds now: a cancellation frees it in its transaction (holds_seat stays, as booked). */
const seatHeld = (appointment: AppointmentRecord) => (appointment.status === 'cancelled' ? undefined : heldSeatOf(appointment));

async function readAppointments(ids: string[]): Promise<Map<string, AppointmentRecord>> {
  const read = new Map<string, AppointmentRecord>();
  for (let i = 0; i < ids.length; i += 100) for (const appointment of await getAppointments(ids.slice(i, i + 100))) read.set(appointment.id, appointment);
  return read;
}

async function checkSeats(request: TableCheckRequest, appointments: Map<string, AppointmentRecord>, violations: string[]) {
  const holding = new Map<string, Set<string>>();
  const slots = new Map(request.touchedSlots.map((slot) => [slotKey(slot.locationId, slot.start), slot]));
  for (const appointment of appointments.values()) {
    const seat = seatHeld(appointment);
    if (appointment.status === 'scheduled' && !seat) violations.push(`seats: appointment ${appointment.id} is scheduled and holds no seat`);
    if (!seat) continue;
    const key = slotKey(seat.locationId, seat.start);
    slots.set(key, { locationId: seat.locationId, start: seat.start });
    holding.set(key, (holding.get(key) ?? new Set()).add(appointment.id));
  }
  const capacities = new Map<string, number>();
  let seatsHeld = 0;
  for (const [key, slot] of slots) {
    const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.seats(slot.locationId, slot.start), ConsistentRead: true }));
    const seated = new Set<string>((Item?.appointment_ids as Set<string> | undefined) ?? []);
    seatsHeld += seated.size;
    // An appointment this run did not create (the seed's) may hold a seat too: read it, and it must hold this one.
    const strangers = [...seated].filter((id) => !appointments.has(id));
    const others = await readAppointments(strangers);
    const expected = new Set([
      ...(holding.get(key) ?? []),
      ...[...others.values()]
        .filter((a) => {
          const held = seatHeld(a);
          return held && slotKey(held.locationId, held.start) === key;
        })
        .map((a) => a.id),
    ]);
    const missing = [...expected].filter((id) => !seated.has(id));
    const extra = [...seated].filter((id) => !expected.has(id));
    if (missing.length > 0 || extra.length > 0) {
      const statuses = [...missing, ...extra].map((id) => appointments.get(id)?.status ?? others.get(id)?.status ?? 'unknown');
      violations.push(
        `seats: slot ${key} holds ${seated.size} seats, ${expected.size} appointments hold one there (${missing.length} missing, ${extra.length} extra: ${statuses.join(', ')})`,
      );
    }
    if (!capacities.has(slot.locationId)) {
      const location = await getLocation(slot.locationId);
      capacities.set(slot.locationId, location ? capacityOf(location) : 0);
    }
    if (seated.size > capacities.get(slot.locationId)!)
      violations.push(`seats: slot ${key} holds ${seated.size} seats, capacity ${capacities.get(slot.locationId)}`);
  }
  return { slotsChecked: slots.size, seatsHeld };
}

interface LoggedEvent {
  offset: number;
  realm: string;
  id: string;
  type: string;
  detail: Record<string, unknown>;
}

function readEvents(file: string): LoggedEvent[] {
  const events: LoggedEvent[] = [];
  let offset = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const at = offset;
    offset += Buffer.byteLength(line) + 1;
    if (line.trim() === '') continue;
    const { event, realm } = fromPutEventsEntry(line);
    events.push({ offset: at, realm, id: event.event_id, type: event.detail_type, detail: event.detail });
  }
  return events;
}

function checkLabOrders(appointments: Map<string, AppointmentRecord>, events: LoggedEvent[], violations: string[]) {
  const orders = new Map<string, Set<string>>();
  for (const event of events) {
    if (event.type !== LAB_ORDER_REQUESTED || event.realm !== 'live') continue;
    const appointmentId = String(event.detail.appointment_id);
    orders.set(appointmentId, (orders.get(appointmentId) ?? new Set()).add(event.id));
  }
  let confirmedDraws = 0;
  for (const appointment of appointments.values()) {
    const confirmed = appointment.blood_drawn_at !== null;
    if (confirmed) confirmedDraws++;
    const count = orders.get(appointment.id)?.size ?? 0;
    if (count !== (confirmed ? 1 : 0)) violations.push(`lab orders: appointment ${appointment.id} (${appointment.status}) has ${count} LabOrderRequested`);
  }
  const labOrdersRequested = [...orders.entries()].filter(([id]) => appointments.has(id)).reduce((sum, [, ids]) => sum + ids.size, 0);
  return { confirmedDraws, labOrdersRequested };
}

async function outboxLeft(): Promise<number> {
  let left = 0;
  for (const realm of ['live', 'sandbox'] as const) {
    const listed = await inRealm(realm, () => outboxEntriesBefore('9999-12-31T00:00:00.000Z'));
    for (const entry of listed) if (await inRealm(realm, () => currentOutboxEntry(entry.key))) left++;
  }
  return left;
}

export async function tableChecks(request: TableCheckRequest): Promise<TableCheckResult> {
  const violations: string[] = [];
  const appointments = await readAppointments([...new Set(request.appointmentIds)]);
  for (const id of request.appointmentIds) if (!appointments.has(id)) violations.push(`appointment ${id} answered 201 and is not in the table`);
  const seats = await checkSeats(request, appointments, violations);
  const events = readEvents(process.env.LOCAL_EVENTS_FILE as string);
  const labOrders = checkLabOrders(appointments, events, violations);
  const left = await outboxLeft();
  if (left > 0) violations.push(`outbox: ${left} entries left after the relay`);
  const expectedDeliveries: Record<string, string[]> = {};
  for (const webhook of request.webhooks) {
    const access = await accessOfKeyId(webhook.keyId);
    const ids = new Set<string>();
    for (const event of events) {
      if (event.offset < webhook.eventsFrom || event.realm !== 'live' || !webhook.eventTypes.includes(event.type)) continue;
      if (access && isWebhookEventType(event.type) && mayReceive(access, event.type, event.detail)) ids.add(event.id);
    }
    expectedDeliveries[webhook.webhookId] = [...ids];
  }
  return { violations, ...seats, ...labOrders, outboxLeft: left, expectedDeliveries };
}
