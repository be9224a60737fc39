/**
 * The rules of the patient's link to their appointment (issue #53, docs/patient-page.md), the clock passed in:
 * when a link expires, when the patient may still change the appointment, which new times they may choose.
 */
import { InvalidInput } from '../errors';

/** A link works at most this long after it was issued. */
export const PATIENT_LINK_DAYS = 30;
/** The patient may reschedule or cancel only this far ahead: a chair the clinic already prepares is the clinic's to move. */
export const PATIENT_CHANGE_CUTOFF_MS = 2 * 3_600_000;
/** How far ahead the page offers new times. */
export const PATIENT_SLOT_DAYS = 14;
/** The requests one link may make in a minute (page, reschedule and cancel together). */
export const LINK_REQUESTS_PER_MINUTE = 30;
/**
 * The changes (reschedules and cancels together) one appointment may have through its links in a UTC day: each
 * sends the patient an email, and each email a new link, so a leaked link must not flood the inbox.
 */
export const PATIENT_CHANGES_PER_DAY = 5;

const DAY_MS = 86_400_000;

/** When a link stops working: the end of the appointment's slot as it is now, or 30 days after the link was issued, whichever is first. */
export const linkExpiry = (createdAt: Date, slotEnd: string | null): Date =>
  new Date(Math.min(createdAt.getTime() + PATIENT_LINK_DAYS * DAY_MS, slotEnd === null ? Number.POSITIVE_INFINITY : Date.parse(slotEnd)));

/** Whether the patient may still reschedule or cancel: scheduled, and its start at least 2 hours away. */
export const isChangeableByPatient = (appointment: { status: string; scheduled_at: string | null }, now: Date): boolean =>
  appointment.status === 'scheduled' && appointment.scheduled_at !== null && Date.parse(appointment.scheduled_at) - now.getTime() >= PATIENT_CHANGE_CUTOFF_MS;

/** A new time the patient may choose: at least 2 hours and at most 14 days ahead (the slot rules check the rest). */
export function assertPatientChoosable(instant: string, now: Date): void {
  const at = Date.parse(instant);
  if (at - now.getTime() < PATIENT_CHANGE_CUTOFF_MS) throw new InvalidInput('scheduled_at must be at least 2 hours ahead');
  if (at - now.getTime() > PATIENT_SLOT_DAYS * DAY_MS) throw new InvalidInput(`scheduled_at must be at most ${PATIENT_SLOT_DAYS} days ahead`);
}

/** Seconds until the minute the rate limit counts in ends: what a 429's Retry-After says. */
export const secondsToNextMinute = (at: Date): number => 60 - at.getUTCSeconds();

/** Seconds until the UTC day the changes' limit counts in ends: what its 429's Retry-After says. */
export const secondsToNextDay = (at: Date): number =>
  Math.max(1, Math.ceil((Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1) - at.getTime()) / 1000));
