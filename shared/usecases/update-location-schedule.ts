/**
 * PATCH /locations/{id} (issue #28): a clinic sets its location's hours, slot length, capacity or closures.
 * A change never cancels a booking: the answer names the scheduled appointments from now on that the new
 * schedule would not take (outside its hours, on a closed date, off its grid, over a slot's capacity), so
 * the clinic can move them; they keep working as booked. Bookings racing the change are decided again on
 * the new schedule (the location's schedule_version is part of every booking's transaction).
 */
import { assertLiveKey, assertLocationGroupAccess, canSeeProfileGroup } from '../auth/access';
import { capacityOf, slotAt } from '../domain/booking';
import { BOOKING_HORIZON_DAYS } from '../domain/appointment';
import { toUtcInstant } from '../domain/instant';
import { NotFound } from '../errors';
import { toLocation, type UpdatedLocation } from '../schemas/locations';
import { type UpdateLocationBody } from '../schemas/bodies/locations';
import { getAppointments } from '../store/appointments/reads';
import { changeLocationSchedule, getLocation, LOCATION_NOT_FOUND, type LocationRecord } from '../store/locations';
import { bookedSlots } from '../store/seats';
import { TransactionCancelled } from '../store/transactions';
import { decideAgainOnRace } from './decide-again';
import type { Caller } from './request';

type Affected = UpdatedLocation['affected_appointments'][number];

async function readActive(id: string): Promise<LocationRecord> {
  const location = await getLocation(id);
  if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
  return location;
}

/** The booked slots from now on that `location`'s schedule would not take, each with its appointments. */
async function outsideSchedule(location: LocationRecord, now: Date) {
  const horizon = new Date(now.getTime() + BOOKING_HORIZON_DAYS * 86_400_000 + 86_400_000);
  const booked = await bookedSlots(location.id, toUtcInstant(now), toUtcInstant(horizon));
  const capacity = capacityOf(location);
  return booked.flatMap(({ start, appointmentIds }): Affected[] => {
    const found = slotAt('scheduled_at', location, new Date(start));
    if ('problem' in found) return appointmentIds.map((id) => ({ id, scheduled_at: start, reason: found.problem.code, detail: found.problem.message }));
    if (appointmentIds.length <= capacity) return [];
    const detail = `the slot holds ${appointmentIds.length} bookings; the capacity is now ${capacity}`;
    return appointmentIds.map((id) => ({ id, scheduled_at: start, reason: 'over_capacity' as const, detail }));
  });
}

export async function updateLocationSchedule(id: string, patch: UpdateLocationBody, { access, now }: Caller): Promise<UpdatedLocation> {
  const read = await readActive(id);
  assertLocationGroupAccess(access, read.location_group_slug, 'location');
  assertLiveKey(access, 'change a location: locations are the same for live and sandbox data');
  const updated = await decideAgainOnRace({
    read,
    reread: () => readActive(id),
    assertAllowed: () => undefined,
    async write(current) {
      const written = await changeLocationSchedule(current, patch);
      // A racing change or deactivation: read again (deactivated: 404) and write the patch on what is there.
      if (!written) throw new TransactionCancelled(['location'], ['ConditionalCheckFailed']);
      return written;
    },
    what: 'location',
  });
  const candidates = await outsideSchedule(updated, now);
  // The seats name every booking at the location; the answer names only those the key may see.
  const appointments = candidates.length > 0 ? await getAppointments([...new Set(candidates.map((candidate) => candidate.id))]) : [];
  const scheduled = new Map(appointments.filter((appointment) => appointment.status === 'scheduled').map((appointment) => [appointment.id, appointment]));
  const affected: Affected[] = [];
  let otherAffectedCount = 0;
  for (const candidate of candidates) {
    const appointment = scheduled.get(candidate.id);
    if (!appointment) continue;
    if (canSeeProfileGroup(access, appointment.profile_group_slug)) affected.push(candidate);
    else otherAffectedCount += 1;
  }
  return { ...toLocation(updated, now), affected_appointments: affected, other_affected_count: otherAffectedCount };
}
