/**
 * Booking an appointment into a slot (issue #28), for a new appointment and for a reschedule or relocation
 * alike. The decision is made on the location and the person as read; the transaction it returns holds
 * exactly what the decision relied on:
 *
 * - the slot's seat (shared/store/seats.ts): taken on the condition that the slot is not full; a moved
 *   appointment's old seat is freed in the same transaction;
 * - the location: still active, its schedule still the one read (schedule_version);
 * - the person: their bookings (profile.booked_slots) still the ones read, and the new slot written there,
 *   so that two bookings of one person serialise and neither misses the other.
 *
 * A full slot answers 409 at once. A lost race on the location or the person is a TransactionCancelled for
 * the caller to read again and decide again (shared/usecases/decide-again.ts).
 */
import { bookableSlot, capacityOf, overlaps } from '../domain/booking';
import { toUtcInstant } from '../domain/instant';
import { Conflict } from '../errors';
import { getAppointments } from '../store/appointments/reads';
import { type AppointmentRecord, heldSeatOf, slotOf } from '../store/appointments/records';
import { type LocationRecord, locationScheduleAsRead } from '../store/locations';
import { profileBookingsAsRead, type ProfileRecord } from '../store/profiles';
import { releaseSeat, type SeatRef, takeSeat } from '../store/seats';
import { TransactionCancelled } from '../store/transactions';
import type { NamedItem } from '../store/transactions';

export interface SlotBooking {
  /** The appointment's slot: its scheduled_at and ends_at. */
  seat: SeatRef;
  /** The items the booking's transaction adds beside the appointment's own write. */
  items: NamedItem[];
}

const interval = (value: string) => {
  const [start, end] = value.split('/');
  return { start: new Date(start!), end: new Date(end!) };
};

export const slotFull = (seat: SeatRef) => `The slot at ${seat.start} is full; ask GET /api/v1/locations/${seat.locationId}/availability for free slots`;

/**
 * The person's other bookings that overlap the slot, as they are now: booked_slots names candidates, the
 * appointments themselves (read consistently) say whether each is still scheduled there. Returns the
 * entries to keep: those still scheduled and not yet over.
 */
async function keptBookings(profile: ProfileRecord, appointmentId: string, seat: SeatRef, now: Date): Promise<Record<string, string>> {
  const others = Object.entries(profile.booked_slots ?? {}).filter(([id, value]) => id !== appointmentId && interval(value).end > now);
  const slot = { start: new Date(seat.start), end: new Date(seat.end) };
  const candidates = others.filter(([, value]) => overlaps(interval(value), slot)).map(([id]) => id);
  const stillBooked = new Map<string, AppointmentRecord>();
  if (candidates.length > 0) for (const appointment of await getAppointments(candidates)) stillBooked.set(appointment.id, appointment);
  const kept: Record<string, string> = {};
  for (const [id, value] of others) {
    if (!candidates.includes(id)) {
      kept[id] = value;
      continue;
    }
    const appointment = stillBooked.get(id);
    const current = appointment?.status === 'scheduled' ? slotOf(appointment) : undefined;
    if (!current) continue;
    if (overlaps({ start: new Date(current.start), end: new Date(current.end) }, slot)) {
      throw new Conflict(`This person already has appointment ${id} at ${current.start}, which overlaps this slot`);
    }
    kept[id] = `${current.start}/${current.end}`;
  }
  return kept;
}

/**
 * Decides the booking of `appointment` (new, or as it is before a move) into the slot starting at
 * `scheduledAt` at `location`: 400 when that is not a bookable slot (the rule it breaks), 409 when the
 * person holds another appointment overlapping it.
 */
export async function planSlotBooking(input: {
  appointment: AppointmentRecord;
  location: LocationRecord;
  profile: ProfileRecord;
  scheduledAt: string;
  now: Date;
}): Promise<SlotBooking> {
  const { appointment, location, profile, now } = input;
  const slot = bookableSlot('scheduled_at', location, input.scheduledAt, now);
  const seat: SeatRef = { locationId: location.id, start: toUtcInstant(slot.start), end: toUtcInstant(slot.end) };
  const kept = await keptBookings(profile, appointment.id, seat, now);
  const held = heldSeatOf(appointment);
  const sameSeat = held !== undefined && held.locationId === seat.locationId && held.start === seat.start;
  return {
    seat,
    items: [
      ...(sameSeat ? [] : [takeSeat(seat, appointment.id, capacityOf(location))]),
      ...(held && !sameSeat ? [releaseSeat(held, appointment.id)] : []),
      locationScheduleAsRead(location),
      profileBookingsAsRead(profile, { ...kept, [appointment.id]: `${seat.start}/${seat.end}` }),
    ],
  };
}

/**
 * A booking's transaction failed: a full slot is the client's 409 when nothing else failed with it; a
 * changed appointment, schedule or person besides is a race to decide again (on the new state the slot
 * may have room, or another rule may answer).
 */
export function explainBookingFailure(error: unknown, seat: SeatRef): never {
  const raced = error instanceof TransactionCancelled && ['appointment', 'location', 'profile'].some((name) => error.failed(name));
  if (error instanceof TransactionCancelled && error.failed('seat') && !raced) throw new Conflict(slotFull(seat));
  throw error;
}
