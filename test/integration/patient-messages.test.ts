/**
 * The patient's emails (issue #52) from the real flows: requests through the local API, the events they put
 * (EventBridge is the one part replaced) handed to the message consumer as SQS delivers them, every email
 * read back from the SES emulator (aws-ses-v2-local) — its .ics by ical.js, its MIME by mailparser.
 */
import { allEmails, attachmentText, emailsTo, rejectNextSend, throttleNextSends } from '../support/ses';
import { createSecretKey, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as emailFeedback } from '../../functions/events/email-feedback';
import { handler as patientMessages } from '../../functions/events/patient-messages';
import { BIOMARKERS, PANELS } from '../../infra/local/seed-data';
import { config } from '../../shared/config';
import { SANDBOX_EVENT_SOURCE } from '../../shared/events/event-source';
import { pageMessages } from '../../shared/store/messages';
import { dueReminders } from '../../shared/store/reminders';
import { inRealm } from '../../shared/sandbox';
import { sendDueReminders } from '../../shared/usecases/patient-messages';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_MITTE, HELSINKI_KAMPPI, seedDemoData } from '../support/fixtures';
import { clinical, deliver, report } from '../support/lab';
import { confirmDraw, drawableAppointment, slotIn } from '../support/scenario';
import { eventBridgeEvent, sqsEvent } from '../support/webhooks';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey({ locationGroups: ['berlin', 'helsinki'] });
});

type Language = 'en' | 'de' | 'fi';

/** A person who said yes to emails, with an address of their own (so a test reads only its own mail). */
async function consentingProfile(options: { language?: Language; consent?: boolean | null; email?: string | null } = {}) {
  const email = options.email === undefined ? `patient-${randomUUID()}@example.com` : options.email;
  const created = await api.post(
    '/api/v1/profiles',
    { profile_group_slug: 'demo-clinic', first_name: 'Anna', last_name: 'Patient', date_of_birth: '1980-02-03', email, language: options.language ?? 'en' },
    key,
  );
  expect(created.status).toBe(201);
  const consent = options.consent === undefined ? true : options.consent;
  if (consent !== null) expect((await api.patch(`/api/v1/profiles/${created.body.id}`, { transactional_emails_enabled: consent }, key)).status).toBe(200);
  return { id: created.body.id as string, email: email as string };
}

/** Hands every event put since the last call to the message consumer, as the queue would: one SQS batch. */
async function deliverEvents(): Promise<void> {
  const entries = eventBridge.entries();
  eventBridge.client.resetHistory();
  if (entries.length === 0) return;
  const result = await patientMessages(sqsEvent(entries.map((entry) => JSON.stringify(eventBridgeEvent(entry)))));
  expect(result?.batchItemFailures).toEqual([]);
}

async function book(profileId: string, locationId = BERLIN_MITTE, days = 7): Promise<string> {
  const res = await api.post('/api/v1/appointments', { profile_id: profileId, location_id: locationId, scheduled_at: slotIn(days, locationId) }, key);
  expect(res.status).toBe(201);
  await deliverEvents();
  return res.body.id;
}

const messagesOf = async (profileId: string) =>
  (await pageMessages(profileId, { limit: 50, binding: { reader: 'test', secret: createSecretKey(Buffer.alloc(32)) } })).items;

function calendarOf(email: { attachments: { filename: string; content: string }[] }) {
  const ics = email.attachments.find((attachment) => attachment.filename.endsWith('.ics'));
  expect(ics).toBeDefined();
  const calendar = new ICAL.Component(ICAL.parse(attachmentText(ics!)));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event.getFirstPropertyValue('uid'),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    status: event.getFirstPropertyValue('status'),
  };
}

describe('an appointment booked by a person who consented', () => {
  it('sends one appointment_booked email to their address, from the clinic, with a REQUEST .ics for the appointment', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = await book(person.id);
    const [email, ...more] = await emailsTo(person.email);
    expect(more).toEqual([]);
    expect(email!.from).toContain('no-reply@lab.example.com');
    expect(calendarOf(email!)).toMatchObject({ method: 'REQUEST', uid: `${id}@lab-api`, status: 'CONFIRMED' });
    expect(await messagesOf(person.id)).toMatchObject([{ type: 'appointment_booked', status: 'sent', channel: 'email', subject: email!.subject }]);
  });

  it('carries List-Unsubscribe with a one-click URL and List-Unsubscribe-Post, as RFC 8058 asks', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    await book(person.id);
    const [email] = await emailsTo(person.email);
    const headers = Object.fromEntries((email!.headers ?? []).map(({ name, value }) => [name, value]));
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(headers['List-Unsubscribe']).toMatch(/^<https:\/\/api\.lab\.example\.com\/u\/[A-Za-z0-9_-]{43}>$/);
  });

  it('moves the calendar entry on a reschedule: the same UID, a higher SEQUENCE, the new start', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = await book(person.id);
    const to = slotIn(9);
    expect((await api.patch(`/api/v1/appointments/${id}`, { scheduled_at: to }, key)).status).toBe(200);
    await deliverEvents();
    const [booked, moved] = await emailsTo(person.email);
    expect(calendarOf(moved!)).toMatchObject({ method: 'REQUEST', uid: `${id}@lab-api`, start: new Date(to).toISOString() });
    expect(calendarOf(moved!).sequence).toBeGreaterThan(calendarOf(booked!).sequence);
  });

  it('cancels the calendar entry when the appointment is cancelled: METHOD:CANCEL, STATUS:CANCELLED, the same UID', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = await book(person.id);
    expect((await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'Patient ill' }, key)).status).toBe(200);
    await deliverEvents();
    const emails = await emailsTo(person.email);
    expect(calendarOf(emails.at(-1)!)).toMatchObject({ method: 'CANCEL', status: 'CANCELLED', uid: `${id}@lab-api` });
    expect((await messagesOf(person.id)).map((message) => message.type)).toEqual(['appointment_cancelled', 'appointment_booked']);
  });
});

describe("the appointment's page link (issue #53)", () => {
  /** The page's link as test/support/ses.ts names its origin: the 43-character token, whole. */
  const PAGE_LINK = /https:\/\/patients\.lab\.example\.com\/p\/([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;

  it("is in the booking email's text and HTML when PATIENT_PAGE_ORIGIN is set, and opens that appointment's page", async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = await book(person.id);
    const [email] = await emailsTo(person.email);
    const inText = PAGE_LINK.exec(email!.body.text ?? '');
    const inHtml = PAGE_LINK.exec(email!.body.html ?? '');
    expect(inText, email!.body.text).not.toBeNull();
    expect(inHtml?.[1]).toBe(inText![1]);
    // The same path on the API (the page's origin serves the stage's /p/{token}): that appointment's page.
    const page = await api.request('GET', `/p/${inText![1]}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<html lang="en">');
    const log = await api.get(`/api/v1/profiles/${person.id}/access-log`, key);
    expect(log.body).toContainEqual(expect.objectContaining({ route: 'getPatientPage', resource: `appointment ${id}` }));
  });

  it('is in no email of a stage that names no page origin', async () => {
    // The sender as a stage without patientPageOrigin loads it: its modules read afresh, PATIENT_PAGE_ORIGIN unset.
    const origin = process.env.PATIENT_PAGE_ORIGIN;
    delete process.env.PATIENT_PAGE_ORIGIN;
    vi.resetModules();
    let withoutPage: typeof patientMessages;
    try {
      ({ handler: withoutPage } = await import('../../functions/events/patient-messages'));
    } finally {
      process.env.PATIENT_PAGE_ORIGIN = origin;
    }
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const res = await api.post('/api/v1/appointments', { profile_id: person.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key);
    expect(res.status).toBe(201);
    const entries = eventBridge.entries();
    eventBridge.client.resetHistory();
    expect((await withoutPage(sqsEvent(entries.map((entry) => JSON.stringify(eventBridgeEvent(entry))))))?.batchItemFailures).toEqual([]);
    const [email, ...more] = await emailsTo(person.email);
    expect(more).toEqual([]);
    expect(await messagesOf(person.id)).toMatchObject([{ type: 'appointment_booked', status: 'sent' }]);
    const everything = [email!.body.text, email!.body.html, ...email!.attachments.map(attachmentText)].join('\n');
    expect(everything).not.toMatch(/\/p\/[A-Za-z0-9_-]{43}/);
    expect(everything).not.toContain('View or change your appointment');
    // The unsubscribe link is still there: only the page's is left out.
    expect(everything).toMatch(/https:\/\/api\.lab\.example\.com\/u\/[A-Za-z0-9_-]{43}/);
  });
});

describe('consent and reach', () => {
  it('sends nothing to a person who never answered (transactional_emails_enabled null), and records skipped_no_consent', async () => {
    const person = await consentingProfile({ consent: null });
    eventBridge.client.resetHistory();
    await book(person.id);
    expect(await emailsTo(person.email)).toEqual([]);
    expect(await messagesOf(person.id)).toMatchObject([{ type: 'appointment_booked', status: 'skipped_no_consent', subject: null, sent_at: null }]);
  });

  it('sends nothing to a person who said no', async () => {
    const person = await consentingProfile({ consent: false });
    eventBridge.client.resetHistory();
    await book(person.id);
    expect(await emailsTo(person.email)).toEqual([]);
  });

  it('records skipped_no_address for a person without an email address', async () => {
    const person = await consentingProfile({ email: null });
    eventBridge.client.resetHistory();
    await book(person.id);
    expect(await messagesOf(person.id)).toMatchObject([{ status: 'skipped_no_address' }]);
  });

  it('writes nothing to an erased person, and records nothing about them', async () => {
    const person = await consentingProfile();
    const res = await api.post('/api/v1/appointments', { profile_id: person.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key);
    expect((await api.post(`/api/v1/profiles/${person.id}/erase`, {}, await apiKey({ scopes: ['PROFILES_ERASE'] }))).status).toBe(200);
    await deliverEvents();
    expect(res.status).toBe(201);
    expect(await emailsTo(person.email)).toEqual([]);
    expect(await messagesOf(person.id)).toEqual([]);
  });

  it('sends nothing for sandbox data: the message is recorded simulated, with the subject it would have had', async () => {
    const sandboxKey = await apiKey({ sandbox: true });
    const email = `sandbox-${randomUUID()}@example.com`;
    const created = await api.post(
      '/api/v1/profiles',
      { profile_group_slug: 'demo-clinic', first_name: 'Sandy', last_name: 'Box', date_of_birth: '1980-02-03', email },
      sandboxKey,
    );
    expect(created.status).toBe(201);
    await api.patch(`/api/v1/profiles/${created.body.id}`, { transactional_emails_enabled: true }, sandboxKey);
    eventBridge.client.resetHistory();
    expect(
      (await api.post('/api/v1/appointments', { profile_id: created.body.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, sandboxKey)).status,
    ).toBe(201);
    const entries = eventBridge.entries();
    expect(entries.every((entry) => entry.Source === SANDBOX_EVENT_SOURCE)).toBe(true);
    await deliverEvents();
    expect(await emailsTo(email)).toEqual([]);
    const [message] = await inRealm('sandbox', () => messagesOf(created.body.id));
    expect(message).toMatchObject({ type: 'appointment_booked', status: 'simulated', subject: expect.any(String) });
  });
});

describe('sent once', () => {
  it('sends one email for an event delivered twice (a redelivery, a redrive)', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    await api.post('/api/v1/appointments', { profile_id: person.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key);
    const bodies = eventBridge.entries().map((entry) => JSON.stringify(eventBridgeEvent(entry)));
    await patientMessages(sqsEvent(bodies));
    await patientMessages(sqsEvent(bodies));
    expect(await emailsTo(person.email)).toHaveLength(1);
  });

  it('sends one email when two consumers handle the same event at once', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    await api.post('/api/v1/appointments', { profile_id: person.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key);
    const bodies = eventBridge.entries().map((entry) => JSON.stringify(eventBridgeEvent(entry)));
    await Promise.all(Array.from({ length: 4 }, () => patientMessages(sqsEvent(bodies))));
    expect(await emailsTo(person.email)).toHaveLength(1);
  });

  it('reports a throttled send as a batch failure, keeps the message pending, and sends it once on the next receive', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    await api.post('/api/v1/appointments', { profile_id: person.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key);
    const bodies = eventBridge.entries().map((entry) => JSON.stringify(eventBridgeEvent(entry)));
    throttleNextSends(1);
    const first = await patientMessages(sqsEvent(bodies));
    expect(first?.batchItemFailures).toHaveLength(1);
    expect(await emailsTo(person.email)).toEqual([]);
    expect(await messagesOf(person.id)).toMatchObject([{ status: 'pending' }]);
    const again = await patientMessages(sqsEvent(bodies));
    expect(again?.batchItemFailures).toEqual([]);
    expect(await emailsTo(person.email)).toHaveLength(1);
    expect(await messagesOf(person.id)).toMatchObject([{ status: 'sent' }]);
  });

  it('marks a message SES refuses for good failed, and does not try it again', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    await api.post('/api/v1/appointments', { profile_id: person.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key);
    const bodies = eventBridge.entries().map((entry) => JSON.stringify(eventBridgeEvent(entry)));
    rejectNextSend();
    expect((await patientMessages(sqsEvent(bodies)))?.batchItemFailures).toEqual([]);
    await patientMessages(sqsEvent(bodies));
    expect(await emailsTo(person.email)).toEqual([]);
    expect(await messagesOf(person.id)).toMatchObject([{ status: 'failed' }]);
  });
});

describe('bounces and complaints', () => {
  const sesEvent = (file: string, messageId: string, address: string) => {
    const event = JSON.parse(readFileSync(`test/fixtures/${file}`, 'utf8').replaceAll('recipient@example.com', address));
    event.detail.mail.messageId = messageId;
    return event;
  };

  it('marks a permanently bounced message, shows email_status bounced on the profile, and suppresses the next message', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = await book(person.id);
    const [email] = await emailsTo(person.email);
    await emailFeedback(sesEvent('ses-bounce-event.json', email!.messageId, person.email));
    expect((await api.get(`/api/v1/profiles/${person.id}`, key)).body.email_status).toBe('bounced');
    expect((await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'Patient ill' }, key)).status).toBe(200);
    await deliverEvents();
    expect(await emailsTo(person.email)).toHaveLength(1);
    expect((await messagesOf(person.id)).map((message) => message.status)).toEqual(['suppressed', 'bounced']);
  });

  it('marks a complaint, and suppresses the address for every profile that holds it', async () => {
    const first = await consentingProfile();
    eventBridge.client.resetHistory();
    await book(first.id);
    const [email] = await emailsTo(first.email);
    await emailFeedback(sesEvent('ses-complaint-event.json', email!.messageId, first.email));
    const second = await consentingProfile({ email: first.email.toUpperCase() });
    eventBridge.client.resetHistory();
    await book(second.id);
    expect(await emailsTo(first.email)).toHaveLength(1);
    expect(await messagesOf(second.id)).toMatchObject([{ status: 'suppressed' }]);
    expect((await api.get(`/api/v1/profiles/${first.id}`, key)).body.email_status).toBe('complained');
  });

  it('shows email_status complained on a profile created later with an address that complained', async () => {
    const first = await consentingProfile();
    eventBridge.client.resetHistory();
    await book(first.id);
    const [email] = await emailsTo(first.email);
    await emailFeedback(sesEvent('ses-complaint-event.json', email!.messageId, first.email));
    const second = await consentingProfile({ email: first.email });
    expect((await api.get(`/api/v1/profiles/${second.id}`, key)).body.email_status).toBe('complained');
  });

  it('suppresses the address of a bounce whose message SES named but we never recorded as sent', async () => {
    const person = await consentingProfile();
    await emailFeedback(sesEvent('ses-bounce-event.json', `unknown-${randomUUID()}`, person.email));
    eventBridge.client.resetHistory();
    await book(person.id);
    expect(await emailsTo(person.email)).toEqual([]);
    expect(await messagesOf(person.id)).toMatchObject([{ status: 'suppressed' }]);
  });
});

describe('reminders', () => {
  const hours = (n: number) => n * 3_600_000;
  const before = config.email.reminderHoursBefore;

  it('files a reminder due reminderHoursBefore the start, and the sweep at that time sends it once', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = await book(person.id, BERLIN_MITTE, 5);
    const start = Date.parse((await api.get(`/api/v1/appointments/${id}`, key)).body.scheduled_at);
    const dueAt = new Date(start - hours(before));
    expect((await dueReminders(dueAt, 1000)).find((reminder) => reminder.appointment_id === id)).toBeUndefined();
    const due = (await dueReminders(new Date(dueAt.getTime() + 1), 1000)).filter((reminder) => reminder.appointment_id === id);
    expect(due).toMatchObject([{ scheduled_at: new Date(start).toISOString().replace('.000Z', 'Z'), due_at: dueAt.toISOString() }]);
    // Two sweeps at once, then a later one: the claim, not the index, keeps it to one email.
    await Promise.all([sendDueReminders(new Date(dueAt.getTime() + 1), 1000), sendDueReminders(new Date(dueAt.getTime() + 1), 1000)]);
    await sendDueReminders(new Date(dueAt.getTime() + 60_000), 1000);
    expect((await messagesOf(person.id)).map((message) => message.type)).toEqual(['appointment_reminder', 'appointment_booked']);
    expect(await emailsTo(person.email)).toHaveLength(2);
  });

  it('moves the reminder with a reschedule', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = await book(person.id, BERLIN_MITTE, 5);
    const to = slotIn(8);
    await api.patch(`/api/v1/appointments/${id}`, { scheduled_at: to }, key);
    await deliverEvents();
    const far = new Date(Date.parse(to));
    expect((await dueReminders(far, 1000)).filter((reminder) => reminder.appointment_id === id)).toMatchObject([
      { due_at: new Date(Date.parse(to) - hours(before)).toISOString() },
    ]);
  });

  it.each(['cancelled', 'drawn'] as const)('removes the reminder once the appointment is %s', async (what) => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = what === 'drawn' ? await drawableAppointment(api, key, { profileId: person.id }) : await book(person.id);
    await deliverEvents();
    const filed = async () => (await dueReminders(new Date(Date.now() + hours(24 * 400)), 1000)).filter((reminder) => reminder.appointment_id === id);
    expect(await filed()).toHaveLength(1);
    if (what === 'cancelled') await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'Patient ill' }, key);
    else await confirmDraw(api, key, id);
    await deliverEvents();
    expect(await filed()).toEqual([]);
  });

  it('sends the reminder right after the confirmation for a booking inside the window but more than 2 hours ahead', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    // Tomorrow is inside this file's 48-hour window (test/support/ses.ts) and more than 2 hours away.
    await book(person.id, BERLIN_MITTE, 1);
    expect((await messagesOf(person.id)).map((message) => message.type).sort()).toEqual(['appointment_booked', 'appointment_reminder']);
  });
});

describe('reminders, sent once', () => {
  it('sends one reminder for an in-window booking whose event is delivered twice', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    await api.post('/api/v1/appointments', { profile_id: person.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(1) }, key);
    const bodies = eventBridge.entries().map((entry) => JSON.stringify(eventBridgeEvent(entry)));
    await patientMessages(sqsEvent(bodies));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await patientMessages(sqsEvent(bodies));
    expect((await messagesOf(person.id)).map((message) => message.type).sort()).toEqual(['appointment_booked', 'appointment_reminder']);
    expect(await emailsTo(person.email)).toHaveLength(2);
  });

  it('keeps a reminder whose send was throttled in the index, and the next sweep sends it once', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = await book(person.id, BERLIN_MITTE, 5);
    const start = Date.parse((await api.get(`/api/v1/appointments/${id}`, key)).body.scheduled_at);
    const at = new Date(start - config.email.reminderHoursBefore * 3_600_000 + 1_000);
    throttleNextSends(1);
    expect(await sendDueReminders(at, 1000)).toBe(0);
    expect((await dueReminders(at, 1000)).map((reminder) => reminder.appointment_id)).toContain(id);
    await sendDueReminders(new Date(at.getTime() + 1_000), 1000);
    expect((await messagesOf(person.id)).map((message) => [message.type, message.status])).toEqual([
      ['appointment_reminder', 'sent'],
      ['appointment_booked', 'sent'],
    ]);
    expect((await dueReminders(at, 1000)).map((reminder) => reminder.appointment_id)).not.toContain(id);
  });

  it('sends no booking email for an appointment cancelled before its booking event was handled', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const res = await api.post('/api/v1/appointments', { profile_id: person.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key);
    const booked = eventBridge.entries().map((entry) => JSON.stringify(eventBridgeEvent(entry)));
    eventBridge.client.resetHistory();
    await api.post(`/api/v1/appointments/${res.body.id}/cancel`, { cancellation_reason: 'Patient ill' }, key);
    await deliverEvents();
    await patientMessages(sqsEvent(booked));
    const emails = await emailsTo(person.email);
    expect(emails).toHaveLength(1);
    expect(calendarOf(emails[0]!).method).toBe('CANCEL');
    expect(await messagesOf(person.id)).toMatchObject([
      { type: 'appointment_cancelled', status: 'sent' },
      { type: 'appointment_booked', status: 'failed' },
    ]);
  });
});

describe('every message type, in every language', () => {
  it.each(['en', 'de', 'fi'] as const)('reaches the SES emulator from the real flows in %s', async (language) => {
    const person = await consentingProfile({ language });
    eventBridge.client.resetHistory();
    // Booked, moved, reminded (the sweep at its time), then drawn and answered: results ready.
    const id = await drawableAppointment(api, key, { profileId: person.id, locationId: language === 'fi' ? HELSINKI_KAMPPI : BERLIN_MITTE });
    await deliverEvents();
    await api.patch(`/api/v1/appointments/${id}`, { scheduled_at: slotIn(10, language === 'fi' ? HELSINKI_KAMPPI : BERLIN_MITTE) }, key);
    await deliverEvents();
    const start = Date.parse((await api.get(`/api/v1/appointments/${id}`, key)).body.scheduled_at);
    await sendDueReminders(new Date(start - config.email.reminderHoursBefore * 3_600_000 + 1_000), 1000);
    await confirmDraw(api, key, id);
    await deliver(report(id, { clinical_results: [clinical(1, 42.5)] }));
    await deliverEvents();
    // A second appointment, cancelled; a third, whose specimen the lab rejects; a home kit, dispatched.
    const cancelled = await book(person.id, language === 'fi' ? HELSINKI_KAMPPI : BERLIN_MITTE, 12);
    await api.post(`/api/v1/appointments/${cancelled}/cancel`, { cancellation_reason: 'Patient ill' }, key);
    const rejected = await drawableAppointment(api, key, { profileId: person.id, locationId: language === 'fi' ? HELSINKI_KAMPPI : BERLIN_MITTE });
    await confirmDraw(api, key, rejected);
    await deliver(report(rejected, { rejection: { reason_code: 'haemolysed' } }));
    const kit = await api.post('/api/v1/home-kit-orders', { profile_id: person.id, delivery_address: { location_id: BERLIN_MITTE } }, key);
    expect(kit.status).toBe(201);
    await api.post(
      `/api/v1/home-kit-orders/${kit.body.id}/biomarkers`,
      { biomarker_ids: [BIOMARKERS.find((b) => b.collection_methods.includes('home'))!.id] },
      key,
    );
    await api.post(`/api/v1/home-kit-orders/${kit.body.id}/dispatch`, { tracking_number: 'DHL-0042' }, key);
    await deliverEvents();
    const types = new Set((await messagesOf(person.id)).filter((message) => message.status === 'sent').map((message) => message.type));
    expect([...types].sort()).toEqual([
      'appointment_booked',
      'appointment_cancelled',
      'appointment_reminder',
      'appointment_rescheduled',
      'home_kit_dispatched',
      'results_ready',
      'specimen_rejected',
    ]);
    expect(await emailsTo(person.email)).toHaveLength((await messagesOf(person.id)).filter((message) => message.status === 'sent').length);
  });
});

describe('what an email never says', () => {
  it('holds no result value, test name or result comment, in any email the emulator received', async () => {
    const person = await consentingProfile();
    eventBridge.client.resetHistory();
    const id = await drawableAppointment(api, key, { profileId: person.id });
    await confirmDraw(api, key, id);
    await deliver(report(id, { clinical_results: [{ ...clinical(1, 987.65), comment: 'Markedly raised ferritin' }] }));
    await deliverEvents();
    expect((await messagesOf(person.id)).map((message) => message.type)).toContain('results_ready');
    // Every part of every email, its calendar files included; a value written with a decimal point or comma,
    // which no token, id or URL of an email holds.
    // The links' tokens left out: 43 random characters may spell a short test name (TSH) by chance.
    const everything = (await allEmails())
      .map((email) => [email.subject, email.body.text, email.body.html, ...email.attachments.map(attachmentText)].join('\n'))
      .join('\n')
      .replace(/\/(u|p)\/[A-Za-z0-9_-]{43}/g, '/$1/{token}');
    expect(everything).not.toMatch(/987[.,]65/);
    expect(everything).not.toContain('Markedly raised');
    for (const name of [...BIOMARKERS, ...PANELS].map((test) => test.name)) expect(everything).not.toContain(name);
  });
});
