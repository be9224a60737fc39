/**
 * GET /p/{token} (issue #53, docs/patient-page.md): what the patient's page shows of the link's appointment
 * (shared/patient-page/view.ts): first name, who it is from, time and place, what to prepare, the status, and
 * while it is scheduled and at least 2 hours away the free slots of the next 14 days at the same location (the
 * availability rules of the API, shared/usecases/location-availability.ts, without a key's access check).
 */
import { config } from '../config';
import { addDays, dateInZone } from '../domain/calendar';
import { isChangeableByPatient, linkExpiry, PATIENT_CHANGE_CUTOFF_MS, PATIENT_SLOT_DAYS } from '../domain/patient-link';
import { Unavailable } from '../errors';
import type { LinkErrorKind, PatientPageView } from '../patient-page/view';
import { recordReads } from '../store/access-log';
import { loadCatalog } from '../store/catalog';
import type { LocationRecord } from '../store/locations';
import type { PatientLinkRecord } from '../store/patient-links';
import { addressLine, preparationOf, slotEndOf } from './appointment-facts';
import { senderOf } from './sender';
import { availabilityAt } from './location-availability';
import { withLink } from './patient-link';

const DAY_MS = 86_400_000;

/**
 * The page of the link's appointment, or why it opens nothing. The read is recorded in the person's access log
 * before it is answered, the link as its reader (`patient_link:<link id>`, never the token), with no address:
 * the reader is the patient (or a mail scanner following the link), whose IP address is theirs to keep.
 */
export async function openPatientPage(token: string, now: Date, request: { id: string }): Promise<PatientPageView | LinkErrorKind> {
  return withLink(token, now, async ({ link, aggregate, appointment, profile, location }) => {
    const changeable = isChangeableByPatient(appointment, now);
    const [catalog, sender, slots] = await Promise.all([
      loadCatalog(),
      senderOf(profile.profile_group_slug),
      changeable ? freeSlots(location, appointment, now) : [],
    ]);
    const { preparation, specimenCount } = preparationOf(aggregate, catalog, profile.language);
    await recordPageRead(link, profile.id, appointment.id, request);
    return {
      language: profile.language,
      firstName: profile.first_name,
      senderName: sender.name,
      status: appointment.status,
      appointment: {
        scheduledAt: appointment.scheduled_at,
        endsAt: slotEndOf(appointment),
        timeZone: location.timezone ?? 'UTC',
        location: { name: location.name, address: addressLine(location), mapUrl: location.google_maps_url },
        preparation,
        specimenCount,
      },
      changeable,
      ...(appointment.status === 'scheduled' && !changeable ? { closedReason: 'too_close' as const } : {}),
      slots,
      expiresAt: linkExpiry(new Date(link.created_at), slotEndOf(appointment)).toISOString(),
    };
  });
}

/** The free slot starts at the appointment's location that the patient may choose: 2 hours to 14 days ahead, the current one excluded. */
async function freeSlots(location: LocationRecord, appointment: { scheduled_at: string }, now: Date): Promise<string[]> {
  if (!location.active) return [];
  const today = dateInZone(now, location.timezone);
  const { slots } = await availabilityAt(location, { from: today, to: addDays(today, PATIENT_SLOT_DAYS) }, now);
  const current = Date.parse(appointment.scheduled_at);
  return slots
    .map((slot) => slot.start)
    .filter((start) => {
      const ahead = Date.parse(start) - now.getTime();
      return ahead >= PATIENT_CHANGE_CUTOFF_MS && ahead <= PATIENT_SLOT_DAYS * DAY_MS && Date.parse(start) !== current;
    });
}

async function recordPageRead(link: PatientLinkRecord, profileId: string, appointmentId: string, request: { id: string }) {
  try {
    await recordReads(
      [
        {
          // Real time, never LAB_CLOCK, as the API's entries (shared/http/audit.ts).
          at: new Date().toISOString(),
          key_id: `patient_link:${link.link_id}`,
          route: 'getPatientPage',
          resource: `appointment ${appointmentId}`,
          profile_id: profileId,
          request_id: request.id,
          // The patient's address is not recorded: the entry says the link was opened, not from where.
          source_ip: null,
        },
      ],
      config.auditRetentionDays,
    );
  } catch {
    throw new Unavailable('This page could not be shown now; try again in a moment');
  }
}
