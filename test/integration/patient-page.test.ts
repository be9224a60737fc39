/**
 * The patient's link to their appointment (issue #53, docs/patient-page.md): issuing it, the page it opens, and
 * its reschedule and cancel, through the local server as a browser and a clinic's app call them. Times the rules
 * need in the past or close by (an ended slot, a start within 2 hours) are written into the appointment item, as
 * a move the clock made.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import * as itemKeys from '../../shared/store/keys/items';
import { tokenHash } from '../../shared/store/patient-links';
import { openPatientPage } from '../../shared/usecases/patient-page';
import { useApi } from '../support/api';
import { withMiddleware } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_PRENZLAUER_BERG, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { captureLogs } from '../support/log-capture';
import { startLocalApi } from '../../infra/local/server';
import { logger } from '../../shared/logger';
import { CARDIOGENETICS_PANEL, confirmDraw, createProfile, newBarcode, scheduleAppointment, slotIn } from '../support/scenario';

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

/** The appointment as the API shows it: what a refused change must leave as it was. */
const appointmentNow = async (id: string, apiKeyOf = key) => (await api.get(`/api/v1/appointments/${id}`, apiKeyOf)).body;

/** Every item of a partition, read consistently. */
async function partition(pk: string) {
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }),
  );
  return Items ?? [];
}

/** Sets attributes of an item straight in the table (a clock or a clinic that acted meanwhile). */
async function setItem(itemKey: { PK: string; SK: string }, values: Record<string, unknown>) {
  const names = Object.keys(values);
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: itemKey,
      UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, values[name]])),
    }),
  );
}

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

  it('records the view in the access log, the link as its reader, with no address', async () => {
    const profileId = await createProfile(api, key);
    const { token } = await newLink({ profileId });
    expect((await api.request('GET', `/p/${token}`)).status).toBe(200);
    const log = await api.get(`/api/v1/profiles/${profileId}/access-log`, key);
    const views = log.body.filter((entry: { route: string; key_id: string }) => entry.route === 'getPatientPage' && /^patient_link:/.test(entry.key_id));
    expect(views).toHaveLength(1);
    expect(views[0].source_ip).toBeNull();
  });

  it('ignores a query the link gained on its way (a campaign tag): the page all the same', async () => {
    const { token } = await newLink();
    const res = await api.request('GET', `/p/${token}?utm_source=newsletter&fbclid=x`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('writes nothing for a token no link has: no rate counter for an unknown token', async () => {
    const unknown = 'Q'.repeat(43);
    expect((await api.request('GET', `/p/${unknown}`)).status).toBe(404);
    expect((await api.request('POST', `/p/${unknown}/cancel`, json({}))).status).toBe(404);
    expect(await partition(`PATIENT_LINK_RATE#${tokenHash(unknown)}`)).toEqual([]);
    // An existing link's requests are counted.
    const { token } = await newLink();
    expect((await api.request('GET', `/p/${token}`)).status).toBe(200);
    expect(await partition(`PATIENT_LINK_RATE#${tokenHash(token)}`)).toHaveLength(1);
  });

  it('answers 503 as a page in the three languages, with the security headers and Retry-After, when the view cannot be recorded', async () => {
    const { token } = await newLink();
    const res = await withMiddleware(
      (next) => async (args) => {
        if (JSON.stringify((args as { input: unknown }).input).includes('"ACCESS#'))
          throw Object.assign(new Error('injected'), { name: 'ThrottlingException', $metadata: {} });
        return next(args);
      },
      () => api.request('GET', `/p/${token}`),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toContain('lang="de"');
    expect(res.body).toContain('lang="fi"');
    expect(res.body).not.toContain('Test');
  });

  it('answers 500 as a page, never JSON, when something unexpected fails', async () => {
    const { id, token } = await newLink();
    const capture = captureLogs();
    let res: Awaited<ReturnType<typeof api.request>>;
    try {
      res = await withMiddleware(
        (next) => async (args) => {
          const input = JSON.stringify((args as { input: unknown }).input);
          if (input.includes(id) && !input.includes('PATIENT_LINK')) throw new Error('injected bug');
          return next(args);
        },
        () => api.request('GET', `/p/${token}`),
      );
    } finally {
      capture.stop();
    }
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.body).toContain('<html lang="en">');
  });

  it("shows a drawn appointment's state read-only, and refuses both changes (409) leaving it as it was", async () => {
    const { id, token } = await newLink();
    await confirmDraw(api, key, id);
    const res = await api.request('GET', `/p/${token}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toMatch(/name="scheduled_at"/);
    const before = await appointmentNow(id);
    expect((await reschedule(token, slotIn(3))).status).toBe(409);
    expect((await cancel(token)).status).toBe(409);
    expect(await appointmentNow(id)).toEqual(before);
  });

  it('answers 410 at use once 30 days passed since the link was issued, before the appointment', async () => {
    const { id, token } = await newLink({ scheduledAt: slotIn(40) });
    expect((await api.request('GET', `/p/${token}`)).status).toBe(200);
    await setItem(itemKeys.patientLink(tokenHash(token)), { created_at: new Date(Date.now() - 31 * 86_400_000).toISOString() });
    expect((await api.request('GET', `/p/${token}`)).status).toBe(410);
    expect((await reschedule(token, slotIn(3))).status).toBe(410);
    expect((await cancel(token)).status).toBe(410);
    expect((await appointmentNow(id)).status).toBe('scheduled');
  });

  it("keeps working after the original slot's end once the appointment moved later, and expires at the new slot's end", async () => {
    const first = slotIn(2);
    const { token } = await newLink({ scheduledAt: first });
    const later = slotIn(6);
    expect((await reschedule(token, later)).status).toBe(200);
    const afterFirst = new Date(Date.parse(first) + 60 * 60_000);
    const view = await openPatientPage(token, afterFirst, { id: 'test-after-first-slot' });
    expect(typeof view === 'object' && view.appointment.scheduledAt).toBe(later);
    const afterLater = new Date(Date.parse(later) + 60 * 60_000);
    expect(await openPatientPage(token, afterLater, { id: 'test-after-later-slot' })).toBe('expired');
  });

  it("opens a sandbox appointment's link in the sandbox: page and reschedule work, the live realm sees nothing", async () => {
    const sandboxKey = await apiKey({ sandbox: true });
    const id = await scheduleAppointment(api, sandboxKey);
    const res = await api.request('POST', `/api/v1/appointments/${id}/patient-link`, { key: sandboxKey, body: {} });
    expect(res.status).toBe(201);
    const token = tokenOf(res.body.url);
    expect((await api.request('GET', `/p/${token}`)).status).toBe(200);
    const to = slotIn(3);
    expect((await reschedule(token, to)).status).toBe(200);
    expect((await appointmentNow(id, sandboxKey)).scheduled_at).toBe(to);
    expect((await api.get(`/api/v1/appointments/${id}`, key)).status).toBe(404);
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

  it('answers 409 for a full slot, saying so, and the appointment keeps its time', async () => {
    const to = slotIn(3, BERLIN_PRENZLAUER_BERG);
    // Fill the slot (the location's capacity) with other bookings.
    const { body: location } = await api.get(`/api/v1/locations/${BERLIN_PRENZLAUER_BERG}`, key);
    for (let seat = 0; seat < (location.capacity_per_slot ?? 1); seat += 1)
      await scheduleAppointment(api, key, { locationId: BERLIN_PRENZLAUER_BERG, scheduledAt: to });
    const { id, token } = await newLink({ locationId: BERLIN_PRENZLAUER_BERG });
    const before = await appointmentNow(id);
    const res = await reschedule(token, to);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/full/i);
    expect(await appointmentNow(id)).toEqual(before);
  });

  it("answers 409, not 404, when the appointment's location no longer takes bookings; the link still opens the page", async () => {
    const { id, token } = await newLink({ locationId: BERLIN_PRENZLAUER_BERG });
    const before = await appointmentNow(id);
    await setItem(itemKeys.location(BERLIN_PRENZLAUER_BERG), { active: false });
    try {
      const res = await reschedule(token, slotIn(3, BERLIN_PRENZLAUER_BERG));
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/contact your clinic/);
      expect((await api.request('GET', `/p/${token}`)).status).toBe(200);
    } finally {
      await setItem(itemKeys.location(BERLIN_PRENZLAUER_BERG), { active: true });
    }
    expect(await appointmentNow(id)).toEqual(before);
  });

  it('checks the 2-hour cut-off again when a race makes the change read the appointment again', async () => {
    for (const change of ['reschedule', 'cancel'] as const) {
      const { id, token } = await newLink();
      let moved = false;
      // Just before the change's write, the clinic moves the appointment to 90 minutes from now: the write's
      // condition fails, the use case reads again, and the cut-off refuses.
      const res = await withMiddleware(
        (next) => async (args) => {
          if (
            !moved &&
            JSON.stringify((args as { input: unknown }).input).includes('TransactItems') &&
            JSON.stringify((args as { input: unknown }).input).includes(id)
          ) {
            moved = true;
            await moveSlot(id, 90);
          }
          return next(args);
        },
        () => (change === 'reschedule' ? reschedule(token, slotIn(3)) : cancel(token)),
      );
      expect(moved, change).toBe(true);
      expect(res.status, change).toBe(409);
      expect(res.body.error, change).toMatch(/2 hours/);
      const after = await appointmentNow(id);
      expect(after.status, change).toBe('scheduled');
      expect(Date.parse(after.scheduled_at) - Date.now(), change).toBeLessThan(2 * 3_600_000);
    }
  });

  it('allows 5 changes per appointment and day through its links, then answers 429 with Retry-After; a refused change does not count', async () => {
    const { id, token } = await newLink();
    const slots = [slotIn(3), slotIn(4)];
    // A change the slot rules refuse gives its place back.
    const offGrid = new Date(Date.parse(slotIn(5)) + 7 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect((await reschedule(token, offGrid)).status).toBe(400);
    for (let change = 0; change < 5; change += 1) expect((await reschedule(token, slots[change % 2]!)).status, `change ${change + 1}`).toBe(200);
    const before = await appointmentNow(id);
    const limited = await reschedule(token, slots[1]!);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/5 times today/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(86_400);
    expect((await cancel(token)).status).toBe(429);
    expect(await appointmentNow(id)).toEqual(before);
    // Another link of the same appointment counts against the same day.
    const other = await linkTo(id);
    expect((await cancel(other.token)).status).toBe(429);
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

  it('answers 403 for a post from another site, leaving the appointment as it was', async () => {
    const { id, token } = await newLink();
    const before = await appointmentNow(id);
    expect((await reschedule(token, slotIn(3), { origin: 'https://evil.example' })).status).toBe(403);
    expect((await reschedule(token, slotIn(3), { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await cancel(token, {}, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await cancel(token, {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await appointmentNow(id)).toEqual(before);
  });

  it('answers 404 on both changes for a link revoked by a newer one, leaving the appointment as it was', async () => {
    const { id, token } = await newLink();
    const newer = await linkTo(id, { revoke_previous: true });
    const before = await appointmentNow(id);
    expect((await reschedule(token, slotIn(3))).status).toBe(404);
    expect((await cancel(token)).status).toBe(404);
    expect(await appointmentNow(id)).toEqual(before);
    expect((await cancel(newer.token)).status).toBe(200);
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

  it('never reads or changes another appointment: a link of A acts on A only', async () => {
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
  it("cancels the appointment with a history entry whose source is patient; the reason is the appointment's cancellation_reason", async () => {
    const { id, token } = await newLink();
    const res = await cancel(token, { reason: 'I cannot come' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    const history = (await api.get(`/api/v1/appointments/${id}/history`, key)).body;
    expect(history.at(-1)).toMatchObject({ status: 'cancelled', source: 'patient', actor: null, reason: 'I cannot come' });
    expect((await appointmentNow(id)).cancellation_reason).toBe('I cannot come');
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
    // The page's refusal is a page a browser shows, with the page's headers; the changes' stays JSON.
    expect(limited?.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(limited?.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(limited?.headers.get('referrer-policy')).toBe('no-referrer');
    expect(limited?.body).toContain('lang="de"');
    const change = await cancel(token);
    expect(change.status).toBe(429);
    expect(change.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Number(change.headers.get('retry-after'))).toBeGreaterThan(0);
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
