/**
 * What a patient email says (issue #52): the message types, and the facts a message is composed from. The
 * use case (shared/usecases/patient-messages.ts) gathers them; compose.ts turns them into the subject, the
 * plain text, the HTML and the calendar file, in the profile's language.
 */

export const MESSAGE_TYPES = [
  'appointment_booked',
  'appointment_rescheduled',
  'appointment_cancelled',
  'appointment_reminder',
  'home_kit_dispatched',
  'results_ready',
  'specimen_rejected',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export type MessageLanguage = 'en' | 'de' | 'fi';

/** The appointment at a location a message is about: times as UTC instants, shown in `timeZone`. */
export interface AppointmentFacts {
  scheduledAt: string;
  endsAt: string;
  /** The location's IANA time zone. */
  timeZone: string;
  location: { name: string; address: string; mapUrl: string | null };
  preparation: { fasting_hours: number | null; instructions: string[] };
  /** Tubes and cards to collect, summed (specimens_to_collect's counts). */
  specimenCount: number;
  /**
   * The calendar entry: the same UID for the appointment's whole life, SEQUENCE raised at each change.
   * `stampedAt`: when this change happened (the event's occurred_at), the entry's DTSTAMP; without it the
   * DTSTAMP is `scheduledAt`, so the same facts always give the same file.
   */
  calendar: {
    uid: string;
    sequence: number;
    stampedAt?: string;
    /**
     * RFC 5546 asks a REQUEST and a CANCEL for an ORGANIZER and the ATTENDEE: Outlook, among others, applies
     * an update or a cancellation only from the organizer of the entry it holds. The sender, and the patient.
     */
    organizer?: { name: string; email: string };
    attendee?: { name: string | null; email: string };
  };
  /** Rescheduled: where and when it was before. */
  previous?: { scheduledAt: string; timeZone: string; locationName: string };
}

export interface EmailFacts {
  type: MessageType;
  language: MessageLanguage;
  /** The greeting's name; null: a greeting without one. */
  firstName: string | null;
  /** Who the patient knows: the profile group's sender name (the clinic or partner). */
  senderName: string;
  appointment?: AppointmentFacts;
  kit?: { trackingNumber: string | null };
  links: {
    /** The one-click unsubscribe URL (RFC 8058), also shown in the footer. */
    unsubscribe: string;
    /** The patient's page of this appointment (issue #53), when the stage has one. */
    appointmentPage?: string;
  };
}

export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
  attachments: { fileName: string; contentType: string; content: Uint8Array }[];
}
