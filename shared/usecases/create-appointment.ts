/** Books a blood draw for a profile at a location: a new appointment, scheduled (history entry 1). */
import { assertLocationGroupAccess, assertProfileGroupAccess } from '../auth/access';
import { assertBookableInstant } from '../domain/appointment';
import { apiActor } from '../domain/lifecycle';
import { Conflict, NotFound } from '../errors';
import { appointmentLifecycle, type AppointmentRecord, newAppointment } from '../store/appointments/records';
import { getLocation, LOCATION_NOT_FOUND, locationIsActive } from '../store/locations';
import { getProfile, PROFILE_ERASED, PROFILE_NOT_FOUND, profileLink, profileNotErased, type ProfileRecord } from '../store/profiles';
import { TransactionCancelled } from '../store/transactions';
import { commit } from './commit';
import type { Caller } from './request';

export async function createAppointment(
  input: { profile_id: string; location_id: string; scheduled_at: string },
  { access, now }: Caller,
): Promise<{ appointment: AppointmentRecord; profile: ProfileRecord }> {
  assertBookableInstant('scheduled_at', input.scheduled_at, now);
  const [profile, location] = await Promise.all([getProfile(input.profile_id), getLocation(input.location_id)]);
  if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
  if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
  assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
  assertLocationGroupAccess(access, location.location_group_slug, 'location');
  if (profile.erased_at) throw new Conflict(PROFILE_ERASED);
  const at = now.toISOString();
  const appointment = newAppointment(
    {
      profile_id: profile.id,
      profile_group_slug: profile.profile_group_slug,
      location_id: location.id,
      scheduled_at: input.scheduled_at,
      status: 'scheduled',
      test_method: 'practitioner',
    },
    at,
  );
  try {
    await commit({
      transitions: [{ lifecycle: appointmentLifecycle, before: null, after: appointment, actor: apiActor(access.keyId), at }],
      // The location may have been deactivated, the person erased, since they were read; the link lets an
      // erasure find the appointment at once.
      items: [locationIsActive(location.id), profileNotErased(profile.id), profileLink(profile.id, 'APPT', appointment.id)],
      writtenAt: at,
    });
  } catch (error) {
    if (error instanceof TransactionCancelled && error.failed('location')) throw new NotFound(LOCATION_NOT_FOUND);
    if (error instanceof TransactionCancelled && error.failed('profile')) throw new Conflict(PROFILE_ERASED);
    throw error;
  }
  return { appointment, profile };
}
