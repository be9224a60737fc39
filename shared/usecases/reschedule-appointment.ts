/**
 * PATCH /appointments/{id}: moves a scheduled appointment to another slot, at its location or another
 * one. The new slot follows the booking rules of a new appointment (shared/usecases/slot-booking.ts); its
 * seat is taken and the old one freed in one transaction, so a move into a full slot answers 409 and
 * keeps the old seat. A race lost on the appointment, the location or the person reads again and decides again.
 * A move is announced by AppointmentRescheduled, written in that transaction and published once it
 * committed; a PATCH that leaves the slot and the location as they were announces nothing.
 */
import { assertLocationGroupAccess, assertProfileResourceAccess } from '../auth/access';
import { assertBookableInstant, assertEditable } from '../domain/appointment';
import { type Actor, apiActor } from '../domain/lifecycle';
import { NotFound } from '../errors';
import { appointmentRescheduled, isMove } from '../events/appointment-rescheduled';
import type { DomainEvent } from '../events/publisher';
import { getAppointmentAggregateOrThrow } from '../store/appointments/reads';
import type { AppointmentAggregate, AppointmentRecord } from '../store/appointments/records';
import { changeSchedule } from '../store/appointments/writes';
import { getLocation, LOCATION_NOT_FOUND, type LocationRecord } from '../store/locations';
import { getExistingProfile, type ProfileRecord } from '../store/profiles';
import type { SeatRef } from '../store/seats';
import { decideAgainOnRace } from './decide-again';
import { publishCommitted } from './publish-events';
import type { Caller } from './request';
import { explainBookingFailure, planSlotBooking } from './slot-booking';

/** The event of a move from the appointment's slot to `seat` at `location`; none when both stay as they were. */
function rescheduledEvents(appointment: AppointmentRecord, location: LocationRecord, seat: SeatRef, actor: Actor, at: string): DomainEvent[] {
  // A scheduled appointment is always booked at a location and a time (a home kit's is never scheduled).
  const from = { scheduled_at: appointment.scheduled_at!, location_id: appointment.location_id! };
  const to = { scheduled_at: seat.start, location_id: location.id };
  if (!isMove(from, to)) return [];
  return [appointmentRescheduled({ appointment, locationGroupSlug: location.location_group_slug, from, to, actor, at })];
}

interface Read {
  aggregate: AppointmentAggregate;
  location: LocationRecord | undefined;
  profile: ProfileRecord;
}

export async function rescheduleAppointment(
  id: string,
  patch: { scheduled_at?: string; location_id?: string },
  { access, now, actor, guard }: Caller,
): Promise<{ aggregate: AppointmentAggregate; profile: ProfileRecord }> {
  if (patch.scheduled_at) assertBookableInstant('scheduled_at', patch.scheduled_at, now);
  const read = async (): Promise<Read> => {
    const [aggregate, patchedLocation] = await Promise.all([
      getAppointmentAggregateOrThrow(id),
      patch.location_id ? getLocation(patch.location_id) : undefined,
    ]);
    const locationId = patch.location_id ?? aggregate.appointment.location_id;
    const [profile, location] = await Promise.all([
      getExistingProfile(aggregate.appointment.profile_id),
      patch.location_id || !locationId ? patchedLocation : getLocation(locationId),
    ]);
    return { aggregate, location, profile };
  };
  const assertAllowed = ({ aggregate, location }: Read) => {
    if (patch.location_id && !location?.active) throw new NotFound(LOCATION_NOT_FOUND);
    assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
    if (patch.location_id && location) assertLocationGroupAccess(access, location.location_group_slug, 'location');
    assertEditable(aggregate.appointment.status);
    guard?.(aggregate.appointment);
    // The appointment's own location, deactivated since it was booked: it can no longer take a booking.
    if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
  };
  const first = await read();
  assertAllowed(first);
  const write = async ({ aggregate, location, profile }: Read) => {
    const { appointment } = aggregate;
    const scheduledAt = patch.scheduled_at ?? appointment.scheduled_at!;
    const booking = await planSlotBooking({ appointment, location: location!, profile, scheduledAt, now });
    const at = now.toISOString();
    const events = rescheduledEvents(appointment, location!, booking.seat, actor ?? apiActor(access.keyId), at);
    let moved: AppointmentRecord;
    try {
      moved = await changeSchedule(
        appointment,
        { scheduled_at: booking.seat.start, ends_at: booking.seat.end, location_id: location!.id },
        booking.items,
        at,
        events,
      );
    } catch (error) {
      return explainBookingFailure(error, booking.seat);
    }
    await publishCommitted(events);
    return { aggregate: { ...aggregate, appointment: moved }, profile };
  };
  return decideAgainOnRace({ read: first, reread: read, assertAllowed, write, what: 'appointment' });
}
