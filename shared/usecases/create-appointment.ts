/**
 * Books a blood draw for a profile at a location: a new appointment, scheduled (history entry 1), in a
 * bookable slot with a free seat (shared/usecases/slot-booking.ts). A race lost on the location's schedule
 * or the person's other bookings reads both again and decides again.
 */
import { assertLocationGroupAccess, assertProfileGroupAccess } from '../auth/access';
import { assertBookableInstant } from '../domain/appointment';
import { apiActor } from '../domain/lifecycle';
import { Conflict, NotFound } from '../errors';
import { appointmentLifecycle, type AppointmentRecord, newAppointment } from '../store/appointments/records';
import { getLocation, LOCATION_NOT_FOUND, type LocationRecord } from '../store/locations';
import { getProfile, PROFILE_ERASED, PROFILE_NOT_FOUND, profileLink, type ProfileRecord } from '../store/profiles';
import { commit } from './commit';
import { decideAgainOnRace } from './decide-again';
import type { Caller } from './request';
import { explainBookingFailure, planSlotBooking } from './slot-booking';

interface Parties {
  profile: ProfileRecord | undefined;
  location: LocationRecord | undefined;
}

export async function createAppointment(
  input: { profile_id: string; location_id: string; scheduled_at: string },
  { access, now }: Caller,
): Promise<{ appointment: AppointmentRecord; profile: ProfileRecord }> {
  assertBookableInstant('scheduled_at', input.scheduled_at, now);
  const read = async (): Promise<Parties> => {
    const [profile, location] = await Promise.all([getProfile(input.profile_id), getLocation(input.location_id)]);
    return { profile, location };
  };
  const assertAllowed = ({ profile, location }: Parties) => {
    if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
    if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
    assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
    assertLocationGroupAccess(access, location.location_group_slug, 'location');
    if (profile.erased_at) throw new Conflict(PROFILE_ERASED);
  };
  const parties = await read();
  assertAllowed(parties);
  const at = now.toISOString();
  const write = async ({ profile, location }: Parties) => {
    const draft = newAppointment(
      {
        profile_id: profile!.id,
        profile_group_slug: profile!.profile_group_slug,
        location_id: location!.id,
        scheduled_at: input.scheduled_at,
        status: 'scheduled',
        test_method: 'practitioner',
      },
      at,
    );
    const booking = await planSlotBooking({ appointment: draft, location: location!, profile: profile!, scheduledAt: input.scheduled_at, now });
    const appointment: AppointmentRecord = { ...draft, scheduled_at: booking.seat.start, ends_at: booking.seat.end, holds_seat: true };
    try {
      await commit({
        transitions: [{ lifecycle: appointmentLifecycle, before: null, after: appointment, actor: apiActor(access.keyId), at }],
        // The link lets an erasure find the appointment at once.
        items: [...booking.items, profileLink(profile!.id, 'APPT', appointment.id)],
        writtenAt: at,
      });
    } catch (error) {
      explainBookingFailure(error, booking.seat);
    }
    return { appointment, profile: profile! };
  };
  return decideAgainOnRace({ read: parties, reread: read, assertAllowed, write, what: 'location or person' });
}
