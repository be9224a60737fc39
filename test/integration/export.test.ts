/**
 * GET /api/v1/profiles/{id}/export (docs/privacy.md "Privacy"): everything held about one person as one versioned
 * document, made of what the other routes answer; nobody else's data; both scopes needed; refused whole
 * when it cannot fit in one response.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { apoe, clinical, deliver, report, uploadIncoming } from '../support/lab';
import { CARDIOGENETICS_PANEL, confirmDraw, createProfile, pickupDate, scheduleAppointment, slotIn, THYROID_PANEL } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;

const exportOf = (id: string, withKey = key) => api.get(`/api/v1/profiles/${id}/export`, withKey);
const ids = (items: { id: string }[]) => items.map((item) => item.id);

async function kitOrder(profileId: string): Promise<string> {
  const address = { name: 'Test Patient', street: 'Torstraße', house_number: '1', postal_code: '10119', city: 'Berlin', country: 'DE' };
  const res = await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: address }, key);
  expect(res.status).toBe(201);
  await api.post(`/api/v1/home-kit-orders/${res.body.id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
  expect((await api.post(`/api/v1/home-kit-orders/${res.body.id}/dispatch`, { tracking_number: 'DHL-0001' }, key)).status).toBe(200);
  return res.body.id;
}

/**
 * A person with an appointment taken to its results (thyroid panel, biomarker 10, APOE; picked up into a
 * shipment; a PDF report), a cancelled one, and a dispatched kit order.
 */
async function personWithHistory() {
  const profileId = await createProfile(api, key);
  const tested = await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(3) });
  await api.post(`/api/v1/appointments/${tested}/panels`, { panel_ids: [THYROID_PANEL] }, key);
  await api.post(`/api/v1/appointments/${tested}/biomarkers`, { biomarker_ids: [10, 100] }, key);
  await confirmDraw(api, key, tested);
  const shipment = await api.post(
    '/api/v1/shipments',
    { location_id: BERLIN_MITTE, pickup_date: pickupDate(), pickup_time_from: '10:00', pickup_time_till: '12:00' },
    key,
  );
  expect((await api.post('/api/v1/appointments/pickup', { appointment_ids: [tested], shipment_id: shipment.body.id }, key)).status).toBe(200);
  const pdf = await uploadIncoming(Buffer.from('%PDF-1.7 export'));
  await deliver(
    report(tested, {
      clinical_results: [clinical(3, 2.1), clinical(4, 1.2), clinical(10, 0.4)],
      genetic_results: [apoe],
      documents: [{ s3_key: pdf, file_name: 'Report.pdf', content_type: 'application/pdf' }],
    }),
  );
  const cancelled = await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(9) });
  await api.post(`/api/v1/appointments/${cancelled}/cancel`, { cancellation_reason: 'Patient is travelling' }, key);
  const order = await kitOrder(profileId);
  return { profileId, tested, cancelled, order, shipment: shipment.body.id as string };
}

let person: Awaited<ReturnType<typeof personWithHistory>>;
let other: { profileId: string; appointment: string; order: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document as received, checked against its schema by the contract check
let exported: any;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
  person = await personWithHistory();
  // Another person of the same group, with an appointment and a kit order of their own.
  const otherId = await createProfile(api, key);
  other = { profileId: otherId, appointment: await scheduleAppointment(api, key, { profileId: otherId }), order: await kitOrder(otherId) };
  const res = await exportOf(person.profileId);
  expect(res.status).toBe(200);
  exported = res.body;
});

const appointmentIn = (id: string) => exported.appointments.find((a: { id: string }) => a.id === id);

describe('GET /api/v1/profiles/{id}/export', () => {
  it('names its format and version and when it was made', () => {
    expect(exported).toMatchObject({ format: 'lab-api.profile-export', version: 1, exported_at: expect.any(String) });
  });

  it('holds the profile as GET /profiles/{id} answers it', async () => {
    expect(exported.profile).toEqual((await api.get(`/api/v1/profiles/${person.profileId}`, key)).body);
  });

  it('lists every appointment of the person, newest scheduled_at first', () => {
    expect(ids(exported.appointments)).toEqual([person.cancelled, person.tested]);
  });

  it('holds each appointment as GET /appointments/{id} answers it, without the embedded profile', async () => {
    const { profile: _profile, ...appointment } = (await api.get(`/api/v1/appointments/${person.tested}`, key)).body;
    expect(appointmentIn(person.tested)).toMatchObject(appointment);
  });

  it("holds each appointment's status history as its history route answers it", async () => {
    const history = (await api.get(`/api/v1/appointments/${person.cancelled}/history`, key)).body;
    expect(appointmentIn(person.cancelled).history).toEqual(history);
    expect(history.map((entry: { status: string }) => entry.status)).toEqual(['scheduled', 'cancelled']);
  });

  it('holds the clinical and genetic results as the results route answers them', async () => {
    const { documents: _documents, ...results } = (await api.get(`/api/v1/appointments/${person.tested}/results`, key)).body;
    expect(appointmentIn(person.tested).results).toEqual(results);
    expect(results.genetic_results).toEqual([{ status: 'received', result_status: 'final', ...apoe }]);
  });

  it('links the picked-up appointment to its shipment', () => {
    expect(appointmentIn(person.tested).shipments).toEqual([{ id: person.shipment.replaceAll('-', ''), added_at: expect.any(String) }]);
  });

  it('references the lab report file by id and file name, with a download URL that serves it', async () => {
    const [document] = appointmentIn(person.tested).documents;
    expect(document).toEqual({
      id: expect.any(String),
      file_name: 'Report.pdf',
      kind: 'lab_report',
      result_status: 'final',
      added_at: expect.any(String),
      download_url: expect.any(String),
    });
    expect(document.download_url).toBe(`${api.url()}/api/v1/documents/${document.id}`);
    const file = await fetch(document.download_url, { headers: { 'x-api-key': key } });
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('%PDF-1.7 export');
  });

  it('holds each home kit order as GET /home-kit-orders/{id} answers it, with its history', async () => {
    const { profile: _profile, ...order } = (await api.get(`/api/v1/home-kit-orders/${person.order}`, key)).body;
    const history = (await api.get(`/api/v1/home-kit-orders/${person.order}/history`, key)).body;
    expect(exported.home_kit_orders).toEqual([{ ...order, history }]);
  });

  it("holds nothing of another person's", () => {
    const text = JSON.stringify(exported);
    for (const id of [other.profileId, other.appointment, other.order]) expect(text).not.toContain(id);
  });

  it("records the export once in the person's access log, as a read of everything, not once per appointment", async () => {
    const { profileId } = await personWithHistory();
    expect((await exportOf(profileId)).status).toBe(200);
    const log = await api.get(`/api/v1/profiles/${profileId}/access-log`, key);
    const exportReads = log.body.filter((entry: { route: string }) => entry.route === 'exportProfile');
    expect(exportReads.map((entry: { resource: string }) => entry.resource)).toEqual(['profile export']);
  });

  it('exports every appointment of a person with more than one page of them (100 a read)', async () => {
    const profileId = await createProfile(api, key);
    const booked = [];
    for (let day = 1; day <= 105; day++) booked.push(await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(day) }));
    const res = await exportOf(profileId);
    expect(ids(res.body.appointments)).toEqual(booked.reverse());
  });

  it('exports an erased profile: identifiers null, erased_at set, the results kept', async () => {
    const { profileId, tested } = await personWithHistory();
    expect((await api.request('POST', `/api/v1/profiles/${profileId}/erase`, { key })).status).toBe(200);
    const res = await exportOf(profileId);
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ first_name: null, last_name: null, date_of_birth: null, erased_at: expect.any(String) });
    const appointment = res.body.appointments.find((a: { id: string }) => a.id === tested);
    expect(appointment.results.clinical_results.map((r: { status: string }) => r.status)).toEqual(['received', 'received', 'received']);
  });

  it('refuses with 413 an export larger than one response can carry, rather than cut it short', async () => {
    const profileId = await createProfile(api, key);
    const appointment = await scheduleAppointment(api, key, { profileId });
    // 16 history entries of 390 KB (DynamoDB's item limit is 400 KB): 6.2 MB, above Lambda's 6 MB.
    for (let n = 2; n <= 17; n++) {
      const entry = { status: 'scheduled', from_status: 'scheduled', at: new Date().toISOString(), source: 'api', actor: null, reason: 'x'.repeat(390_000) };
      await dynamo.send(new PutCommand({ TableName: tableName, Item: { ...keys.historyEntry(keys.appointment(appointment), n), ...entry } }));
    }
    const res = await exportOf(profileId);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/^This person's export is larger than one API response can carry \(6 MB\)/);
  });

  it.each([
    ['RESULTS_VIEW', ['PROFILES_VIEW' as const]],
    ['PROFILES_VIEW', ['RESULTS_VIEW' as const]],
  ])('answers 403 naming %s to a key without it', async (missing, scopes) => {
    const res = await exportOf(person.profileId, await apiKey({ scopes }));
    expect(res.status).toBe(403);
    expect(res.body.error).toContain(`missing: ${missing}`);
  });

  it("answers 403 for a profile outside the key's profile groups", async () => {
    const res = await exportOf(person.profileId, await apiKey({ profileGroups: ['partner-clinic'] }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This API key has no access to this profile' });
  });

  it('answers 401 without a key', async () => {
    expect((await api.get(`/api/v1/profiles/${person.profileId}/export`)).status).toBe(401);
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await exportOf(UNKNOWN_ID);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Profile not found' });
  });
});
