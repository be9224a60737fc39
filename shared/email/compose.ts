/**
 * shared/email turns the facts of a patient message into the email (issue #52): subject, plain text, HTML and
 * the calendar file, in the profile's language. Pure: no I/O, no clock (the same facts give the same bytes,
 * so a retried send is the same email), nothing from store/ or the SES client; the use case
 * (shared/usecases/patient-messages.ts) gathers the facts and sends.
 *
 * This module decides what each message type says, from texts.ts's words; message.ts writes it as text,
 * html.ts as HTML, calendar.ts writes the .ics, dates.ts the times. A message says only what its facts
 * carry: results_ready and specimen_rejected are composed without the appointment, kit or any result, so
 * they cannot show a value, a test name or a place even when the facts hold one.
 */
import { calendarAttachment, type CalendarMethod } from './calendar';
import type { AppointmentFacts, ComposedEmail, EmailFacts, MessageType } from './content';
import { formatAppointmentTime } from './dates';
import { renderHtml } from './html';
import { renderText, webAddress, type Block, type DetailRow, type Message } from './message';
import { EMAIL_WORDS, type EmailWords } from './texts';

type Attachment = ComposedEmail['attachments'][number];

interface Body {
  subject: string;
  heading: string;
  blocks: Block[];
  calendar?: { method: CalendarMethod; appointment: AppointmentFacts };
}

export function composeEmail(facts: EmailFacts): ComposedEmail {
  const words = EMAIL_WORDS[facts.language];
  const unsubscribe = webAddress(facts.links.unsubscribe);
  // RFC 8058 and the footer promise a way out: an email without one is not sent.
  if (!unsubscribe) throw new Error('email: an unsubscribe link (http or https) is required');
  const body = BODIES[facts.type](facts, words);
  const message: Message = {
    language: facts.language,
    subject: body.subject,
    heading: body.heading,
    greeting: words.greeting(facts.firstName?.trim() || null),
    blocks: body.blocks,
    footer: { lines: [words.footer.from(facts.senderName), words.footer.why], unsubscribe: { text: words.footer.unsubscribe, href: unsubscribe } },
  };
  const attachments: Attachment[] = body.calendar
    ? [
        calendarAttachment(body.calendar.appointment, {
          method: body.calendar.method,
          title: words.calendarTitle,
          description: body.calendar.method === 'CANCEL' ? facts.senderName : calendarDescription(body.calendar.appointment, words, facts),
        }),
      ]
    : [];
  return { subject: message.subject, text: renderText(message), html: renderHtml(message), attachments };
}

// ── Each message type ─────────────────────────────────────────────────────────────────────────────────────

const BODIES: Record<MessageType, (facts: EmailFacts, words: EmailWords) => Body> = {
  appointment_booked(facts, words) {
    const appointment = appointmentOf(facts);
    const text = words.booked;
    return {
      subject: text.subject(when(appointment, facts)),
      heading: text.heading,
      blocks: [
        paragraph(text.intro),
        appointmentDetails(appointment, facts, words),
        ...preparation(appointment, words),
        paragraph(text.calendarNote),
        ...appointmentLink(facts, words.manageAppointment),
      ],
      calendar: { method: 'REQUEST', appointment },
    };
  },

  appointment_rescheduled(facts, words) {
    const appointment = appointmentOf(facts);
    const text = words.rescheduled;
    const previous = appointment.previous;
    return {
      subject: text.subject(when(appointment, facts)),
      heading: text.heading,
      blocks: [
        paragraph(text.intro),
        appointmentDetails(appointment, facts, words),
        ...(previous
          ? [paragraph(text.previously(formatAppointmentTime(previous.scheduledAt, previous.timeZone, facts.language), previous.locationName))]
          : []),
        ...preparation(appointment, words),
        paragraph(text.calendarNote),
        ...appointmentLink(facts, words.manageAppointment),
      ],
      calendar: { method: 'REQUEST', appointment },
    };
  },

  appointment_cancelled(facts, words) {
    const appointment = appointmentOf(facts);
    const text = words.cancelled;
    return {
      subject: text.subject(when(appointment, facts)),
      heading: text.heading,
      blocks: [
        paragraph(text.intro),
        details([
          { label: words.when, lines: [when(appointment, facts)] },
          { label: words.where, lines: [appointment.location.name] },
        ]),
        paragraph(text.rebook(facts.senderName)),
        paragraph(text.calendarNote),
        ...appointmentLink(facts, words.viewAppointment),
      ],
      calendar: { method: 'CANCEL', appointment },
    };
  },

  appointment_reminder(facts, words) {
    const appointment = appointmentOf(facts);
    const text = words.reminder;
    const fasting = fastingHours(appointment);
    return {
      subject: text.subject(when(appointment, facts)),
      heading: text.heading,
      blocks: [
        // Fasting is what a reminder is most often for: said first, in bold, as well as in the list.
        ...(fasting ? [paragraph(words.fasting(fasting), words.important)] : []),
        paragraph(text.intro),
        appointmentDetails(appointment, facts, words),
        ...preparation(appointment, words),
        ...appointmentLink(facts, words.manageAppointment),
      ],
    };
  },

  home_kit_dispatched(facts, words) {
    const text = words.kitDispatched;
    const trackingNumber = facts.kit?.trackingNumber?.trim();
    return {
      subject: text.subject,
      heading: text.subject,
      blocks: [
        paragraph(text.intro),
        ...(trackingNumber ? [details([{ label: text.trackingNumber, lines: [trackingNumber] }])] : []),
        paragraph(text.instructions),
      ],
    };
  },

  results_ready(facts, words) {
    const text = words.resultsReady;
    return {
      subject: text.subject,
      heading: text.subject,
      blocks: [paragraph(text.intro), paragraph(text.whereToRead(facts.senderName)), paragraph(text.noResultsHere)],
    };
  },

  specimen_rejected(facts, words) {
    const text = words.specimenRejected;
    return {
      subject: text.subject,
      heading: text.subject,
      blocks: [paragraph(text.intro), paragraph(text.bookAgain(facts.senderName)), paragraph(text.apology)],
    };
  },
};

// ── Parts several messages share ──────────────────────────────────────────────────────────────────────────

function appointmentOf(facts: EmailFacts): AppointmentFacts {
  if (!facts.appointment) throw new Error(`email: ${facts.type} needs the appointment's facts`);
  return facts.appointment;
}

const when = (appointment: AppointmentFacts, facts: EmailFacts) => formatAppointmentTime(appointment.scheduledAt, appointment.timeZone, facts.language);

const paragraph = (text: string, lead?: string): Block => (lead ? { kind: 'paragraph', text, lead } : { kind: 'paragraph', text });

const details = (rows: DetailRow[]): Block => ({ kind: 'details', rows });

const addressLines = (appointment: AppointmentFacts) =>
  appointment.location.address
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** When, where, the address, the map link when the location has one, and how many samples are taken. */
function appointmentDetails(appointment: AppointmentFacts, facts: EmailFacts, words: EmailWords): Block {
  const map = webAddress(appointment.location.mapUrl);
  const address = addressLines(appointment);
  return details([
    { label: words.when, lines: [when(appointment, facts)] },
    { label: words.where, lines: [appointment.location.name] },
    ...(address.length ? [{ label: words.address, lines: address }] : []),
    ...(map ? [{ label: words.map, lines: [words.openMap], href: map }] : []),
    ...(appointment.specimenCount > 0 ? [{ label: words.specimens, lines: [String(appointment.specimenCount)] }] : []),
  ]);
}

const fastingHours = (appointment: AppointmentFacts): number | null => {
  const hours = appointment.preparation.fasting_hours;
  return hours && hours > 0 ? hours : null;
};

/** The preparation as the catalog gives it: fasting first, then each instruction; nothing when there is none. */
function preparationItems(appointment: AppointmentFacts, words: EmailWords): string[] {
  const fasting = fastingHours(appointment);
  const instructions = appointment.preparation.instructions.map((item) => item.trim()).filter(Boolean);
  return [...(fasting ? [words.fasting(fasting)] : []), ...instructions];
}

function preparation(appointment: AppointmentFacts, words: EmailWords): Block[] {
  const items = preparationItems(appointment, words);
  return items.length ? [{ kind: 'list', heading: words.preparation, items }] : [];
}

function appointmentLink(facts: EmailFacts, text: string): Block[] {
  const href = webAddress(facts.links.appointmentPage);
  return href ? [{ kind: 'link', text, href }] : [];
}

/** The calendar entry's notes: the preparation and the appointment's page, so they are at hand on the day. */
function calendarDescription(appointment: AppointmentFacts, words: EmailWords, facts: EmailFacts): string {
  const items = preparationItems(appointment, words);
  const page = webAddress(facts.links.appointmentPage);
  return [
    ...(items.length ? [words.preparation, ...items.map((item) => `- ${item}`)] : []),
    ...(page ? [`${words.manageAppointment}: ${page}`] : []),
    facts.senderName,
  ].join('\n');
}
