/**
 * The patient's link to their appointment (issue #53, docs/patient-page.md): issuing it, the page it opens, and
 * its reschedule and cancel, through the local server as a browser and a clinic's app call them. Times the rules
 * need in the past or close by (an ended slot, a start within 2 hours) are written into the appointment item, as
 * a move the clock made.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import * as itemKeys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_PRENZLAUER_BERG, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { captureLogs } from '../support/log-capture';
import { startLocalApi } from '../../infra/local/server';
import { logger } from '../../shared/logger';
import { CARDIOGENETICS_PANEL, createProfile, newBarcode, scheduleAppointment, slotIn } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function linkTo(appointmentId: string, body?: unknown) {
  const res = await api.request('POST', `/api/v1/appointments/${appointmentId}/patient-link`, { key, ...(body === undefined ? {} : { body }) });
  expect(res.status).toBe(201);
  return { ...(res.body as { url: string; expires_at: string }), token: tokenOf(res.body.url) };
}

async function newLink(options: Parameters<typeof scheduleAppointment>[2] = {}) {
  const id = await scheduleAppointment(api, key, options);
  return { id, ...(await linkTo(id)) };
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({ body, headers });
const reschedule = (token: string, scheduled_at: string, headers: Record<string, string> = {}) =>
  api.request('POST', `/p/${token}/reschedule`, json({ scheduled_at }, headers));
const cancel = (token: string, body: unknown = {}, headers: Record<string, string> = {}) => api.request('POST', `/p/${token}/cancel`, json(body, headers));

/** Moves the appointment's slot in the table, as time passing would (`minutes` from now, a 15-minute slot). */
async function moveSlot(appointmentId: string, minutesFromNow: number) {
  const start = new Date(Date.now() + minutesFromNow * 60_000);
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: itemKeys.appointment(appointmentId),
      UpdateExpression: 'SET scheduled_at = :start, ends_at = :end',
      ExpressionAttributeValues: { ':start': start.toISOString(), ':end': new Date(start.getTime() + 15 * 60_000).toISOString() },
    }),
  );
}

describe('POST /api/v1/appointments/{id}/patient-link', () => {
  it("answers 201 with the page's URL and an expiry at the slot's end when that comes before 30 days", async () => {
    const id = await scheduleAppointment(api, key);
    const link = await linkTo(id);
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p\/[A-Za-z0-9_-]{43}$/);
    const appointment = (await api.get(`/api/v1/appointments/${id}`, key)).body;
    // The seeded location's slots are 15 minutes; the appointment is a week away, well inside 30 days.
    expect(link.expires_at).toBe(new Date(Date.parse(appointment.scheduled_at) + 15 * 60_000).toISOString());
  });

  it('answers an expiry 30 days after issue for an appointment further away than that', async () => {
    const id = await scheduleAppointment(api, key, { scheduledAt: slotIn(40) });
    const before = Date.now();
    const link = await linkTo(id);
    expect(Date.parse(link.expires_at)).toBeGreaterThanOrEqual(before + 30 * 86_400_000 - 1000);
    expect(Date.parse(link.expires_at)).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
  });

  it("answers 409 for a home kit's appointment", async () => {
    const kitId = await kitOrder();
    await api.post(`/api/v1/home-kit-orders/${kitId}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
    await api.post(`/api/v1/home-kit-orders/${kitId}/dispatch`, { tracking_number: 'DHL-0001' }, key);
    const activated = await api.post(`/api/v1/home-kit-orders/${kitId}/activate`, { barcode: newBarcode() }, key);
    expect(activated.status).toBe(200);
    const res = await api.post(`/api/v1/appointments/${activated.body.appointment_id}/patient-link`, {}, key);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/home kit/);
  });

  it("answers 403 for an appointment outside the key's groups and 404 for an unknown one", async () => {
    const id = await scheduleAppointment(api, key);
    const other = await apiKey({ profileGroups: ['other-group'] });
    expect((await api.post(`/api/v1/appointments/${id}/patient-link`, {}, other)).status).toBe(403);
    expect((await api.post(`/api/v1/appointments/${UNKNOWN_ID}/patient-link`, {}, key)).status).toBe(404);
  });

  it('makes older links answer 404 with revoke_previous, and keeps them working without it', async () => {
    const id = await scheduleAppointment(api, key);
    const first = await linkTo(id);
    const second = await linkTo(id);
    expect((await api.request('GET', `/p/${first.token}`)).status).toBe(200);
    const third = await linkTo(id, { revoke_previous: true });
    expect((await api.request('GET', `/p/${first.token}`)).status).toBe(404);
    expect((await api.request('GET', `/p/${second.token}`)).status).toBe(404);
    expect((await api.request('GET', `/p/${third.token}`)).status).toBe(200);
  });
});

async function kitOrder(): Promise<string> {
  const res = await api.post(
    '/api/v1/home-kit-orders',
    {
      profile_id: await createProfile(api, key),
      delivery_address: { name: 'Erika Muster', street: 'Torstraße', house_number: '12a', postal_code: '10119', city: 'Berlin', country: 'DE' },
    },
    key,
  );
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('GET /p/{token}', () => {
  it("answers the page with its security headers, in the profile's language, with the first name and time and nothing else of the person", async () => {
    const profileId = await createProfile(api, key);
    expect((await api.patch(`/api/v1/profiles/${profileId}`, { language: 'de', email: 'erika@example.org' }, key)).status).toBe(200);
    const { token } = await newLink({ profileId });
    const res = await api.request('GET', `/p/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.body).toContain('<html lang="de">');
    expect(res.body).toContain('Test');
    expect(res.body).not.toContain('Patient');
    expect(res.body).not.toContain('erika@example.org');
    expect(res.body).not.toMatch(/1979|01\.10\./);
  });

  it('answers the page in English for an English profile', async () => {
    const { token } = await newLink();
    const res = await api.request('GET', `/p/${token}`);
    expect(res.body).toContain('<html lang="en">');
  });

  it('records the view in the access log, the link as its reader', async () => {
    const profileId = await createProfile(api, key);
    const { token } = await newLink({ profileId });
    expect((await api.request('GET', `/p/${token}`)).status).toBe(200);
    const log = await api.get(`/api/v1/profiles/${profileId}/access-log`, key);
    expect(log.body.some((entry: { route: string; key_id: string }) => entry.route === 'getPatientPage' && /^patient_link:/.test(entry.key_id))).toBe(true);
  });

  it('answers 404 with a page for an altered token', async () => {
    const { token } = await newLink();
    const altered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    const res = await api.request('GET', `/p/${altered}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it("answers 410 with a page once the appointment's slot has ended", async () => {
    const { id, token } = await newLink();
    await moveSlot(id, -60);
    const res = await api.request('GET', `/p/${token}`);
    expect(res.status).toBe(410);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it("shows a cancelled appointment's state, with nothing to change", async () => {
    const { id, token } = await newLink();
    expect((await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'clinic closed' }, key)).status).toBe(200);
    const res = await api.request('GET', `/p/${token}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toMatch(/name="scheduled_at"/);
  });
});

describe('POST /p/{token}/reschedule', () => {
  it('moves the appointment: the API shows the new time, and AppointmentRescheduled names the patient', async () => {
    const { id, token } = await newLink();
    const to = slotIn(3);
    const res = await reschedule(token, to);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'scheduled', scheduled_at: to, ends_at: expect.any(String) });
    expect((await api.get(`/api/v1/appointments/${id}`, key)).body.scheduled_at).toBe(to);
    const moved = eventBridge.entries().find((entry) => entry.DetailType === 'AppointmentRescheduled');
    expect(JSON.parse(moved!.Detail!)).toMatchObject({ appointment_id: id, source: 'patient', actor: null, to: { scheduled_at: to } });
  });

  it('answers 409 for a full slot', async () => {
    const to = slotIn(3, BERLIN_PRENZLAUER_BERG);
    // Fill the slot (the location's capacity) with other bookings.
    const { body: location } = await api.get(`/api/v1/locations/${BERLIN_PRENZLAUER_BERG}`, key);
    for (let seat = 0; seat < (location.capacity_per_slot ?? 1); seat += 1) await scheduleAppointment(api, key, { locationId: BERLIN_PRENZLAUER_BERG, scheduledAt: to });
    const { token } = await newLink({ locationId: BERLIN_PRENZLAUER_BERG });
    const res = await reschedule(token, to);
    expect(res.status).toBe(409);
  });

  it('answers 400 for a time that is not a slot', async () => {
    const { token } = await newLink();
    const offGrid = new Date(Date.parse(slotIn(4)) + 7 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect((await reschedule(token, offGrid)).status).toBe(400);
  });

  it('cannot move the appointment to another location: the body names none', async () => {
    const { id, token } = await newLink();
    const res = await api.request('POST', `/p/${token}/reschedule`, json({ scheduled_at: slotIn(3), location_id: BERLIN_PRENZLAUER_BERG }));
    expect(res.status).toBe(400);
    expect((await api.get(`/api/v1/appointments/${id}`, key)).body.location_id).not.toBe(BERLIN_PRENZLAUER_BERG);
  });

  it('answers 409 when the appointment is less than 2 hours away', async () => {
    const { id, token } = await newLink();
    await moveSlot(id, 90);
    expect((await reschedule(token, slotIn(3))).status).toBe(409);
    expect((await cancel(token)).status).toBe(409);
  });

  it('answers 403 for a post from another site', async () => {
    const { token } = await newLink();
    expect((await reschedule(token, slotIn(3), { origin: 'https://evil.example' })).status).toBe(403);
    expect((await cancel(token, {}, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it("accepts a post from the page's own origin", async () => {
    const { token } = await newLink();
    expect((await cancel(token, {}, { origin: new URL(api.url()).origin, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('answers 415 for a form, even an empty one', async () => {
    const { token } = await newLink();
    const form = { rawBody: 'scheduled_at=2030-01-01T09%3A00%3A00Z', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    expect((await api.request('POST', `/p/${token}/reschedule`, form)).status).toBe(415);
    expect((await api.request('POST', `/p/${token}/cancel`, { headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    expect((await api.request('POST', `/p/${token}/cancel`, { rawBody: '{}', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it("never reads or changes another appointment: a link of A acts on A only", async () => {
    const a = await newLink();
    const b = await scheduleAppointment(api, key);
    const before = (await api.get(`/api/v1/appointments/${b}`, key)).body;
    expect((await cancel(a.token)).status).toBe(200);
    const after = (await api.get(`/api/v1/appointments/${b}`, key)).body;
    expect(after.status).toBe('scheduled');
    expect(after.scheduled_at).toBe(before.scheduled_at);
    expect((await api.get(`/api/v1/appointments/${a.id}`, key)).body.status).toBe('cancelled');
  });

  it('answers 410 for an expired link', async () => {
    const { id, token } = await newLink();
    await moveSlot(id, -60);
    expect((await reschedule(token, slotIn(3))).status).toBe(410);
  });
});

describe('POST /p/{token}/cancel', () => {
  it('cancels the appointment with a history entry whose source is patient', async () => {
    const { id, token } = await newLink();
    const res = await cancel(token, { reason: 'I cannot come' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    const history = (await api.get(`/api/v1/appointments/${id}/history`, key)).body;
    expect(history.at(-1)).toMatchObject({ status: 'cancelled', source: 'patient', actor: null, reason: 'I cannot come' });
  });

  it('answers 400 for a reason longer than 500 characters', async () => {
    const { token } = await newLink();
    expect((await cancel(token, { reason: 'x'.repeat(501) })).status).toBe(400);
  });

  it('answers 429 with Retry-After once a link made more than 30 requests in a minute', async () => {
    const { token } = await newLink();
    let limited: Awaited<ReturnType<typeof api.request>> | undefined;
    for (let request = 0; request < 62 && !limited; request += 1) {
      const res = await api.request('GET', `/p/${token}`);
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the token in the logs', () => {
  it('is in no request line of the local server and no log line of the functions, for the page and both changes', async () => {
    const { token } = await newLink();
    const requestLines: string[] = [];
    const server = await startLocalApi(0, { requestLine: (line) => requestLines.push(line) });
    const level = logger.getLevelName();
    logger.setLogLevel('TRACE');
    const capture = captureLogs();
    const post = (action: string, body: unknown) =>
      fetch(`${server.url}/p/${token}/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    try {
      expect((await fetch(`${server.url}/p/${token}`)).status).toBe(200);
      expect((await post('reschedule', { scheduled_at: slotIn(3) })).status).toBe(200);
      expect((await post('cancel', {})).status).toBe(200);
    } finally {
      capture.stop();
      logger.setLogLevel(level);
      await server.close();
    }
    expect(requestLines).toEqual([
      expect.stringMatching(/^200 GET \/p\/\{token\} \d+ ms$/),
      expect.stringMatching(/^200 POST \/p\/\{token\}\/reschedule \d+ ms$/),
      expect.stringMatching(/^200 POST \/p\/\{token\}\/cancel \d+ ms$/),
    ]);
    const lines = capture.lines();
    expect(lines.some((line) => line.includes('"route":"getPatientPage"'))).toBe(true);
    expect(lines.filter((line) => line.includes(token))).toEqual([]);
  });
});
