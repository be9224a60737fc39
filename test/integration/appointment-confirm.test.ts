/**
 * POST /api/v1/appointments/{id}/confirm: the blood draw, the LabOrderRequested event that must never be
 * lost (outbox + relay), and the races around it. EventBridge is mocked; the table is DynamoDB Local.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { relayOutbox } from '../../shared/usecases/publish-events';
import { dynamo, tableName } from '../../shared/store/client';
import { GSI2 } from '../../shared/store/keys';
import { useApi } from '../support/api';
import { type Middleware, withMiddleware } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { confirmDraw, createProfile, drawableAppointment, ESSENTIALS_PANEL, newBarcode, storedAppointment, THYROID_PANEL } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

async function pendingOutbox(appointmentId: string) {
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: tableName, IndexName: GSI2, KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': 'OUTBOX' } }),
  );
  return (Items ?? []).filter((item) => item.events.some((event: { detail: { appointment_id?: string } }) => event.detail.appointment_id === appointmentId));
}

const confirm = (id: string, barcode: string, withKey = key) => api.post(`/api/v1/appointments/${id}/confirm`, { barcode }, withKey);

describe('POST /api/v1/appointments/{id}/confirm', () => {
  it('moves a scheduled appointment to blood_drawn, recording the barcode and blood_drawn_at', async () => {
    const id = await drawableAppointment(api, key);
    const res = await confirm(id, 'LAB-0001-ABC');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await storedAppointment(id)).toMatchObject({ status: 'blood_drawn', barcode: 'LAB-0001-ABC', blood_drawn_at: expect.any(String) });
  });

  it('puts exactly one LabOrderRequested with the panels, their biomarkers and the individual ones', async () => {
    const profileId = await createProfile(api, key);
    const id = await drawableAppointment(api, key, { profileId });
    await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL, THYROID_PANEL] }, key);
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [10, 1] }, key);
    const barcode = newBarcode();
    await confirm(id, barcode);

    const entries = eventBridge.entries().filter((e) => e.DetailType === 'LabOrderRequested');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toEqual({
      Source: 'lab-api',
      DetailType: 'LabOrderRequested',
      EventBusName: 'test-bus',
      Time: expect.any(Date),
      Detail: expect.any(String),
    });
    expect(JSON.parse(entries[0]?.Detail as string)).toEqual({
      schema_version: 2,
      event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      occurred_at: expect.any(String),
      appointment_id: id,
      profile_id: profileId,
      barcode,
      test_method: 'practitioner',
      location_id: BERLIN_MITTE,
      panel_ids: expect.arrayContaining([ESSENTIALS_PANEL, THYROID_PANEL]),
      biomarker_ids: [1, 2, 3, 4, 5, 6, 10],
      requisition_number: ((await storedAppointment(id)).requisition as { number: string }).number,
      tests: [1, 2, 3, 4, 5, 6, 10].map((biomarker_id) => ({ biomarker_id, loinc: expect.any(String), specimen: expect.any(Object) })),
    });
  });

  it('leaves no outbox entry once the event is published', async () => {
    const id = await drawableAppointment(api, key);
    await confirmDraw(api, key, id);
    expect(await pendingOutbox(id)).toEqual([]);
  });

  it('answers 200 and changes nothing when confirmed again with the same barcode', async () => {
    const id = await drawableAppointment(api, key);
    const barcode = await confirmDraw(api, key, id);
    const before = await storedAppointment(id);
    eventBridge.client.resetHistory();
    const res = await confirm(id, barcode);
    expect(res.status).toBe(200);
    expect(await storedAppointment(id)).toEqual(before);
    expect(eventBridge.entries()).toHaveLength(0);
  });

  it('answers 409 when confirmed again with another barcode', async () => {
    const id = await drawableAppointment(api, key);
    await confirmDraw(api, key, id);
    const res = await confirm(id, newBarcode());
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The blood draw of this appointment is already confirmed with another barcode' });
  });

  it('answers 409 for a barcode already used by another appointment and changes nothing', async () => {
    const first = await drawableAppointment(api, key);
    const barcode = await confirmDraw(api, key, first);
    const second = await drawableAppointment(api, key);
    const res = await confirm(second, barcode);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This barcode is already used by another sample' });
    expect((await storedAppointment(second))?.status).toBe('scheduled');
  });

  it('answers 409 for a cancelled appointment', async () => {
    const id = await drawableAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'x' }, key);
    const res = await confirm(id, newBarcode());
    expect(res.status).toBe(409);
  });

  it.each([['ABC12'], ['abc-123456'], ['LAB 000123'], ['X'.repeat(33)]])('answers 400 for the barcode %j', async (barcode) => {
    const id = await drawableAppointment(api, key);
    const res = await confirm(id, barcode);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'barcode must be 6–32 characters of A–Z, 0–9 and -' });
  });

  it('answers 400 when the barcode is missing', async () => {
    const id = await drawableAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/confirm`, {}, key);
    expect(res.body).toEqual({ error: 'barcode is required' });
  });

  it('answers 404 for an unknown appointment', async () => {
    expect((await confirm(UNKNOWN_ID, newBarcode())).status).toBe(404);
  });

  it('answers 403 for an appointment outside the key context and changes nothing', async () => {
    const id = await drawableAppointment(api, key);
    const res = await confirm(id, newBarcode(), await apiKey({ profileGroups: ['partner-clinic'] }));
    expect(res.status).toBe(403);
    expect((await storedAppointment(id))?.status).toBe('scheduled');
  });
});

describe('the outbox when EventBridge fails', () => {
  it('still answers 200 and keeps exactly one outbox entry', async () => {
    const id = await drawableAppointment(api, key);
    eventBridge.failNextPuts();
    const res = await confirm(id, newBarcode());
    expect(res.status).toBe(200);
    expect(await pendingOutbox(id)).toHaveLength(1);
  });

  it('is published and cleared by one relay run once the entry is older than 30 s', async () => {
    const id = await drawableAppointment(api, key);
    eventBridge.failNextPuts();
    await confirm(id, newBarcode());
    eventBridge.client.reset();
    eventBridge.client.resolves({ FailedEntryCount: 0, Entries: [] });

    expect(await relayOutbox(new Date(Date.now() + 31_000))).toBeGreaterThanOrEqual(1);
    const relayed = eventBridge.entries().map((entry) => JSON.parse(entry.Detail as string));
    expect(relayed.filter((detail) => detail.appointment_id === id && detail.barcode)).toHaveLength(1);
    expect(await pendingOutbox(id)).toEqual([]);
  });

  it('leaves an entry younger than 30 s to the request that wrote it', async () => {
    const id = await drawableAppointment(api, key);
    eventBridge.failNextPuts();
    await confirm(id, newBarcode());
    eventBridge.client.reset();
    eventBridge.client.resolves({ FailedEntryCount: 0, Entries: [] });
    await relayOutbox(new Date());
    expect(await pendingOutbox(id)).toHaveLength(1);
  });
});

type Item = Record<string, unknown>;
type QueryAnswer = { output: { Items?: Item[] } };

/** The relay's Query of GSI2 answered through `rewrite`: DynamoDB Local updates GSI2 at once; in AWS it lags. */
const outboxIndexAnswers =
  (rewrite: (items: Item[]) => Item[]): Middleware =>
  (next) =>
  async (args) => {
    const answer = (await next(args)) as QueryAnswer;
    const input = (args as { input: { IndexName?: string; ExpressionAttributeValues?: Item } }).input;
    if (input.IndexName === GSI2 && input.ExpressionAttributeValues?.[':pk'] === 'OUTBOX') answer.output.Items = rewrite(answer.output.Items ?? []);
    return answer;
  };

const relayedFor = (appointmentId: string) =>
  eventBridge
    .entries()
    .map((entry) => JSON.parse(entry.Detail as string) as Item)
    .filter((detail) => detail.appointment_id === appointmentId);

describe('the outbox relay when GSI2 has not caught up', () => {
  it('publishes nothing for an entry the index still lists after it was published and deleted', async () => {
    const id = await drawableAppointment(api, key);
    eventBridge.failNextPuts();
    await confirm(id, newBarcode());
    const [listed] = await pendingOutbox(id);
    eventBridge.client.reset();
    eventBridge.client.resolves({ FailedEntryCount: 0, Entries: [] });
    await relayOutbox(new Date(Date.now() + 31_000));
    expect(await pendingOutbox(id)).toEqual([]);
    eventBridge.client.resetHistory();

    await withMiddleware(
      outboxIndexAnswers((items) => [...items, listed!]),
      () => relayOutbox(new Date(Date.now() + 31_000)),
    );
    expect(relayedFor(id)).toEqual([]);
  });

  it('publishes only the events an entry holds now, not those the index still shows from before', async () => {
    const id = await drawableAppointment(api, key);
    eventBridge.failNextPuts();
    await confirm(id, newBarcode());
    const [stored] = await pendingOutbox(id);
    const events = stored!.events as { detail: Item }[];
    // What the index would show before a partial publish left the entry with fewer events: one more, already put.
    const alreadyPut = { ...events[0]!, event_id: 'already-put', detail: { ...events[0]!.detail, barcode: 'ALREADY-PUT' } };
    eventBridge.client.reset();
    eventBridge.client.resolves({ FailedEntryCount: 0, Entries: [] });

    await withMiddleware(
      outboxIndexAnswers((items) => items.map((item) => (item.PK === stored!.PK ? { ...item, events: [alreadyPut, ...events] } : item))),
      () => relayOutbox(new Date(Date.now() + 31_000)),
    );
    expect(relayedFor(id)).toEqual(events.map((event) => event.detail));
    expect(await pendingOutbox(id)).toEqual([]);
  });
});

describe('races', () => {
  it('lets exactly one of 20 parallel confirms with different barcodes win, with one event', async () => {
    const id = await drawableAppointment(api, key);
    const barcodes = Array.from({ length: 20 }, () => newBarcode());
    const results = await Promise.all(barcodes.map((barcode) => confirm(id, barcode)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    const winner = barcodes[results.findIndex((r) => r.status === 200)];
    expect((await storedAppointment(id))?.barcode).toBe(winner);
    const events = eventBridge.entries().filter((e) => e.DetailType === 'LabOrderRequested' && JSON.parse(e.Detail as string).appointment_id === id);
    expect(events).toHaveLength(1);
  });

  it('lets exactly one of a parallel confirm and cancel succeed; the other gets 409', async () => {
    const id = await drawableAppointment(api, key);
    const [confirmed, cancelled] = await Promise.all([
      confirm(id, newBarcode()),
      api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'race' }, key),
    ]);
    expect([confirmed.status, cancelled.status].sort()).toEqual([200, 409]);
    const status = (await storedAppointment(id))?.status;
    expect(status).toBe(confirmed.status === 200 ? 'blood_drawn' : 'cancelled');
  });

  it('answers 200 to every one of 10 parallel confirms with the same barcode and records one event', async () => {
    const id = await drawableAppointment(api, key);
    const barcode = newBarcode();
    const results = await Promise.all(Array.from({ length: 10 }, () => confirm(id, barcode)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(eventBridge.entries().filter((e) => e.DetailType === 'LabOrderRequested' && JSON.parse(e.Detail as string).appointment_id === id)).toHaveLength(1);
  });
});
