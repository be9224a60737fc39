/**
 * POST /appointments/{id}/patient-link (issue #53, docs/patient-page.md): a link the patient can hold to their
 * appointment's page. Only an appointment at a location has one (a home kit's has no time or place: 409). The
 * token is 32 random bytes, stored by its SHA-256 only (shared/store/patient-links.ts); `revoke_previous` makes
 * every older link of the appointment open nothing, in the transaction that writes the new one.
 */
import { assertProfileResourceAccess } from '../auth/access';
import { config } from '../config';
import { linkExpiry, PATIENT_LINK_DAYS } from '../domain/patient-link';
import { Conflict, NotFound } from '../errors';
import { getAppointment } from '../store/appointments/reads';
import type { AppointmentRecord } from '../store/appointments/records';
import { issuePatientLink } from '../store/patient-links';
import { TransactionCancelled } from '../store/transactions';
import { slotEndOf } from './appointment-facts';
import type { Caller } from './request';

const DAY_MS = 86_400_000;
/** A link's item stays this long after its issue (TTL), past its own expiry: until then it answers 410, then 404. */
const LINK_KEPT_DAYS = 2 * PATIENT_LINK_DAYS;
const ISSUE_ATTEMPTS = 3;

export const HOME_KIT_HAS_NO_PAGE =
  'This appointment belongs to a home kit: it has no time or place a patient could see or change; patient links are for appointments at a location';

/** The origin a link points at: the page's public origin, else the emails' link origin, else the API as this request reached it. */
export const patientPageBase = (requestBaseUrl: string): string =>
  (config.email.patientPageOrigin ?? config.email.linkOrigin ?? requestBaseUrl).replace(/\/+$/, '');

/**
 * A new link to appointment `id`: `{url, expires_at}`, the expiry as it is now (the appointment's slot end, or 30
 * days ahead). With `revoke_previous` every older link of the appointment opens nothing from now on.
 */
export function createPatientLink(
  id: string,
  body: { revoke_previous?: boolean },
  { access, now }: Caller,
  base: string,
): Promise<{ url: string; expires_at: string }> {
  return issueLink(id, { revokePrevious: body.revoke_previous === true, now, base }, (appointment) =>
    assertProfileResourceAccess(access, appointment, 'appointment'),
  );
}

/**
 * The link an email about the appointment carries (booked, moved, reminder): a new one for that message, the
 * older ones kept. None when the stage names no page origin (PATIENT_PAGE_ORIGIN), or for a home kit's or a
 * vanished appointment.
 */
export async function patientLinkForEmail(id: string, now: Date): Promise<string | undefined> {
  const origin = config.email.patientPageOrigin;
  if (!origin) return undefined;
  try {
    return (await issueLink(id, { revokePrevious: false, now, base: origin.replace(/\/+$/, '') }, () => {})).url;
  } catch (error) {
    if (error instanceof NotFound || error instanceof Conflict) return undefined;
    throw error;
  }
}

async function issueLink(
  id: string,
  { revokePrevious, now, base }: { revokePrevious: boolean; now: Date; base: string },
  assertAllowed: (appointment: AppointmentRecord) => void,
): Promise<{ url: string; expires_at: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const appointment = await getAppointment(id);
    if (!appointment) throw new NotFound('Appointment not found');
    assertAllowed(appointment);
    if (!appointment.location_id || !appointment.scheduled_at) throw new Conflict(HOME_KIT_HAS_NO_PAGE);
    try {
      const { token } = await issuePatientLink({
        appointmentId: id,
        generation: appointment.patient_link_generation ?? 0,
        revokePrevious,
        at: now,
        deleteAt: new Date(now.getTime() + LINK_KEPT_DAYS * DAY_MS),
      });
      const expiresAt = linkExpiry(now, slotEndOf({ scheduled_at: appointment.scheduled_at, ends_at: appointment.ends_at }));
      return { url: `${base}/p/${token}`, expires_at: expiresAt.toISOString() };
    } catch (error) {
      // Its generation changed meanwhile (another link revoked the older ones): read it again.
      if (!(error instanceof TransactionCancelled && error.failed('appointment')) || attempt >= ISSUE_ATTEMPTS) throw error;
    }
  }
}
