/**
 * The appointment as an iCalendar file (RFC 5545, sent with the iTIP methods of RFC 5546), built with `ics`
 * (issue #52). A booking is a REQUEST; a reschedule is a REQUEST with the same UID and a higher SEQUENCE, so a
 * calendar moves the entry it has instead of adding a second one; a cancellation is a CANCEL with
 * STATUS:CANCELLED, the same UID and a higher SEQUENCE, so the calendar removes it. Times are UTC instants
 * (DTSTART…Z): the calendar shows them in the reader's zone, and no VTIMEZONE has to be written.
 *
 * DTSTAMP: `ics` stamps the file with the clock unless given one; we give it the change's own instant
 * (calendar.stampedAt, else the appointment's start), so the same facts always give the same bytes.
 */
import { createEvent, type EventAttributes } from 'ics';
import type { AppointmentFacts, ComposedEmail } from './content';

export type CalendarMethod = 'REQUEST' | 'CANCEL';

/** PRODID: who wrote the file (RFC 5545's "-//company//product//language" shape). */
const PRODUCT_ID = '-//Lab Testing Service//Patient email//EN';

const instant = (value: string, what: string): number => {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`email: unreadable ${what} ${JSON.stringify(value)}`);
  return ms;
};

/** The location as one line: a calendar's LOCATION is a single text value. */
export const calendarLocation = (appointment: AppointmentFacts): string =>
  [appointment.location.name, ...appointment.location.address.split(/\r?\n/)]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');

export function calendarAttachment(
  appointment: AppointmentFacts,
  entry: { method: CalendarMethod; title: string; description: string },
): ComposedEmail['attachments'][number] {
  // `timestamp` (DTSTAMP) is read by `ics` (its schema and formatEvent) but missing from its types.
  const attributes: EventAttributes & { timestamp: number } = {
    productId: PRODUCT_ID,
    method: entry.method,
    uid: appointment.calendar.uid,
    sequence: appointment.calendar.sequence,
    timestamp: instant(appointment.calendar.stampedAt ?? appointment.scheduledAt, 'calendar stamp'),
    start: instant(appointment.scheduledAt, 'appointment start'),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: instant(appointment.endsAt, 'appointment end'),
    endInputType: 'utc',
    endOutputType: 'utc',
    title: entry.title,
    description: entry.description,
    location: calendarLocation(appointment),
    status: entry.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED',
    busyStatus: 'BUSY',
    ...(appointment.calendar.organizer ? { organizer: appointment.calendar.organizer } : {}),
    ...(appointment.calendar.attendee
      ? {
          attendees: [
            {
              email: appointment.calendar.attendee.email,
              ...(appointment.calendar.attendee.name ? { name: appointment.calendar.attendee.name } : {}),
              // The patient booked it: accepted, no reply asked (a reply would go to an address that takes no mail).
              rsvp: false,
              partstat: 'ACCEPTED' as const,
              role: 'REQ-PARTICIPANT' as const,
            },
          ],
        }
      : {}),
  };
  const { error, value } = createEvent(attributes);
  if (error || !value) throw new Error(`email: the calendar file could not be built: ${error?.message ?? 'no output'}`);
  return {
    fileName: 'appointment.ics',
    contentType: `text/calendar; charset=utf-8; method=${entry.method}`,
    content: new TextEncoder().encode(value),
  };
}
