/**
 * POST /p/{token}/reschedule and /cancel (issue #53, docs/patient-page.md): the patient moves or cancels the
 * link's appointment, by the API's own use cases (the same slot rules, seats, events and webhooks), in the
 * patient's name (history and AppointmentRescheduled: source patient, actor null). Only while it is scheduled
 * and at least 2 hours away, and only to a slot 2 hours to 14 days ahead at the same location (the body names
 * no location).
 */
import type { AccessContext } from '../auth/access';
import { assertEditable } from '../domain/appointment';
import { PATIENT } from '../domain/lifecycle';
import { assertPatientChoosable, isChangeableByPatient } from '../domain/patient-link';
import { Conflict } from '../errors';
import type { AppointmentRecord } from '../store/appointments/records';
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
  if (!isChangeableByPatient(appointment, now))
    throw new Conflict('The appointment is less than 2 hours away; to change it now, contact your clinic');
}

/** Moves the link's appointment to another slot at the same location, in the patient's name. */
export async function reschedulePatientAppointment(token: string, scheduledAt: string, now: Date): Promise<PatientChange> {
  return orRefused(
    await withLink(token, now, async (open) => {
      assertChangeable(open.appointment, now);
      assertPatientChoosable(scheduledAt, now);
      const { aggregate } = await rescheduleAppointment(open.appointment.id, { scheduled_at: scheduledAt }, { access: linkAccess(open), now, actor: PATIENT });
      return changed(aggregate.appointment);
    }),
  );
}

/** What the history keeps when the patient gives no reason. */
export const PATIENT_CANCEL_REASON = 'cancelled by the patient';

/** Cancels the link's appointment, in the patient's name, with their reason (kept in its history only). */
export async function cancelPatientAppointment(token: string, reason: string | undefined, now: Date): Promise<PatientChange> {
  return orRefused(
    await withLink(token, now, async (open) => {
      assertChangeable(open.appointment, now);
      const text = reason?.trim() ? reason.trim() : PATIENT_CANCEL_REASON;
      const { aggregate } = await cancelAppointment(open.appointment.id, text, { access: linkAccess(open), now, actor: PATIENT });
      return changed(aggregate.appointment);
    }),
  );
}
