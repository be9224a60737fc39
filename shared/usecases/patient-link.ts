/**
 * What a patient link opens (issue #53, docs/patient-page.md), whatever the route: the page
 * (./patient-page.ts) and the changes (./patient-changes.ts) run their work on it through `withLink`.
 *
 * Every use: the token's shape, then its item, then (an existing link only) its rate counter (shared/store/
 * patient-links.ts), then, in the realm the item names, the appointment as it is now. A link opens nothing
 * (404) when never issued, altered, of an older generation than the appointment's (revoked), or when its
 * profile was erased; it is expired (410) from the end of the appointment's current slot, or 30 days after
 * issue, whichever is first: a moved appointment's link follows it. A cancelled or drawn appointment's link
 * shows its state until then.
 */
import { linkExpiry, LINK_REQUESTS_PER_MINUTE, secondsToNextMinute } from '../domain/patient-link';
import { Gone, NotFound, TooManyRequests } from '../errors';
import type { LinkErrorKind } from '../patient-page/view';
import { inRealm } from '../sandbox';
import { getAppointmentAggregate } from '../store/appointments/reads';
import type { AppointmentAggregate, AppointmentRecord } from '../store/appointments/records';
import { getLocation, type LocationRecord } from '../store/locations';
import { countLinkRequest, findPatientLink, PATIENT_LINK_TOKEN, type PatientLinkRecord, tokenHash } from '../store/patient-links';
import { getProfile, type ProfileRecord } from '../store/profiles';
import { slotEndOf } from './appointment-facts';

/** What a link opens now: its appointment, the person's profile, the location. */
export interface OpenLink {
  link: PatientLinkRecord;
  aggregate: AppointmentAggregate;
  appointment: AppointmentRecord & { location_id: string; scheduled_at: string };
  profile: ProfileRecord;
  location: LocationRecord;
}

/**
 * Runs `work` on what the token opens, in its realm; answers why not when it opens nothing. Counts the
 * request of an existing link against its rate limit first (429 past it); a token no link has writes nothing.
 */
export async function withLink<T>(token: string, now: Date, work: (open: OpenLink) => Promise<T>): Promise<T | LinkErrorKind> {
  if (!PATIENT_LINK_TOKEN.test(token)) return 'not_found';
  const hash = tokenHash(token);
  const link = await findPatientLink(hash);
  if (!link) return 'not_found';
  // Real time, never LAB_CLOCK: under a fixed clock every request would fall into the same minute for ever.
  const counted = new Date();
  const count = await countLinkRequest(hash, counted);
  if (count > LINK_REQUESTS_PER_MINUTE)
    throw new TooManyRequests(`This link made more than ${LINK_REQUESTS_PER_MINUTE} requests this minute; retry later`, secondsToNextMinute(counted));
  return inRealm(link.realm, async () => {
    const aggregate = await getAppointmentAggregate(link.appointment_id);
    const appointment = aggregate?.appointment;
    if (!aggregate || !appointment?.location_id || !appointment.scheduled_at) return 'not_found';
    if (link.generation < (appointment.patient_link_generation ?? 0)) return 'not_found';
    const slotEnd = slotEndOf({ scheduled_at: appointment.scheduled_at, ends_at: appointment.ends_at });
    if (now.getTime() >= linkExpiry(new Date(link.created_at), slotEnd).getTime()) return 'expired';
    const [profile, location] = await Promise.all([getProfile(appointment.profile_id), getLocation(appointment.location_id)]);
    if (!profile || profile.erased_at || !location) return 'not_found';
    return work({
      link,
      aggregate,
      appointment: { ...appointment, location_id: appointment.location_id, scheduled_at: appointment.scheduled_at },
      profile,
      location,
    });
  });
}

/** The JSON routes' refusal of a link that opens nothing (404) or expired (410). */
export function orRefused<T>(result: T | LinkErrorKind): T {
  if (result === 'not_found') throw new NotFound('This link is not valid');
  if (result === 'expired') throw new Gone('This link has expired; to change the appointment, contact your clinic');
  return result;
}
