/**
 * Books a blood draw for a profile at a location: a new appointment, scheduled (history entry 1), in a
 * bookable slot with a free seat (shared/usecases/slot-booking.ts). A race lost on the location's schedule
 * or the person's other bookings reads both again and decides again.
 */
import { assertLocationGroupAccess, assertProfileGroupAccess, assertProfileResourceAccess } from '../auth/access';
import { assertBookableInstant } from '../domain/appointment';
import { apiActor } from '../domain/lifecycle';
import { Conflict, InvalidInput, NotFound } from '../errors';
import { getAppointmentAggregate } from '../store/appointments/reads';
import { testLinkPuts } from '../store/appointments/writes';
import { appointmentLifecycle, type AppointmentRecord, newAppointment } from '../store/appointments/records';
import { getLocation, LOCATION_NOT_FOUND, type LocationRecord } from '../store/locations';
import { getProfile, PROFILE_ERASED, PROFILE_NOT_FOUND, profileLink, type ProfileRecord } from '../store/profiles';
import { commit } from './commit';
import { decideAgainOnRace } from './decide-again';
import type { Caller } from './request';
import { explainBookingFailure, planSlotBooking } from './slot-booking';
import { BUSINESS_METRICS, countBusiness } from '../metrics';

interface Parties {
  profile: ProfileRecord | undefined;
  location: LocationRecord | undefined;
}

/**
 * The tests an appointment draws again for `originalId` (recollection_of): its rejected tests that got no
 * value after all. 404 unknown, 403 outside the key's context, 400 another person's, 409 nothing rejected.
 */
async function testsToRecollect(originalId: string, profileId: string, access: Caller['access']): Promise<number[]> {
  const original = await getAppointmentAggregate(originalId);
  if (!original) throw new NotFound(`recollection_of: appointment ${originalId} not found`);
  assertProfileResourceAccess(access, original.appointment, 'appointment');
  if (original.appointment.profile_id !== profileId) throw new InvalidInput('recollection_of must be an appointment of the same profile');
  const valued = new Set([...original.clinicalResults, ...original.geneticResults].map((result) => result.biomarker_id));
  const rejected = original.rejectedTests.map((test) => test.biomarker_id).filter((id) => !valued.has(id));
  if (rejected.length === 0) throw new Conflict(`recollection_of: appointment ${originalId} has no rejected specimen to draw again`);
  return rejected.sort((a, b) => a - b);
}

export async function createAppointment(
  input: { profile_id: string; location_id: string; scheduled_at: string; recollection_of?: string },
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
  const recollected = input.recollection_of ? await testsToRecollect(input.recollection_of, parties.profile!.id, access) : [];
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
        ...(input.recollection_of ? { recollection_of: input.recollection_of } : {}),
      },
      at,
    );
    const booking = await planSlotBooking({ appointment: draft, location: location!, profile: profile!, scheduledAt: input.scheduled_at, now });
    const appointment: AppointmentRecord = { ...draft, scheduled_at: booking.seat.start, ends_at: booking.seat.end, holds_seat: true };
    try {
      await commit({
        transitions: [{ lifecycle: appointmentLifecycle, before: null, after: appointment, actor: apiActor(access.keyId), at }],
        // The link lets an erasure find the appointment at once.
        // A recollection is born with the tests the lab could not perform on the rejected specimen.
        items: [
          ...booking.items,
          profileLink(profile!.id, 'APPT', appointment.id),
          ...testLinkPuts(appointment.id, { panels: [], biomarkers: recollected.map((biomarker_id) => ({ biomarker_id, added_at: at })) }),
        ],
        writtenAt: at,
      });
    } catch (error) {
      explainBookingFailure(error, booking.seat);
    }
    countBusiness(BUSINESS_METRICS.appointmentsBooked);
    return { appointment, profile: profile! };
  };
  return decideAgainOnRace({ read: parties, reread: read, assertAllowed, write, what: 'location or person' });
}
