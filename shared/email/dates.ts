/**
 * An appointment's time as the patient reads it (issue #52): in the location's time zone, not the server's or
 * the reader's (a patient in another zone still has to be at the clinic at the clinic's 09:00), written as the
 * language writes it, with the zone's short name so the reader knows which clock is meant:
 * "Tuesday, 1 December 2026 at 09:00 CET", "Dienstag, 1. Dezember 2026 um 09:00 MEZ",
 * "tiistaina 1. joulukuuta 2026 klo 10.00 UTC+2".
 */
import type { MessageLanguage } from './content';

/** The locale each language writes dates in (also the patient page's days and slot times). */
export const LOCALES: Record<MessageLanguage, string> = { en: 'en-GB', de: 'de-DE', fi: 'fi-FI' };

/** The instant (ISO 8601) in `timeZone`, as `language` writes a date and time. Throws on an unreadable instant or zone. */
export function formatAppointmentTime(instant: string, timeZone: string, language: MessageLanguage): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) throw new RangeError(`email: unreadable appointment time ${JSON.stringify(instant)}`);
  return new Intl.DateTimeFormat(LOCALES[language], {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  }).format(at);
}
