/**
 * Sandbox keys (issue #32, docs/sandbox.md) on real parts: live and sandbox keys of the same groups through
 * the local server, DynamoDB Local, the dispatcher Lambda and loopback webhook receivers. Isolation both
 * ways (404 as for what does not exist), the sandbox's own partitions, barcodes, seats and expiry, events
 * marked for the lab's rule, and the simulate route's five outcomes through the real ingest.
 */
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../shared/auth/api-keys';
import { SANDBOX_EVENT_SOURCE } from '../../shared/events/event-source';
import { SANDBOX_PARTITION_PREFIX, SANDBOX_RETENTION_DAYS } from '../../shared/sandbox';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_MITTE, seedDemoData } from '../support/fixtures';
import { confirmDraw, createProfile, drawableAppointment, newBarcode, scheduleAppointment, slotIn } from '../support/scenario';
import { scanItems } from '../support/table';
import { dispatchEntries, startReceiver } from '../support/webhooks';

const api = useApi();
const eventBridge = mockEventBridge();
let live: string;
let sandbox: string;

beforeAll(async () => {
  await seedDemoData();
  live = await apiKey();
  sandbox = await apiKey({ sandbox: true });
});

/** A sandbox appointment whose draw is confirmed: what the lab answers. */
async function drawnSandboxAppointment(biomarkerIds = [1, 3]): Promise<string> {
  const id = await scheduleAppointment(api, sandbox, { scheduledAt: slotIn(3 + Math.floor(Math.random() * 20)) });
  expect((await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: biomarkerIds }, sandbox)).status).toBe(200);
  await confirmDraw(api, sandbox, id);
  return id;
}

const simulate = (id: string, outcome: string, key = sandbox) => api.post(`/api/v1/sandbox/appointments/${id}/results`, { outcome }, key);

describe('sandbox keys', () => {
  it('a sandbox key is issued as lab_test_… and a live key as lab_ followed by its secret', async () => {
    const issued = await issueApiKey({ name: 'sandbox', scopes: ['PROFILES_VIEW'], profileGroups: [], locationGroups: [], sandbox: true }, new Date());
    const liveIssued = await issueApiKey({ name: 'live', scopes: ['PROFILES_VIEW'], profileGroups: [], locationGroups: [] }, new Date());
    expect(issued.plaintext).toMatch(/^lab_test_[A-Za-z0-9_-]{43}$/);
    expect(liveIssued.plaintext).toMatch(/^lab_[A-Za-z0-9_-]{43}$/);
  });

  it('a profile a sandbox key created is not found for a live key of the same groups', async () => {
    const id = await createProfile(api, sandbox);
    const res = await api.get(`/api/v1/profiles/${id}`, live);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Profile not found' });
  });

  it('a profile a live key created is not found for a sandbox key of the same groups', async () => {
    const id = await createProfile(api, live);
    expect((await api.get(`/api/v1/profiles/${id}`, sandbox)).status).toBe(404);
  });

  it('an appointment of either side is not found for the other, and each reads its own', async () => {
    const sandboxed = await scheduleAppointment(api, sandbox);
    const lived = await scheduleAppointment(api, live);
    expect([
      (await api.get(`/api/v1/appointments/${sandboxed}`, live)).status,
      (await api.get(`/api/v1/appointments/${lived}`, sandbox)).status,
      (await api.get(`/api/v1/appointments/${sandboxed}`, sandbox)).status,
      (await api.get(`/api/v1/appointments/${lived}`, live)).status,
    ]).toEqual([404, 404, 200, 200]);
  });

  it('a barcode live data holds is free for a sandbox draw, and the other way round', async () => {
    const barcode = newBarcode();
    await confirmDraw(api, live, await drawableAppointment(api, live), barcode);
    const sandboxed = await drawableAppointment(api, sandbox);
    const res = await api.post(`/api/v1/appointments/${sandboxed}/confirm`, { barcode }, sandbox);
    expect(res.status).toBe(200);
  });

  it("a sandbox booking takes no seat of the live slot: the live key books the slot's last seat after it", async () => {
    const locations = await api.get(`/api/v1/locations/${BERLIN_MITTE}`, live);
    const capacity = locations.body.capacity_per_slot as number;
    const slot = slotIn(40);
    for (let i = 0; i < capacity; i++) await scheduleAppointment(api, sandbox, { scheduledAt: slot });
    const res = await api.post('/api/v1/appointments', { profile_id: await createProfile(api, live), location_id: BERLIN_MITTE, scheduled_at: slot }, live);
    expect(res.status).toBe(201);
  });

  it("a sandbox key cannot change a location's schedule, which live data shares", async () => {
    const res = await api.patch(`/api/v1/locations/${BERLIN_MITTE}`, { capacity_per_slot: 9 }, sandbox);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/sandbox key cannot change a location/);
  });

  it('everything a sandbox request writes lies in SANDBOX# partitions and expires within the retention', async () => {
    const id = await drawnSandboxAppointment();
    const items = await scanItems();
    const about = items.filter((item) => JSON.stringify(item).includes(id));
    const latest = Math.floor(Date.now() / 1000) + SANDBOX_RETENTION_DAYS * 86_400;
    expect(about.length).toBeGreaterThan(3);
    for (const item of about) {
      expect(String(item.PK).startsWith(SANDBOX_PARTITION_PREFIX), String(item.SK)).toBe(true);
      expect(item.expires_at).toBeGreaterThan(latest - 60);
      expect(item.expires_at).toBeLessThanOrEqual(latest);
    }
  });

  it("a sandbox draw's LabOrderRequested is put with the sandbox source, which the lab's rule does not match", async () => {
    await drawnSandboxAppointment();
    const orders = eventBridge.entries().filter((entry) => entry.DetailType === 'LabOrderRequested');
    expect(orders.map((entry) => entry.Source)).toEqual([SANDBOX_EVENT_SOURCE]);
  });

  it('a live draw keeps the source lab-api', async () => {
    await confirmDraw(api, live, await drawableAppointment(api, live));
    expect(eventBridge.entries().map((entry) => entry.Source)).toEqual(expect.arrayContaining(['lab-api']));
    expect(eventBridge.entries().map((entry) => entry.Source)).not.toContain(SANDBOX_EVENT_SOURCE);
  });

  it("a sandbox event reaches the sandbox key's subscription and no live one, and a live event no sandbox one", async () => {
    const sandboxReceiver = await startReceiver();
    const liveReceiver = await startReceiver();
    try {
      const subscribe = (url: string, key: string) => api.post('/api/v1/webhooks', { url, event_types: ['AppointmentStatusChanged'] }, key);
      expect((await subscribe(sandboxReceiver.url, sandbox)).status).toBe(201);
      expect((await subscribe(liveReceiver.url, live)).status).toBe(201);
      eventBridge.client.resetHistory();
      const sandboxed = await scheduleAppointment(api, sandbox);
      const lived = await scheduleAppointment(api, live);
      expect((await api.post(`/api/v1/appointments/${sandboxed}/cancel`, { cancellation_reason: 'sandbox' }, sandbox)).status).toBe(200);
      expect((await api.post(`/api/v1/appointments/${lived}/cancel`, { cancellation_reason: 'live' }, live)).status).toBe(200);
      expect(await dispatchEntries(eventBridge.entries())).toEqual([]);
      const ids = (received: { body: string }[]) => [
        ...new Set(received.map((r) => (JSON.parse(r.body) as { data: { appointment_id: string } }).data.appointment_id)),
      ];
      expect(ids(sandboxReceiver.received)).toEqual([sandboxed]);
      expect(ids(liveReceiver.received)).toEqual([lived]);
    } finally {
      await Promise.all([sandboxReceiver.close(), liveReceiver.close()]);
    }
  });
});

describe('POST /api/v1/sandbox/appointments/{id}/results', () => {
  it('a live key gets 403', async () => {
    const id = await drawableAppointment(api, live);
    const res = await simulate(id, 'normal', live);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/Only a sandbox key/);
  });

  it('a live appointment is not found for a sandbox key', async () => {
    const id = await drawableAppointment(api, live);
    await confirmDraw(api, live, id);
    expect((await simulate(id, 'normal')).status).toBe(404);
  });

  it('an appointment whose draw is not confirmed gets 409', async () => {
    const id = await drawableAppointment(api, sandbox);
    const res = await simulate(id, 'normal');
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/confirm the blood draw first/);
  });

  it('an unknown outcome gets 400', async () => {
    const res = await simulate(await drawnSandboxAppointment(), 'lost');
    expect(res.status).toBe(400);
  });

  it('normal: every planned test final, the results completed, no critical value', async () => {
    const res = await simulate(await drawnSandboxAppointment(), 'normal');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.body.clinical_results.map((r: { biomarker_id: number; result_status: string }) => [r.biomarker_id, r.result_status])).toEqual([
      [1, 'final'],
      [3, 'final'],
    ]);
    expect(res.body.critical).toBeNull();
  });

  it('normal: the report is announced by LabResultsAvailable with the sandbox source', async () => {
    const id = await drawnSandboxAppointment();
    eventBridge.client.resetHistory();
    await simulate(id, 'normal');
    const available = eventBridge.entries().filter((entry) => entry.DetailType === 'LabResultsAvailable');
    expect(available.map((entry) => [entry.Source, JSON.parse(entry.Detail as string).appointment_id])).toEqual([[SANDBOX_EVENT_SOURCE, id]]);
  });

  it('partial: the first half of the planned tests, the results still in progress', async () => {
    const res = await simulate(await drawnSandboxAppointment(), 'partial');
    expect(res.body.status).toBe('in_progress');
    expect(res.body.clinical_results.map((r: { result_status: string | null }) => r.result_status)).toEqual(['final', null]);
  });

  it('critical: the first clinical test critical, waiting for an acknowledgement', async () => {
    const res = await simulate(await drawnSandboxAppointment(), 'critical');
    expect(res.body.critical).toMatchObject({ biomarker_ids: [1], acknowledged_at: null });
    expect(res.body.clinical_results[0].interpretation).toMatch(/^critical_/);
  });

  it('rejected: every planned test not performed, for the specimen the lab could not test', async () => {
    const res = await simulate(await drawnSandboxAppointment(), 'rejected');
    expect(res.body.clinical_results.map((r: { status: string }) => r.status)).toEqual(['not_performed', 'not_performed']);
  });

  it('corrected: the first clinical value corrected, its history holding the final value it replaced', async () => {
    const id = await drawnSandboxAppointment();
    const res = await simulate(id, 'corrected');
    expect(res.body.clinical_results[0].result_status).toBe('corrected');
    const history = await api.get(`/api/v1/appointments/${id}/results/history`, sandbox);
    const first = history.body.clinical_results.find((r: { biomarker_id: number }) => r.biomarker_id === 1);
    expect(first.versions.map((v: { result_status: string }) => v.result_status)).toEqual(['corrected', 'final']);
  });

  it("records the results it answers in the sandbox person's access log (SANDBOX#ACCESS#), once", async () => {
    const id = await drawnSandboxAppointment();
    const profileId = (await api.get(`/api/v1/appointments/${id}`, sandbox)).body.profile_id as string;
    const entries = async () =>
      (await scanItems()).filter((item) => item.PK === `${SANDBOX_PARTITION_PREFIX}ACCESS#${profileId}` && item.route === 'simulateSandboxResults');
    await simulate(id, 'normal');
    expect((await entries()).map((entry) => entry.resource)).toEqual([`appointment ${id} results`]);
  });

  it("the sandbox's results are not found for a live key", async () => {
    const id = await drawnSandboxAppointment();
    await simulate(id, 'normal');
    expect((await api.get(`/api/v1/appointments/${id}/results`, live)).status).toBe(404);
  });

  it('EventBridge refusing the events still answers the stored results (the outbox relays them later)', async () => {
    const id = await drawnSandboxAppointment();
    eventBridge.client.on(PutEventsCommand).rejects(new Error('EventBridge unavailable'));
    const res = await simulate(id, 'normal');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
  });
});
