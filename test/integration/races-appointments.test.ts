/**
 * Races on appointments and on the idempotent creates of profiles and appointments: N (default 20)
 * conflicting requests on one resource at once, through the local server on DynamoDB Local. Each test
 * asserts the allowed answers (docs/endpoints.md "Decisions where the spec says "not shown"" and "Events and status
 * history"), the stored state, the status history (one entry per applied change, in order) and the events
 * on the mocked bus (one per applied change). The logistics side is races-logistics.test.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { type ApiResponse, useApi } from '../support/api';
import { withMiddleware } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKeyWithId, BERLIN_MITTE, BIOMARKERS, seedDemoData } from '../support/fixtures';
import {
  eventDetails,
  eventMoves,
  expectOneCreated,
  expectOnly,
  historyEntries,
  historyMoves,
  indexesOf,
  N,
  race,
  REUSED,
  scanItems,
  tally,
} from '../support/races';
import { confirmDraw, createProfile, drawableAppointment, newBarcode, slotIn, storedAppointment, THYROID_PANEL } from '../support/scenario';
import { dispatchEntries, type Receiver, startReceiver } from '../support/webhooks';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;
let keyId: string;

beforeAll(async () => {
  await seedDemoData();
  ({ plaintext: key, keyId } = await apiKeyWithId());
});

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const confirm = (id: string, barcode: string) => api.post(`/api/v1/appointments/${id}/confirm`, { barcode }, key);
const cancel = (id: string, reason = 'race') => api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: reason }, key);
const appointmentEvents = (id: string) => eventMoves(eventBridge.entries(), 'AppointmentStatusChanged', 'appointment_id', id);
const labOrders = (id: string) => eventDetails(eventBridge.entries(), 'LabOrderRequested', 'appointment_id', id);

/** A scheduled appointment; the events of its creation are cleared, so a test sees only the race's. */
async function scheduled(): Promise<string> {
  const id = await drawableAppointment(api, key);
  eventBridge.client.resetHistory();
  return id;
}

async function drawn(): Promise<string> {
  const id = await drawableAppointment(api, key);
  await confirmDraw(api, key, id);
  return id;
}

const claimed = async (barcode: string) => (await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.barcode(barcode), ConsistentRead: true }))).Item;

describe(`confirm: ${N} parallel confirms of one appointment`, () => {
  it('lets one of N different barcodes win and refuses the others with 409', async () => {
    const id = await scheduled();
    const results = await race(N, (i) => confirm(id, `RACE-${id.slice(0, 8)}-${i}`.toUpperCase()));
    expectOnly(results, [200, 409]);
    expect(tally(results)).toEqual({ 200: 1, 409: N - 1 });
  });

  it('stores the winning barcode and claims no loser barcode', async () => {
    const id = await scheduled();
    const barcodes = Array.from({ length: N }, (_, i) => `RACE-${id.slice(0, 8)}-${i}`.toUpperCase());
    const results = await race(N, (i) => confirm(id, barcodes[i] as string));
    const winner = barcodes[indexesOf(results, 200)[0] as number];
    expect(await storedAppointment(id)).toMatchObject({ status: 'blood_drawn', barcode: winner });
    const claims = await Promise.all(barcodes.map(claimed));
    expect(claims.filter(Boolean).map((c) => c?.barcode)).toEqual([winner]);
  });

  it('writes one history entry, one status event and one lab order for the winner', async () => {
    const id = await scheduled();
    const results = await race(N, (i) => confirm(id, `RACE-${id.slice(0, 8)}-${i}`.toUpperCase()));
    const winner = `RACE-${id.slice(0, 8)}-${indexesOf(results, 200)[0]}`.toUpperCase();
    expect(await historyMoves(api, key, `appointments/${id}`)).toEqual(['∅→scheduled', 'scheduled→blood_drawn']);
    expect(appointmentEvents(id)).toEqual(['scheduled→blood_drawn']);
    expect(labOrders(id).map((o) => o.barcode)).toEqual([winner]);
  });

  it('answers 200 to all N confirms with one barcode and records the draw once', async () => {
    const id = await scheduled();
    const barcode = newBarcode();
    const results = await race(N, () => confirm(id, barcode));
    expect(tally(results)).toEqual({ 200: N });
    expect([await historyMoves(api, key, `appointments/${id}`), appointmentEvents(id), labOrders(id).length]).toEqual([
      ['∅→scheduled', 'scheduled→blood_drawn'],
      ['scheduled→blood_drawn'],
      1,
    ]);
  });
});

describe('confirm racing cancel', () => {
  it('lets exactly one of N/2 confirms and N/2 cancels win; state, history and events follow it', async () => {
    const id = await scheduled();
    const results = await race(N, (i) => (i % 2 === 0 ? confirm(id, newBarcode()) : cancel(id)));
    expectOnly(results, [200, 409]);
    expect(tally(results)).toEqual({ 200: 1, 409: N - 1 });
    const confirmWon = (indexesOf(results, 200)[0] as number) % 2 === 0;
    const status = confirmWon ? 'blood_drawn' : 'cancelled';
    expect((await storedAppointment(id)).status).toBe(status);
    expect([await historyMoves(api, key, `appointments/${id}`), appointmentEvents(id), labOrders(id).length]).toEqual([
      ['∅→scheduled', `scheduled→${status}`],
      [`scheduled→${status}`],
      confirmWon ? 1 : 0,
    ]);
  });
});

describe(`cancel: ${N} parallel cancels`, () => {
  it('lets one win with its reason; the others answer 409 and leave no entry or event', async () => {
    const id = await scheduled();
    const results = await race(N, (i) => cancel(id, `reason ${i}`));
    expectOnly(results, [200, 409]);
    expect(tally(results)).toEqual({ 200: 1, 409: N - 1 });
    const reason = `reason ${indexesOf(results, 200)[0]}`;
    expect(results.find((r) => r.status === 200)?.body).toMatchObject({ status: 'cancelled' });
    expect((await storedAppointment(id)).cancellation_reason).toBe(reason);
    const entries = await historyEntries(api, key, `appointments/${id}`);
    expect(entries.map((e) => [e.from_status, e.status, e.reason, e.actor])).toEqual([
      [null, 'scheduled', null, keyId],
      ['scheduled', 'cancelled', reason, keyId],
    ]);
    expect(appointmentEvents(id)).toEqual(['scheduled→cancelled']);
  });

  it('delivers one webhook for the one applied cancel to a subscribed endpoint', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const subscription = await api.post('/api/v1/webhooks', { url: receiver.url, event_types: ['AppointmentStatusChanged'] }, key);
    expect(subscription.status).toBe(201);
    const id = await scheduled();
    await race(N, () => cancel(id));
    expect(await dispatchEntries(eventBridge.entries())).toEqual([]);
    const verifier = new Webhook(subscription.body.secret);
    const received = receiver.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as { data: Record<string, unknown> });
    expect(received.filter((w) => w.data.appointment_id === id).map((w) => `${w.data.from_status}→${w.data.status}`)).toEqual(['scheduled→cancelled']);
    expect((await api.request('DELETE', `/api/v1/webhooks/${subscription.body.id}`, { key })).status).toBe(200);
  });
});

describe('cancel racing update and attach-panels', () => {
  it('lets exactly one cancel win against racing PATCHes and stores the time of a PATCH answered 200 (the original when none was)', async () => {
    const id = await scheduled();
    const original = (await storedAppointment(id)).scheduled_at;
    const times = Array.from({ length: N }, (_, i) => slotIn(10 + i));
    const results = await race(N, (i) => (i % 2 === 0 ? api.patch(`/api/v1/appointments/${id}`, { scheduled_at: times[i] }, key) : cancel(id)));
    expectOnly(results, [200, 409]);
    // In every serial order the first cancel wins (a PATCH before it does not stop it) and all after it are refused.
    expect(indexesOf(results, 200).filter((i) => i % 2 === 1)).toHaveLength(1);
    const patched = indexesOf(results, 200)
      .filter((i) => i % 2 === 0)
      .map((i) => times[i]);
    const stored = await storedAppointment(id);
    expect(stored.status).toBe('cancelled');
    // The stored time is the last PATCH applied, so one answered 200 — or the original when none was.
    expect(patched.length > 0 ? patched : [original]).toContain(stored.scheduled_at);
    expect([await historyMoves(api, key, `appointments/${id}`), appointmentEvents(id)]).toEqual([
      ['∅→scheduled', 'scheduled→cancelled'],
      ['scheduled→cancelled'],
    ]);
  });

  it('answers the winning cancel of a race with PATCHes with the appointment as stored', async () => {
    const id = await scheduled();
    const results = await race(N, (i) => (i % 2 === 0 ? api.patch(`/api/v1/appointments/${id}`, { scheduled_at: slotIn(10 + i) }, key) : cancel(id)));
    const winner = results[indexesOf(results, 200).find((i) => i % 2 === 1) as number];
    expect(winner?.body).toEqual((await api.get(`/api/v1/appointments/${id}`, key)).body);
  });

  it('keeps exactly the biomarkers whose attach answered 200 when attaches race cancels, exactly one of which wins', async () => {
    const id = await scheduled();
    const ids = BIOMARKERS.map((b) => b.id);
    const results = await race(N, (i) =>
      i % 2 === 0 ? api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [ids[(i / 2) % ids.length]] }, key) : cancel(id),
    );
    expectOnly(results, [200, 409]);
    const cancels = indexesOf(results, 200).filter((i) => i % 2 === 1);
    expect(cancels).toHaveLength(1);
    const moves = ['scheduled→cancelled'];
    // Ferritin (1) was attached by scheduled() before the race, so that the draw could be confirmed.
    const attached = new Set([
      1,
      ...indexesOf(results, 200)
        .filter((i) => i % 2 === 0)
        .map((i) => ids[(i / 2) % ids.length]),
    ]);
    const links = await scanItems({
      FilterExpression: 'PK = :pk AND begins_with(SK, :link)',
      ExpressionAttributeValues: { ':pk': `APPT#${id}`, ':link': keys.appointmentBiomarker(id, 0).SK.slice(0, -1) },
    });
    expect(new Set(links.map((l) => l.biomarker_id))).toEqual(attached);
    expect([await historyMoves(api, key, `appointments/${id}`), appointmentEvents(id)]).toEqual([['∅→scheduled', ...moves], moves]);
    // The winning cancel shows the tests attached before it: exactly the stored ones.
    expect(results[cancels[0] as number]?.body).toEqual((await api.get(`/api/v1/appointments/${id}`, key)).body);
  });

  it('cancels on the new state, the attach included, when an attach lands between its read and its write', async () => {
    const id = await scheduled();
    let attach: Promise<ApiResponse> | undefined;
    const attachFirst = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      if (!attach && JSON.stringify((args as { input: unknown }).input).includes('HISTORY#')) {
        attach = api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [1] }, key);
        await attach;
      }
      return next(args);
    };
    const cancelled = await withMiddleware(attachFirst, () => cancel(id));
    expect((await attach)?.status).toBe(200);
    // The serial order attach-then-cancel: the cancel applies, and answers the appointment with the attached biomarker.
    expect([cancelled.status, cancelled.body]).toEqual([200, (await api.get(`/api/v1/appointments/${id}`, key)).body]);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', individual_biomarkers: [{ biomarker_id: 1 }] });
  });

  it('orders exactly the stored tests when a panel is attached while a confirm is being written', async () => {
    const id = await scheduled();
    let attached: Promise<ApiResponse> | undefined;
    // The attach lands between the confirm's read of the appointment and its transaction (the barcode claim).
    const attachFirst = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      if (!attached && JSON.stringify((args as { input: unknown }).input).includes('BARCODE#')) {
        attached = api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [THYROID_PANEL] }, key);
        await attached;
      }
      return next(args);
    };
    const confirmed = await withMiddleware(attachFirst, () => confirm(id, newBarcode()));
    expectOnly([confirmed, (await attached) as ApiResponse], [200, 409]);
    const stored = await api.get(`/api/v1/appointments/${id}`, key);
    const orders = labOrders(id) as { panel_ids: string[] }[];
    expect(orders.map((o) => o.panel_ids)).toEqual(
      stored.body.status === 'blood_drawn' ? [stored.body.panels.map((p: { panel_id: string }) => p.panel_id)] : [],
    );
  });
});

describe(`pickup: ${N} parallel pickups`, () => {
  it('answers 200 to N pickups of one appointment and moves it once', async () => {
    const id = await drawn();
    eventBridge.client.resetHistory();
    const results = await race(N, () => api.post('/api/v1/appointments/pickup', { appointment_ids: [id] }, key));
    expect(tally(results)).toEqual({ 200: N });
    expect((await storedAppointment(id)).status).toBe('in_transit');
    expect([await historyMoves(api, key, `appointments/${id}`), appointmentEvents(id)]).toEqual([
      ['∅→scheduled', 'scheduled→blood_drawn', 'blood_drawn→in_transit'],
      ['blood_drawn→in_transit'],
    ]);
  });

  it('moves each appointment of N overlapping batches once: one entry and one event each', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => drawn()));
    eventBridge.client.resetHistory();
    const results = await race(N, (i) => api.post('/api/v1/appointments/pickup', { appointment_ids: [ids[i % 6], ids[(i + 1) % 6], ids[(i + 3) % 6]] }, key));
    expect(tally(results)).toEqual({ 200: N });
    const perAppointment = await Promise.all(
      ids.map(async (id) => [(await storedAppointment(id)).status, await historyMoves(api, key, `appointments/${id}`), appointmentEvents(id)]),
    );
    expect(perAppointment).toEqual(
      ids.map(() => ['in_transit', ['∅→scheduled', 'scheduled→blood_drawn', 'blood_drawn→in_transit'], ['blood_drawn→in_transit']]),
    );
  });
});

describe(`idempotent creates: ${N} parallel requests with one Idempotency-Key`, () => {
  const post = (path: string, body: unknown, idempotencyKey: string) =>
    api.request('POST', path, { key, body, headers: { 'Idempotency-Key': idempotencyKey } });

  it('creates one profile and answers its id in every 201', async () => {
    const marker = `Race${crypto.randomUUID().replaceAll(/[^a-f]/g, '')}`;
    const body = { profile_group_slug: 'demo-clinic', first_name: 'Ida', last_name: marker, date_of_birth: '1975-06-30' };
    const idempotencyKey = crypto.randomUUID();
    const id = expectOneCreated(await race(N, () => post('/api/v1/profiles', body, idempotencyKey)));
    const stored = await scanItems({
      FilterExpression: 'SK = :sk AND last_name = :marker',
      ExpressionAttributeValues: { ':sk': 'PROFILE', ':marker': marker },
    });
    expect(stored.map((p) => p.id)).toEqual([id]);
  });

  it('refuses the same key with another profile body with 422 and creates nothing more', async () => {
    const body = { profile_group_slug: 'demo-clinic', first_name: 'Ida', last_name: 'Empotent', date_of_birth: '1975-06-30' };
    const idempotencyKey = crypto.randomUUID();
    const first = await post('/api/v1/profiles', body, idempotencyKey);
    const marker = `Race${crypto.randomUUID().replaceAll(/[^a-f]/g, '')}`;
    const results = await race(N, () => post('/api/v1/profiles', { ...body, last_name: marker }, idempotencyKey));
    expect(results.map((r) => [r.status, r.body])).toEqual(Array(N).fill([422, REUSED]));
    expect(
      await scanItems({ FilterExpression: 'SK = :sk AND last_name = :marker', ExpressionAttributeValues: { ':sk': 'PROFILE', ':marker': marker } }),
    ).toEqual([]);
    expect((await post('/api/v1/profiles', body, idempotencyKey)).body.id).toBe(first.body.id);
  });

  it('creates one appointment with one history entry and one event', async () => {
    const profileId = await createProfile(api, key);
    eventBridge.client.resetHistory();
    const body = { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(3) };
    const idempotencyKey = crypto.randomUUID();
    const id = expectOneCreated(await race(N, () => post('/api/v1/appointments', body, idempotencyKey)));
    const stored = await scanItems({
      FilterExpression: 'SK = :sk AND profile_id = :profile',
      ExpressionAttributeValues: { ':sk': 'APPT', ':profile': profileId },
    });
    expect(stored.map((a) => a.id)).toEqual([id]);
    expect([await historyMoves(api, key, `appointments/${id}`), appointmentEvents(id)]).toEqual([['∅→scheduled'], ['∅→scheduled']]);
  });

  it('refuses the same key with another appointment body with 422 and books nothing more', async () => {
    const profileId = await createProfile(api, key);
    const body = { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(3) };
    const idempotencyKey = crypto.randomUUID();
    expect((await post('/api/v1/appointments', body, idempotencyKey)).status).toBe(201);
    const results = await race(N, (i) => post('/api/v1/appointments', { ...body, scheduled_at: slotIn(4 + i) }, idempotencyKey));
    expect(results.map((r) => [r.status, r.body])).toEqual(Array(N).fill([422, REUSED]));
    expect(
      await scanItems({ FilterExpression: 'SK = :sk AND profile_id = :profile', ExpressionAttributeValues: { ':sk': 'APPT', ':profile': profileId } }),
    ).toHaveLength(1);
  });
});
