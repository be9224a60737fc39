/**
 * POST /p/{token}/reschedule and /cancel (issue #53, docs/patient-page.md): the patient moves or cancels the
 * link's appointment, by the API's own use cases (the same slot rules, seats, events and webhooks), in the
 * patient's name (history and AppointmentRescheduled: source patient, actor null). Only while it is scheduled
 * and at least 2 hours away — checked on every read the use case decides on, a read again after a lost race
 * included (the Caller's guard) — and only to a slot 2 hours to 14 days ahead at the same location (the body
 * names no location). At most PATIENT_CHANGES_PER_DAY changes per appointment and UTC day through its links
 * (429 beyond): each sends an email carrying a new link, so a leaked link cannot flood the patient's inbox.
 */
import type { AccessContext } from '../auth/access';
import { assertEditable } from '../domain/appointment';
import { PATIENT } from '../domain/lifecycle';
import { assertPatientChoosable, isChangeableByPatient, PATIENT_CHANGES_PER_DAY, secondsToNextDay } from '../domain/patient-link';
import { Conflict, NotFound, TooManyRequests } from '../errors';
import type { AppointmentRecord } from '../store/appointments/records';
import { LOCATION_NOT_FOUND } from '../store/locations';
import { returnLinkChange, takeLinkChange } from '../store/patient-links';
import { slotEndOf } from './appointment-facts';
import { cancelAppointment } from './cancel-appointment';
import { type OpenLink, orRefused, withLink } from './patient-link';
import { rescheduleAppointment } from './reschedule-appointment';

/** What a change by link answers: the state and time, nothing of the person. */
export interface PatientChange {
  status: AppointmentRecord['status'];
  scheduled_at: string;
  ends_at: string;
}

const changed = (appointment: AppointmentRecord): PatientChange => ({
  status: appointment.status,
  scheduled_at: appointment.scheduled_at!,
  ends_at: slotEndOf({ scheduled_at: appointment.scheduled_at!, ends_at: appointment.ends_at }),
});

/** The appointment's access as its link gives it: its person's group and its own location's group, nothing else, no scope. */
const linkAccess = ({ link, appointment, location }: OpenLink): AccessContext => ({
  keyId: `patient_link:${link.link_id}`,
  scopes: new Set(),
  profileGroups: new Set([appointment.profile_group_slug]),
  locationGroups: new Set([location.location_group_slug]),
  sandbox: link.realm === 'sandbox',
});

/** Refuses a change the patient may no longer make here: not scheduled (409, as the API), or less than 2 hours away (409). */
function assertChangeable(appointment: AppointmentRecord, now: Date): void {
  assertEditable(appointment.status);
  if (!isChangeableByPatient(appointment, now)) throw new Conflict('The appointment is less than 2 hours away; to change it now, contact your clinic');
}

/** The use cases' caller: the link's access, in the patient's name, the 2-hour cut-off checked on each read. */
const patientCaller = (open: OpenLink, now: Date) => ({
  access: linkAccess(open),
  now,
  actor: PATIENT,
  guard: (appointment: AppointmentRecord) => assertChangeable(appointment, now),
});

/** A location deactivated since the booking: the clinic's to move (409, not the API's 404: the link still works). */
const LOCATION_CLOSED = 'The location no longer takes bookings; to move the appointment, contact your clinic';

/**
 * Runs a change as one of the appointment's PATIENT_CHANGES_PER_DAY of the day (429 beyond, Retry-After: the
 * next UTC day). A change that fails gives its place back. Real time, never LAB_CLOCK, as the rate limit.
 */
async function asOneOfTodaysChanges<T>(appointmentId: string, change: () => Promise<T>): Promise<T> {
  const at = new Date();
  if (!(await takeLinkChange(appointmentId, at, PATIENT_CHANGES_PER_DAY)))
    throw new TooManyRequests(
      `This appointment was changed ${PATIENT_CHANGES_PER_DAY} times today through its links; to change it again today, contact your clinic`,
      secondsToNextDay(at),
    );
  try {
    return await change();
  } catch (error) {
    // At worst the day counts one change too many: the change's own answer matters more.
    await returnLinkChange(appointmentId, at).catch(() => undefined);
    throw error;
  }
}

/** Moves the link's appointment to another slot at the same location, in the patient's name. */
export async function reschedulePatientAppointment(token: string, scheduledAt: string, now: Date): Promise<PatientChange> {
  return orRefused(
    await withLink(token, now, async (open) => {
      assertChangeable(open.appointment, now);
      assertPatientChoosable(scheduledAt, now);
      if (!open.location.active) throw new Conflict(LOCATION_CLOSED);
      return asOneOfTodaysChanges(open.appointment.id, async () => {
        try {
          const { aggregate } = await rescheduleAppointment(open.appointment.id, { scheduled_at: scheduledAt }, patientCaller(open, now));
          return changed(aggregate.appointment);
        } catch (error) {
          // Deactivated between the link's read and the reschedule's.
          if (error instanceof NotFound && error.message === LOCATION_NOT_FOUND) throw new Conflict(LOCATION_CLOSED);
          throw error;
        }
      });
    }),
  );
}

/** What the appointment's cancellation reason says when the patient gives none. */
export const PATIENT_CANCEL_REASON = 'cancelled by the patient';

/**
 * Cancels the link's appointment, in the patient's name, with their reason: the appointment's
 * `cancellation_reason` (as GET /appointments/{id} shows it) and its history's cancel entry, never an event.
 */
export async function cancelPatientAppointment(token: string, reason: string | undefined, now: Date): Promise<PatientChange> {
  return orRefused(
    await withLink(token, now, async (open) => {
      assertChangeable(open.appointment, now);
      const text = reason?.trim() ? reason.trim() : PATIENT_CANCEL_REASON;
      return asOneOfTodaysChanges(open.appointment.id, async () => {
        const { aggregate } = await cancelAppointment(open.appointment.id, text, patientCaller(open, now));
        return changed(aggregate.appointment);
      });
    }),
  );
}
