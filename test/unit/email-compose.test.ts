/**
 * The patient emails (issue #52): every message type in every language, times in the location's zone, HTML
 * that escapes what data says and loads nothing remote, results and rejections that say nothing about the
 * tests, and the .ics read back by an independent parser (ical.js), not by the library that wrote it.
 */
import ICAL from 'ical.js';
import { afterEach, describe, expect, it, test, vi } from 'vitest';
import { composeEmail } from '../../shared/email/compose';
import { MESSAGE_TYPES, type EmailFacts, type MessageLanguage, type MessageType } from '../../shared/email/content';

const LANGUAGES: MessageLanguage[] = ['en', 'de', 'fi'];

const facts = (type: MessageType, language: MessageLanguage = 'en', change: Partial<EmailFacts> = {}): EmailFacts => ({
  type,
  language,
  firstName: 'Aino',
  senderName: 'Praxis Sonnenschein',
  appointment: {
    scheduledAt: '2026-12-01T08:00:00Z',
    endsAt: '2026-12-01T08:15:00Z',
    timeZone: 'Europe/Berlin',
    location: { name: 'Blutabnahme Mitte', address: 'Marktstraße 1\n10115 Berlin', mapUrl: 'https://maps.example/place?id=7&z=3' },
    preparation: { fasting_hours: 12, instructions: ['Bring your insurance card', 'Drink a glass of water'] },
    specimenCount: 3,
    calendar: { uid: 'appointment-4f1c@lab.example', sequence: 2 },
    previous: { scheduledAt: '2026-11-30T13:30:00Z', timeZone: 'Europe/Berlin', locationName: 'Blutabnahme Ost' },
  },
  kit: { trackingNumber: 'JJD0099887766' },
  links: { unsubscribe: 'https://lab.example/u/tok', appointmentPage: 'https://lab.example/a/appt' },
  ...change,
});

const withAppointment = (change: Partial<NonNullable<EmailFacts['appointment']>>): Pick<EmailFacts, 'appointment'> => ({
  appointment: { ...facts('appointment_booked').appointment!, ...change },
});

/** The calendar file's VCALENDAR and its one VEVENT, as ical.js reads them. */
function calendarOf(email: ReturnType<typeof composeEmail>) {
  expect(email.attachments).toHaveLength(1);
  const file = email.attachments[0]!;
  const calendar = new ICAL.Component(ICAL.parse(new TextDecoder().decode(file.content)));
  const event = calendar.getFirstSubcomponent('vevent');
  if (!event) throw new Error('no VEVENT');
  const instant = (name: string) => (event.getFirstPropertyValue(name) as ICAL.Time).toJSDate().toISOString();
  return { file, calendar, event, instant };
}

/** A word of each message's subject, in each language: the message is the one asked for, in that language. */
const SUBJECT_WORD: Record<MessageType, Record<MessageLanguage, string>> = {
  appointment_booked: { en: 'booked', de: 'gebucht', fi: 'varattu' },
  appointment_rescheduled: { en: 'moved', de: 'verschoben', fi: 'muuttunut' },
  appointment_cancelled: { en: 'cancelled', de: 'abgesagt', fi: 'peruttu' },
  appointment_reminder: { en: 'Reminder', de: 'Erinnerung', fi: 'Muistutus' },
  home_kit_dispatched: { en: 'on its way', de: 'unterwegs', fi: 'matkalla' },
  results_ready: { en: 'results are ready', de: 'Ergebnisse liegen vor', fi: 'Tuloksesi ovat valmiina' },
  specimen_rejected: { en: 'could not be tested', de: 'nicht untersucht', fi: 'ei voitu tutkia' },
};
const GREETING: Record<MessageLanguage, string> = { en: 'Hello Aino,', de: 'Hallo Aino,', fi: 'Hei Aino,' };
const UNSUBSCRIBE: Record<MessageLanguage, string> = { en: 'Unsubscribe', de: 'abbestellen', fi: 'Peru näiden viestien tilaus' };

const EVERY_MESSAGE = MESSAGE_TYPES.flatMap((type) => LANGUAGES.map((language) => [type, language] as const));

describe('every message in every language', () => {
  test.each(EVERY_MESSAGE)('%s in %s has a subject, a text and an HTML part in that language', (type, language) => {
    const email = composeEmail(facts(type, language));
    expect(email.subject).toContain(SUBJECT_WORD[type][language]);
    expect(email.text.startsWith(`${GREETING[language]}\n`)).toBe(true);
    expect(email.html).toContain(`<html lang="${language}">`);
    expect(email.html).toContain(`<title>${email.subject}</title>`);
    expect(email.html).toContain(GREETING[language]);
    expect(email.text).toContain(UNSUBSCRIBE[language]);
    expect(email.html).toContain(UNSUBSCRIBE[language]);
  });

  test.each(EVERY_MESSAGE)('%s in %s has a footer with the sender, why it was sent and the unsubscribe link', (type, language) => {
    const email = composeEmail(facts(type, language));
    const why = { en: 'transactional emails', de: 'Service-E-Mails', fi: 'palveluviestejä' }[language];
    for (const part of [email.text, email.html]) {
      expect(part).toContain('Praxis Sonnenschein');
      expect(part).toContain(why);
    }
    expect(email.text).toMatch(/: https:\/\/lab\.example\/u\/tok\n$/);
    expect(email.html).toMatch(/<footer[^>]*>[\s\S]*<a href="https:\/\/lab\.example\/u\/tok"[\s\S]*<\/footer>/);
  });

  test.each(EVERY_MESSAGE)('%s in %s loads nothing remote: no image, no source, no stylesheet, no font', (type, language) => {
    const { html } = composeEmail(facts(type, language));
    expect(html).not.toMatch(/<img|<link|<style|<script|<iframe|<object|@import/i);
    expect(html).not.toMatch(/\ssrc\s*=/i);
    expect(html).not.toMatch(/url\(/i);
    // Every address in the HTML is a link the reader chooses to follow.
    const addresses = html.match(/https?:\/\/[^"<\s]+/g) ?? [];
    const linked = [...html.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]);
    expect(addresses.every((address) => linked.includes(address))).toBe(true);
  });
});

describe('greeting', () => {
  it('greets without a name when the first name is not known', () => {
    expect(composeEmail(facts('results_ready', 'en', { firstName: null })).text.startsWith('Hello,\n')).toBe(true);
    expect(composeEmail(facts('results_ready', 'de', { firstName: null })).text.startsWith('Guten Tag,\n')).toBe(true);
    expect(composeEmail(facts('results_ready', 'fi', { firstName: '  ' })).text.startsWith('Hei,\n')).toBe(true);
  });
});

describe('times in the location zone, as the language writes them', () => {
  it('shows 08:00 UTC in Berlin in December as 09:00 CET in English', () => {
    const email = composeEmail(facts('appointment_booked', 'en'));
    expect(email.subject).toBe('Your appointment is booked: Tuesday, 1 December 2026 at 09:00 CET');
    expect(email.text).toContain('When: Tuesday, 1 December 2026 at 09:00 CET');
  });

  it('shows 08:00 UTC in Berlin in December as 09:00 MEZ in German', () => {
    expect(composeEmail(facts('appointment_booked', 'de')).text).toContain('Wann: Dienstag, 1. Dezember 2026 um 09:00 MEZ');
  });

  it('shows 08:00 UTC in Helsinki as 10.00 in Finnish', () => {
    const email = composeEmail(facts('appointment_reminder', 'fi', withAppointment({ timeZone: 'Europe/Helsinki' })));
    expect(email.text).toContain('Aika: tiistaina 1. joulukuuta 2026 klo 10.00 UTC+2');
  });

  it('follows the zone into summer time: 08:00 UTC in Berlin in July is 10:00 CEST', () => {
    const email = composeEmail(facts('appointment_reminder', 'en', withAppointment({ scheduledAt: '2026-07-01T08:00:00Z', endsAt: '2026-07-01T08:15:00Z' })));
    expect(email.text).toContain('Wednesday, 1 July 2026 at 10:00 CEST');
  });

  it('shows the old time of a rescheduled appointment in its own zone, with its place', () => {
    const email = composeEmail(
      facts(
        'appointment_rescheduled',
        'en',
        withAppointment({ previous: { scheduledAt: '2026-11-30T13:30:00Z', timeZone: 'Europe/London', locationName: 'Clinic West' } }),
      ),
    );
    expect(email.text).toContain('Previously: Monday, 30 November 2026 at 13:30 GMT, Clinic West.');
    expect(email.text).toContain('When: Tuesday, 1 December 2026 at 09:00 CET');
  });
});

describe('what each message says', () => {
  it('a booking gives the time, the place, its address and map link, the preparation and the samples to take', () => {
    const { text, html } = composeEmail(facts('appointment_booked'));
    expect(text).toContain('Where: Blutabnahme Mitte');
    expect(text).toContain('Address: Marktstraße 1, 10115 Berlin');
    expect(html).toContain('Marktstraße 1<br>10115 Berlin');
    expect(text).toContain('Map: https://maps.example/place?id=7&z=3');
    expect(html).toContain('<a href="https://maps.example/place?id=7&amp;z=3"');
    expect(text).toContain('- Do not eat for 12 hours before your appointment.');
    expect(text).toContain('- Bring your insurance card');
    expect(text).toContain('- Drink a glass of water');
    expect(html).toMatch(/<ul[^>]*>(<li[^>]*>[^<]+<\/li>){3}<\/ul>/);
    expect(text).toContain('Samples to be taken: 3');
  });

  it('a booking without fasting, instructions or map says nothing about them', () => {
    const email = composeEmail(
      facts(
        'appointment_booked',
        'en',
        withAppointment({ preparation: { fasting_hours: 0, instructions: [] }, location: { name: 'Lab', address: 'Street 1', mapUrl: null } }),
      ),
    );
    expect(email.text).not.toMatch(/How to prepare|Do not eat|Map:/);
  });

  it('links to the appointment page when there is one, and only then', () => {
    expect(composeEmail(facts('appointment_booked')).text).toContain('View or change your appointment: https://lab.example/a/appt');
    const without = composeEmail(facts('appointment_booked', 'en', { links: { unsubscribe: 'https://lab.example/u/tok' } }));
    expect(without.text).not.toContain('View or change');
    expect(without.html).not.toContain('lab.example/a/');
  });

  it('a reminder says to fast first, in bold', () => {
    const { text, html } = composeEmail(facts('appointment_reminder', 'de'));
    expect(text.split('\n\n')[1]).toBe('Wichtig: Bitte essen Sie ab 12 Stunden vor Ihrem Termin nichts mehr.');
    expect(html).toContain('<strong>Wichtig:</strong> Bitte essen Sie ab 12 Stunden');
  });

  it('a dispatched kit gives its tracking number when known', () => {
    expect(composeEmail(facts('home_kit_dispatched')).text).toContain('Tracking number: JJD0099887766');
  });

  it('a dispatched kit without a tracking number mentions none', () => {
    const email = composeEmail(facts('home_kit_dispatched', 'de', { kit: { trackingNumber: null } }));
    expect(email.text).not.toContain('Sendungsnummer');
  });

  test.each(['results_ready', 'specimen_rejected'] as const)('%s names the sender and nothing of the appointment, the kit or the tests', (type) => {
    for (const language of LANGUAGES) {
      const email = composeEmail(facts(type, language));
      const all = [email.subject, email.text, email.html].join('\n');
      expect(email.text).toContain('Praxis Sonnenschein');
      for (const detail of ['Blutabnahme', 'Marktstraße', 'insurance', 'JJD0099887766', '2026', '09:00', 'maps.example', 'lab.example/a/']) {
        expect(all).not.toContain(detail);
      }
      // No number at all outside the links: no value, no count, no date.
      expect(email.text.replace(/https:\/\/\S+/g, '')).not.toMatch(/\d/);
      expect(email.attachments).toEqual([]);
    }
  });

  it('results_ready says where to read the results and that the email holds none', () => {
    const { text } = composeEmail(facts('results_ready'));
    expect(text).toContain('Praxis Sonnenschein shows them to you in their app or patient portal');
    expect(text).toContain('this email contains no results');
  });

  it('specimen_rejected asks to book again with the clinic', () => {
    expect(composeEmail(facts('specimen_rejected')).text).toContain('Please book a new appointment with Praxis Sonnenschein');
  });
});

describe('HTML escaping', () => {
  it('escapes a location name with a script tag and a first name with an ampersand', () => {
    const email = composeEmail(
      facts('appointment_booked', 'en', {
        firstName: 'Aino & Veikko',
        ...withAppointment({ location: { name: '<script>alert(1)</script>', address: 'A "quoted" street', mapUrl: null } }),
      }),
    );
    expect(email.html).not.toContain('<script');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.html).toContain('Hello Aino &amp; Veikko,');
    expect(email.html).toContain('A &quot;quoted&quot; street');
    expect(email.text).toContain('Hello Aino & Veikko,');
  });

  it('keeps a map link with a quote inside its attribute', () => {
    const email = composeEmail(
      facts('appointment_booked', 'en', withAppointment({ location: { name: 'L', address: 'A', mapUrl: 'https://maps.example/?q="><b>x' } })),
    );
    expect(email.html).toContain('href="https://maps.example/?q=&quot;&gt;&lt;b&gt;x"');
    expect(email.html).not.toContain('<b>');
  });

  it('links no map address that is not http or https', () => {
    const email = composeEmail(facts('appointment_booked', 'en', withAppointment({ location: { name: 'L', address: 'A', mapUrl: 'javascript:alert(1)' } })));
    expect(email.html).not.toContain('javascript:');
    expect(email.text).not.toContain('javascript:');
  });
});

describe('the calendar file, read by ical.js', () => {
  it('a booking attaches a REQUEST with the UID, SEQUENCE, UTC start and end and the location', () => {
    const { file, calendar, event, instant } = calendarOf(composeEmail(facts('appointment_booked', 'de')));
    expect(file.fileName).toBe('appointment.ics');
    expect(file.contentType).toBe('text/calendar; charset=utf-8; method=REQUEST');
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(event.getFirstPropertyValue('uid')).toBe('appointment-4f1c@lab.example');
    expect(event.getFirstPropertyValue('sequence')).toBe(2);
    expect(instant('dtstart')).toBe('2026-12-01T08:00:00.000Z');
    expect(instant('dtend')).toBe('2026-12-01T08:15:00.000Z');
    expect(event.getFirstPropertyValue('location')).toBe('Blutabnahme Mitte, Marktstraße 1, 10115 Berlin');
    expect(event.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(event.getFirstPropertyValue('summary')).toBe('Labortermin');
    expect(event.getFirstPropertyValue('description')).toContain('Bitte essen Sie ab 12 Stunden');
  });

  it('names the sender as ORGANIZER and the patient as an ATTENDEE who accepted, when the facts give them (RFC 5546)', () => {
    const calendar = {
      uid: 'appointment-4f1c@lab.example',
      sequence: 0,
      organizer: { name: 'Praxis Sonnenschein', email: 'no-reply@lab.example' },
      attendee: { name: 'Aino', email: 'aino@example.com' },
    };
    const { event } = calendarOf(composeEmail({ ...facts('appointment_booked'), ...withAppointment({ calendar }) }));
    expect(String(event.getFirstPropertyValue('organizer')).toLowerCase()).toBe('mailto:no-reply@lab.example');
    expect(event.getFirstProperty('organizer')?.getParameter('cn')).toBe('Praxis Sonnenschein');
    expect(String(event.getFirstPropertyValue('attendee')).toLowerCase()).toBe('mailto:aino@example.com');
    expect(event.getFirstProperty('attendee')?.getParameter('partstat')).toBe('ACCEPTED');
  });

  it('a reschedule attaches a REQUEST with the same UID, the higher SEQUENCE and the new time', () => {
    const email = composeEmail(
      facts(
        'appointment_rescheduled',
        'en',
        withAppointment({
          scheduledAt: '2026-12-03T12:30:00Z',
          endsAt: '2026-12-03T12:45:00Z',
          calendar: { uid: 'appointment-4f1c@lab.example', sequence: 3 },
        }),
      ),
    );
    const { calendar, event, instant } = calendarOf(email);
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(event.getFirstPropertyValue('uid')).toBe('appointment-4f1c@lab.example');
    expect(event.getFirstPropertyValue('sequence')).toBe(3);
    expect(instant('dtstart')).toBe('2026-12-03T12:30:00.000Z');
    expect(instant('dtend')).toBe('2026-12-03T12:45:00.000Z');
  });

  it('a cancellation attaches a CANCEL with STATUS:CANCELLED, the same UID and the higher SEQUENCE', () => {
    const email = composeEmail(facts('appointment_cancelled', 'fi', withAppointment({ calendar: { uid: 'appointment-4f1c@lab.example', sequence: 4 } })));
    const { file, calendar, event } = calendarOf(email);
    expect(file.contentType).toBe('text/calendar; charset=utf-8; method=CANCEL');
    expect(calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(event.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(event.getFirstPropertyValue('uid')).toBe('appointment-4f1c@lab.example');
    expect(event.getFirstPropertyValue('sequence')).toBe(4);
  });

  it('stamps DTSTAMP with the change instant given, not the clock', () => {
    const email = composeEmail(
      facts('appointment_booked', 'en', withAppointment({ calendar: { uid: 'u@lab.example', sequence: 0, stampedAt: '2026-11-20T10:11:12Z' } })),
    );
    expect(calendarOf(email).instant('dtstamp')).toBe('2026-11-20T10:11:12.000Z');
  });

  it('keeps commas, semicolons and backslashes of a place in its LOCATION', () => {
    const location = { name: 'Lab; Clinic, Ward 3 \\ B', address: 'Street 1', mapUrl: null };
    const { event } = calendarOf(composeEmail(facts('appointment_booked', 'en', withAppointment({ location }))));
    expect(event.getFirstPropertyValue('location')).toBe('Lab; Clinic, Ward 3 \\ B, Street 1');
  });

  test.each(['appointment_reminder', 'home_kit_dispatched', 'results_ready', 'specimen_rejected'] as const)('%s attaches no calendar file', (type) => {
    expect(composeEmail(facts(type)).attachments).toEqual([]);
  });
});

describe('determinism and refusals', () => {
  afterEach(() => vi.useRealTimers());

  it('composes the same bytes for the same facts, whatever the clock says', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const first = composeEmail(facts('appointment_rescheduled', 'fi'));
    vi.setSystemTime(new Date('2027-06-15T12:34:56Z'));
    const second = composeEmail(facts('appointment_rescheduled', 'fi'));
    expect(second).toEqual(first);
  });

  it('refuses an appointment message without the appointment', () => {
    expect(() => composeEmail(facts('appointment_booked', 'en', { appointment: undefined }))).toThrow(/needs the appointment/);
  });

  it('refuses a message without an unsubscribe link', () => {
    expect(() => composeEmail(facts('results_ready', 'en', { links: { unsubscribe: '' } }))).toThrow(/unsubscribe/);
  });

  it('throws when ics refuses the calendar entry, rather than sending the email without it', () => {
    expect(() => composeEmail(facts('appointment_booked', 'en', withAppointment({ calendar: { uid: 'u@lab.example', sequence: 2 ** 31 } })))).toThrow(
      /calendar file/,
    );
  });
});
