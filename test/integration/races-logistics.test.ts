/**
 * Races on shipments, home kit orders and webhook subscriptions, and the idempotent creates of shipments
 * and kit orders: N (default 20) conflicting requests on one resource at once, through the local server
 * on DynamoDB Local. Each test asserts the allowed answers (docs/endpoints.md "Shipments", "Home kit orders",
 * "Webhooks"), the stored state, the status history and the events on the mocked bus. Appointments are
 * races-appointments.test.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SECRETS } from '../../shared/domain/webhook';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { keptChanging, MAX_DECISIONS } from '../../shared/usecases/decide-again';
import type { ApiResponse } from '../support/api';
import { useApi } from '../support/api';
import { withMiddleware } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKeyWithId, BERLIN_MITTE, seedDemoData } from '../support/fixtures';
import { eventDetails, eventMoves, expectOneCreated, expectOnly, historyMoves, indexesOf, N, race, REUSED, scanItems, tally } from '../support/races';
import { CARDIOGENETICS_PANEL, createProfile, HOME_KIT_BIOMARKERS, pickupDate } from '../support/scenario';
import { type Receiver, startReceiver } from '../support/webhooks';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;
let keyId: string;
let courier: string;

beforeAll(async () => {
  await seedDemoData();
  ({ plaintext: key, keyId } = await apiKeyWithId());
  courier = (await apiKeyWithId({ scopes: ['SHIPMENTS_TRACK'] })).plaintext;
});

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const stored = async (itemKey: { PK: string; SK: string }) =>
  (await dynamo.send(new GetCommand({ TableName: tableName, Key: itemKey, ConsistentRead: true }))).Item as Record<string, unknown> | undefined;

const postWithKey = (path: string, body: unknown, idempotencyKey: string) =>
  api.request('POST', path, { key, body, headers: { 'Idempotency-Key': idempotencyKey } });

// ————————————————————————————————————————————— shipments —————————————————————————————————————————————

const booking = (overrides: Record<string, unknown> = {}) => ({
  location_id: BERLIN_MITTE,
  pickup_date: pickupDate(),
  pickup_time_from: '10:00',
  pickup_time_till: '12:00',
  ...overrides,
});
const shipmentEvents = (id: string) => eventMoves(eventBridge.entries(), 'ShipmentStatusChanged', 'shipment_id', id);
const track = (id: string, body: Record<string, unknown>) => api.post(`/api/v1/shipments/${id}/status`, body, courier);
const cancelShipment = (id: string) => api.request('DELETE', `/api/v1/shipments/${id}`, { key });
const windowOf = (s: Record<string, unknown>) => [s.pickup_date, s.pickup_time_from, s.pickup_time_till].join(' ');

/** A pending shipment; the events of its creation are cleared, so a test sees only the race's. */
async function pendingShipment(): Promise<string> {
  const res = await api.post('/api/v1/shipments', booking(), key);
  expect(res.status).toBe(201);
  eventBridge.client.resetHistory();
  return res.body.id;
}

/** The lifecycle's allowed provider moves (docs/endpoints.md "Shipments"), as from→to. */
const SHIPMENT_MOVES = new Set([
  'pending→shipped',
  'shipped→in_transit',
  'in_transit→delivered',
  'pending→fault',
  'shipped→fault',
  'in_transit→fault',
  'pending→cancelled',
]);

describe('shipment create', () => {
  it(`creates one shipment for ${N} parallel creates with one Idempotency-Key, with one entry and one event`, async () => {
    const notes = `race ${crypto.randomUUID()}`;
    const idempotencyKey = crypto.randomUUID();
    eventBridge.client.resetHistory();
    const id = expectOneCreated(await race(N, () => postWithKey('/api/v1/shipments', booking({ notes }), idempotencyKey)));
    const items = await scanItems({ FilterExpression: 'SK = :sk AND notes = :notes', ExpressionAttributeValues: { ':sk': 'SHIPMENT', ':notes': notes } });
    expect(items.map((s) => s.id)).toEqual([id]);
    expect([await historyMoves(api, key, `shipments/${id}`), shipmentEvents(id)]).toEqual([['∅→pending'], ['∅→pending']]);
  });

  it('refuses the same Idempotency-Key with another shipment body with 422 and books nothing more', async () => {
    const idempotencyKey = crypto.randomUUID();
    expect((await postWithKey('/api/v1/shipments', booking(), idempotencyKey)).status).toBe(201);
    const notes = `race ${crypto.randomUUID()}`;
    const results = await race(N, () => postWithKey('/api/v1/shipments', booking({ notes }), idempotencyKey));
    expect(results.map((r) => [r.status, r.body])).toEqual(Array(N).fill([422, REUSED]));
    expect(await scanItems({ FilterExpression: 'SK = :sk AND notes = :notes', ExpressionAttributeValues: { ':sk': 'SHIPMENT', ':notes': notes } })).toEqual([]);
  });

  it(`gives ${N} parallel creates without a key ${N} distinct references, each stored with its creation entry`, async () => {
    const notes = `race ${crypto.randomUUID()}`;
    const results = await race(N, () => api.post('/api/v1/shipments', booking({ notes }), key));
    expect(tally(results)).toEqual({ 201: N });
    const ids = results.map((r) => r.body.id as string);
    expect(new Set(ids).size).toBe(N);
    const items = await scanItems({ FilterExpression: 'SK = :sk AND notes = :notes', ExpressionAttributeValues: { ':sk': 'SHIPMENT', ':notes': notes } });
    expect(items.map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(await Promise.all(ids.map((id) => historyMoves(api, key, `shipments/${id}`)))).toEqual(ids.map(() => ['∅→pending']));
  });
});

describe('shipment pickup window', () => {
  it(`stores one PATCH's window whole when ${N} full windows race`, async () => {
    const id = await pendingShipment();
    const windows = Array.from({ length: N }, (_, i) => ({
      pickup_date: pickupDate(2 + (i % 5)),
      pickup_time_from: `${String(9 + (i % 3)).padStart(2, '0')}:00`,
      pickup_time_till: `${14 + (i % 4)}:${i % 2 && i % 4 !== 3 ? '30' : '00'}`,
    }));
    const results = await race(N, (i) => api.patch(`/api/v1/shipments/${id}`, windows[i], key));
    expectOnly(results, [200, 409]);
    const answered = indexesOf(results, 200).map((i) => windowOf(results[i]?.body));
    expect(answered.length).toBeGreaterThan(0);
    expect(answered).toContain(windowOf((await stored(keys.shipment(id))) ?? {}));
  });

  it('loses no update when PATCHes of the date alone race PATCHes of the times alone', async () => {
    const id = await pendingShipment();
    const results = await race(N, (i) =>
      api.patch(
        `/api/v1/shipments/${id}`,
        i % 2 === 0 ? { pickup_date: pickupDate(3 + (i % 7)) } : { pickup_time_from: '09:00', pickup_time_till: `${11 + (i % 7)}:00` },
        key,
      ),
    );
    expectOnly(results, [200, 409]);
    const item = (await stored(keys.shipment(id))) as Record<string, unknown>;
    const datesApplied = indexesOf(results, 200).filter((i) => i % 2 === 0);
    const timesApplied = indexesOf(results, 200).filter((i) => i % 2 === 1);
    // Whatever the order, the stored date is one a date PATCH answered, and the times one a times PATCH
    // answered: a PATCH merged with a window read before another landed would put the old half back.
    if (datesApplied.length > 0) expect(datesApplied.map((i) => results[i]?.body.pickup_date)).toContain(item.pickup_date);
    if (timesApplied.length > 0) expect(timesApplied.map((i) => results[i]?.body.pickup_time_till)).toContain(item.pickup_time_till);
    expect(indexesOf(results, 200).map((i) => windowOf(results[i]?.body))).toContain(windowOf(item));
  });

  it("refuses, rather than undoes, a times PATCH that lands between a date PATCH's read and its write", async () => {
    const id = await pendingShipment();
    let timesPatch: Promise<ApiResponse> | undefined;
    // The date PATCH has read the window; the times PATCH runs to its end before the date PATCH writes.
    const timesFirst = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      const input = JSON.stringify((args as { input: unknown }).input);
      if (!timesPatch && input.includes('UpdateExpression') && input.includes('SHIPMENT#')) {
        timesPatch = api.patch(`/api/v1/shipments/${id}`, { pickup_time_from: '13:00', pickup_time_till: '16:00' }, key);
        await timesPatch;
      }
      return next(args);
    };
    const datePatch = await withMiddleware(timesFirst, () => api.patch(`/api/v1/shipments/${id}`, { pickup_date: pickupDate(5) }, key));
    const answers = [datePatch, (await timesPatch) as ApiResponse];
    expectOnly(answers, [200, 409]);
    const item = (await stored(keys.shipment(id))) as Record<string, unknown>;
    // Serialisable outcomes only: the stored window is the last 200's answer, and holds every 200's change.
    const applied = answers.filter((r) => r.status === 200);
    expect(applied.map((r) => windowOf(r.body))).toContain(windowOf(item));
    if (datePatch.status === 200) expect(item.pickup_date).toBe(pickupDate(5));
    if (answers[1]?.status === 200) expect(item.pickup_time_from).toBe('13:00');
  });
});

describe('shipment cancel racing PATCH and status', () => {
  it(`lets one of ${N} parallel cancels win, with one entry and one event`, async () => {
    const id = await pendingShipment();
    const results = await race(N, () => cancelShipment(id));
    expectOnly(results, [200, 409]);
    expect(tally(results)).toEqual({ 200: 1, 409: N - 1 });
    expect((await stored(keys.shipment(id)))?.status).toBe('cancelled');
    expect([await historyMoves(api, key, `shipments/${id}`), shipmentEvents(id)]).toEqual([['∅→pending', 'pending→cancelled'], ['pending→cancelled']]);
  });

  it('lets exactly one of N/2 DELETEs win against N/2 PATCHes; a PATCH applies only before it', async () => {
    const id = await pendingShipment();
    const original = windowOf((await stored(keys.shipment(id))) ?? {});
    const results = await race(N, (i) =>
      i % 2 === 0 ? api.patch(`/api/v1/shipments/${id}`, { pickup_time_till: `${13 + (i % 5)}:00` }, key) : cancelShipment(id),
    );
    expectOnly(results, [200, 409]);
    // In every serial order the first DELETE wins (a PATCH before it does not stop it) and all after it are refused.
    const cancels = indexesOf(results, 200).filter((i) => i % 2 === 1);
    expect(cancels).toHaveLength(1);
    const item = (await stored(keys.shipment(id))) as Record<string, unknown>;
    const patched = indexesOf(results, 200)
      .filter((i) => i % 2 === 0)
      .map((i) => windowOf(results[i]?.body));
    expect(item.status).toBe('cancelled');
    expect([original, ...patched]).toContain(windowOf(item));
    // The winning DELETE answers the window as stored, whichever PATCH came last before it.
    expect(windowOf(results[cancels[0] as number]?.body)).toEqual(windowOf(item));
    expect([await historyMoves(api, key, `shipments/${id}`), shipmentEvents(id)]).toEqual([['∅→pending', 'pending→cancelled'], ['pending→cancelled']]);
  });

  it('cancels on the new window, and answers it, when a PATCH lands between its read and its write', async () => {
    const id = await pendingShipment();
    let patch: Promise<ApiResponse> | undefined;
    const patchFirst = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      if (!patch && JSON.stringify((args as { input: unknown }).input).includes('TransactItems')) {
        patch = api.patch(`/api/v1/shipments/${id}`, { pickup_time_till: '16:00' }, key);
        await patch;
      }
      return next(args);
    };
    const cancelled = await withMiddleware(patchFirst, () => cancelShipment(id));
    expect((await patch)?.status).toBe(200);
    // The serial order PATCH-then-DELETE: the cancel applies, and answers the shipment with the new window.
    const { appointment_ids: _ids, ...current } = (await api.get(`/api/v1/shipments/${id}`, key)).body;
    expect([cancelled.status, cancelled.body]).toEqual([200, current]);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', pickup_time_till: '16:00' });
  });

  it('lets either the cancel or the shipped callback win, never both', async () => {
    const id = await pendingShipment();
    const results = await race(N, (i) => (i % 2 === 0 ? track(id, { status: 'shipped', tracking_number: `TRACK-${i}` }) : cancelShipment(id)));
    expectOnly(results, [200, 409]);
    const cancels = indexesOf(results, 200).filter((i) => i % 2 === 1);
    const shipped = indexesOf(results, 200).filter((i) => i % 2 === 0);
    const status = (await stored(keys.shipment(id)))?.status;
    // The cancel wins alone, or every shipped callback answers 200 (one applied, the rest no-ops) and every cancel 409.
    expect([cancels.length, shipped.length]).toEqual(status === 'cancelled' ? [1, 0] : [0, Math.ceil(N / 2)]);
    expect([await historyMoves(api, key, `shipments/${id}`), shipmentEvents(id)]).toEqual([['∅→pending', `pending→${status}`], [`pending→${status}`]]);
  });
});

describe('shipment status callbacks', () => {
  it(`applies one of ${N} parallel shipped callbacks; every answer shows the stored tracking number`, async () => {
    const id = await pendingShipment();
    const results = await race(N, (i) =>
      track(id, { status: 'shipped', tracking_number: `TRACK-${i}`, occurred_at: new Date(Date.now() - 60_000).toISOString() }),
    );
    expect(tally(results)).toEqual({ 200: N });
    const item = (await stored(keys.shipment(id))) as Record<string, unknown>;
    expect(new Set(results.map((r) => r.body.tracking_number))).toEqual(new Set([item.tracking_number]));
    expect([await historyMoves(api, key, `shipments/${id}`), shipmentEvents(id)]).toEqual([['∅→pending', 'pending→shipped'], ['pending→shipped']]);
  });

  it(`keeps history, events and state one lawful chain when ${N} shipped, in-transit and fault callbacks race`, async () => {
    const id = await pendingShipment();
    const statuses = ['shipped', 'in_transit', 'fault', 'delivered'];
    const results = await race(N, (i) => track(id, { status: statuses[i % 4] }));
    expectOnly(results, [200, 409]);
    const moves = await historyMoves(api, key, `shipments/${id}`);
    const applied = moves.slice(1);
    expect(applied.length).toBeGreaterThan(0);
    for (const move of applied) expect(SHIPMENT_MOVES).toContain(move);
    // A chain: each move starts where the one before ended, and no status is entered twice.
    applied.forEach((move, i) => expect(move.split('→')[0]).toBe(i === 0 ? 'pending' : applied[i - 1]?.split('→')[1]));
    expect(new Set(applied.map((m) => m.split('→')[1])).size).toBe(applied.length);
    expect((await stored(keys.shipment(id)))?.status).toBe(applied.at(-1)?.split('→')[1]);
    expect([...shipmentEvents(id)].sort()).toEqual([...applied].sort());
  });
});

// ——————————————————————————————————————————— home kit orders ———————————————————————————————————————————

const kitEvents = (id: string) => eventMoves(eventBridge.entries(), 'HomeKitOrderStatusChanged', 'home_kit_order_id', id);
const cancelKit = (id: string) => api.request('DELETE', `/api/v1/home-kit-orders/${id}`, { key });
const dispatch = (id: string, tracking = 'DHL-0001') => api.post(`/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: tracking }, key);

/** A kit order in `state` with the Cardiogenetics panel; the events so far are cleared. */
async function kit(state: 'pending' | 'dispatched' = 'pending'): Promise<{ id: string; profileId: string }> {
  const profileId = await createProfile(api, key);
  const res = await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: { location_id: BERLIN_MITTE } }, key);
  expect(res.status).toBe(201);
  expect((await api.post(`/api/v1/home-kit-orders/${res.body.id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key)).status).toBe(200);
  if (state === 'dispatched') expect((await dispatch(res.body.id)).status).toBe(200);
  eventBridge.client.resetHistory();
  return { id: res.body.id, profileId };
}

describe('home kit order create', () => {
  it(`creates one order for ${N} parallel creates with one Idempotency-Key, with one entry and one event`, async () => {
    const profileId = await createProfile(api, key);
    eventBridge.client.resetHistory();
    const idempotencyKey = crypto.randomUUID();
    const body = { profile_id: profileId, delivery_address: { location_id: BERLIN_MITTE } };
    const id = expectOneCreated(await race(N, () => postWithKey('/api/v1/home-kit-orders', body, idempotencyKey)));
    const items = await scanItems({
      FilterExpression: 'SK = :sk AND profile_id = :profile',
      ExpressionAttributeValues: { ':sk': 'KIT', ':profile': profileId },
    });
    expect(items.map((o) => o.id)).toEqual([id]);
    expect([await historyMoves(api, key, `home-kit-orders/${id}`), kitEvents(id)]).toEqual([['∅→pending'], ['∅→pending']]);
  });

  it('refuses the same Idempotency-Key with another order body with 422 and orders nothing more', async () => {
    const profileId = await createProfile(api, key);
    const idempotencyKey = crypto.randomUUID();
    expect(
      (await postWithKey('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: { location_id: BERLIN_MITTE } }, idempotencyKey)).status,
    ).toBe(201);
    const other = {
      profile_id: profileId,
      delivery_address: { name: 'Erika Muster', street: 'Torstraße', house_number: '1', postal_code: '10119', city: 'Berlin', country: 'DE' },
    };
    const results = await race(N, () => postWithKey('/api/v1/home-kit-orders', other, idempotencyKey));
    expect(results.map((r) => [r.status, r.body])).toEqual(Array(N).fill([422, REUSED]));
    expect(
      await scanItems({ FilterExpression: 'SK = :sk AND profile_id = :profile', ExpressionAttributeValues: { ':sk': 'KIT', ':profile': profileId } }),
    ).toHaveLength(1);
  });
});

describe('home kit order transitions', () => {
  it(`keeps exactly the biomarkers whose attach answered 200 when ${N} attaches race, with no entry or event`, async () => {
    const { id } = await kit();
    const ids = HOME_KIT_BIOMARKERS;
    const results = await race(N, (i) => api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [ids[i % ids.length]] }, key));
    expectOnly(results, [200, 409]);
    const attached = new Set(indexesOf(results, 200).map((i) => String(ids[i % ids.length])));
    expect(attached.size).toBeGreaterThan(0);
    expect(new Set(Object.keys(((await stored(keys.homeKitOrder(id))) as { biomarkers: object }).biomarkers))).toEqual(attached);
    expect([await historyMoves(api, key, `home-kit-orders/${id}`), kitEvents(id)]).toEqual([['∅→pending'], []]);
  });

  it(`lets one of ${N} cancels win, with one entry and one event`, async () => {
    const { id } = await kit();
    const results = await race(N, () => cancelKit(id));
    expectOnly(results, [200, 409]);
    expect(tally(results)).toEqual({ 200: 1, 409: N - 1 });
    expect((await stored(keys.homeKitOrder(id)))?.status).toBe('cancelled');
    expect([await historyMoves(api, key, `home-kit-orders/${id}`), kitEvents(id)]).toEqual([['∅→pending', 'pending→cancelled'], ['pending→cancelled']]);
  });

  it('cancels a kit on the new state, the attach included, when an attach lands between its read and its write', async () => {
    const { id } = await kit();
    let attach: Promise<ApiResponse> | undefined;
    const attachFirst = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      if (!attach && JSON.stringify((args as { input: unknown }).input).includes('TransactItems')) {
        attach = api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [5] }, key);
        await attach;
      }
      return next(args);
    };
    const cancelled = await withMiddleware(attachFirst, () => cancelKit(id));
    expect((await attach)?.status).toBe(200);
    // The serial order attach-then-cancel: the cancel applies, and answers the order with the attached biomarker.
    expect([cancelled.status, cancelled.body]).toEqual([200, (await api.get(`/api/v1/home-kit-orders/${id}`, key)).body]);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', individual_biomarkers: [{ biomarker_id: 5 }] });
  });

  it("answers 503 with Retry-After and changes nothing when attaches keep landing between a kit cancel's reads and writes", async () => {
    const { id } = await kit();
    const attaches: Promise<ApiResponse>[] = [];
    // Before each of the cancel's transactions (MAX_DECISIONS of them) an attach lands: every decision is overtaken.
    const attachEachTime = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      if (JSON.stringify((args as { input: unknown }).input).includes('TransactItems')) {
        attaches.push(api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [HOME_KIT_BIOMARKERS[attaches.length]] }, key));
        await attaches.at(-1);
      }
      return next(args);
    };
    const cancelled = await withMiddleware(attachEachTime, () => cancelKit(id));
    expect((await Promise.all(attaches)).map((r) => r.status)).toEqual(Array(MAX_DECISIONS).fill(200));
    expect([cancelled.status, cancelled.headers.get('retry-after'), cancelled.body]).toEqual([503, '1', { error: keptChanging('order') }]);
    expect((await stored(keys.homeKitOrder(id)))?.status).toBe('pending');
    expect([await historyMoves(api, key, `home-kit-orders/${id}`), kitEvents(id)]).toEqual([['∅→pending'], []]);
  });

  it('cancels a kit that a dispatch landing between its read and its write moved to dispatched', async () => {
    const { id } = await kit();
    let dispatchFirst: Promise<ApiResponse> | undefined;
    const dispatchMeanwhile = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      if (!dispatchFirst && JSON.stringify((args as { input: unknown }).input).includes('TransactItems')) {
        dispatchFirst = dispatch(id, 'DHL-MEANWHILE');
        await dispatchFirst;
      }
      return next(args);
    };
    const cancelled = await withMiddleware(dispatchMeanwhile, () => cancelKit(id));
    expect((await dispatchFirst)?.status).toBe(200);
    // The serial order dispatch-then-cancel: a dispatched kit can be cancelled, so the cancel applies on the new state.
    expect([cancelled.status, cancelled.body?.status, cancelled.body?.tracking_number]).toEqual([200, 'cancelled', 'DHL-MEANWHILE']);
    expect([await historyMoves(api, key, `home-kit-orders/${id}`), kitEvents(id)]).toEqual([
      ['∅→pending', 'pending→dispatched', 'dispatched→cancelled'],
      ['pending→dispatched', 'dispatched→cancelled'],
    ]);
  });

  it(`lets one of ${N} dispatches win with its tracking number, with one entry and one event`, async () => {
    const { id } = await kit();
    const results = await race(N, (i) => dispatch(id, `DHL-RACE-${i}`));
    expectOnly(results, [200, 409]);
    expect(tally(results)).toEqual({ 200: 1, 409: N - 1 });
    expect((await stored(keys.homeKitOrder(id)))?.tracking_number).toBe(`DHL-RACE-${indexesOf(results, 200)[0]}`);
    expect([await historyMoves(api, key, `home-kit-orders/${id}`), kitEvents(id)]).toEqual([['∅→pending', 'pending→dispatched'], ['pending→dispatched']]);
  });

  it('follows dispatch-then-cancel or cancel alone when N/2 dispatches race N/2 cancels', async () => {
    const { id } = await kit();
    const results = await race(N, (i) => (i % 2 === 0 ? dispatch(id, `DHL-RACE-${i}`) : cancelKit(id)));
    expectOnly(results, [200, 409]);
    const dispatched = indexesOf(results, 200).filter((i) => i % 2 === 0);
    expect(indexesOf(results, 200).filter((i) => i % 2 === 1)).toHaveLength(1);
    expect(dispatched.length).toBeLessThanOrEqual(1);
    const expected = dispatched.length === 1 ? ['pending→dispatched', 'dispatched→cancelled'] : ['pending→cancelled'];
    expect((await stored(keys.homeKitOrder(id)))?.status).toBe('cancelled');
    expect([await historyMoves(api, key, `home-kit-orders/${id}`), kitEvents(id)]).toEqual([['∅→pending', ...expected], expected]);
  });

  it('answers the winning kit cancel of a race with dispatches with the order as stored, a dispatch before it included', async () => {
    const { id } = await kit();
    const results = await race(N, (i) => (i % 2 === 0 ? dispatch(id, `DHL-RACE-${i}`) : cancelKit(id)));
    const winner = results[indexesOf(results, 200).find((i) => i % 2 === 1) as number];
    expect(winner?.body).toEqual((await api.get(`/api/v1/home-kit-orders/${id}`, key)).body);
  });

  it(`lets one of ${N} activations with different barcodes win: one appointment, one barcode, one lab order`, async () => {
    const { id, profileId } = await kit('dispatched');
    const barcodes = Array.from({ length: N }, (_, i) => `KIT-${id.slice(0, 8)}-${i}`.toUpperCase());
    const results = await race(N, (i) => api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode: barcodes[i] }, key));
    expectOnly(results, [200, 409]);
    expect(tally(results)).toEqual({ 200: 1, 409: N - 1 });
    const winner = barcodes[indexesOf(results, 200)[0] as number];
    const appointments = await scanItems({
      FilterExpression: 'SK = :sk AND profile_id = :profile',
      ExpressionAttributeValues: { ':sk': 'APPT', ':profile': profileId },
    });
    expect(appointments.map((a) => [a.barcode, a.status])).toEqual([[winner, 'blood_drawn']]);
    const claims = await Promise.all(barcodes.map((b) => stored(keys.barcode(b))));
    expect(claims.filter(Boolean).map((c) => c?.barcode)).toEqual([winner]);
    const appointmentId = appointments[0]?.id as string;
    expect([
      await historyMoves(api, key, `home-kit-orders/${id}`),
      kitEvents(id),
      await historyMoves(api, key, `appointments/${appointmentId}`),
      eventMoves(eventBridge.entries(), 'AppointmentStatusChanged', 'appointment_id', appointmentId),
      eventDetails(eventBridge.entries(), 'LabOrderRequested', 'profile_id', profileId).map((o) => o.barcode),
    ]).toEqual([['∅→pending', 'pending→dispatched', 'dispatched→activated'], ['dispatched→activated'], ['∅→blood_drawn'], ['∅→blood_drawn'], [winner]]);
  });
});

// ——————————————————————————————————————————— webhook subscriptions ———————————————————————————————————————————

const TYPES = ['AppointmentStatusChanged', 'HomeKitOrderStatusChanged', 'ShipmentStatusChanged', 'LabResultsAvailable'];

async function subscription(url = 'http://127.0.0.1:9/hooks'): Promise<{ id: string; secret: string }> {
  const res = await api.post('/api/v1/webhooks', { url, event_types: [TYPES[0]] }, key);
  expect(res.status).toBe(201);
  return { id: res.body.id, secret: res.body.secret };
}

/** The event types the subscription's route items send it (what the dispatcher reads). */
async function routedTypes(webhookId: string): Promise<string[]> {
  const routes = await scanItems({
    FilterExpression: 'begins_with(PK, :route) AND SK = :sk',
    ExpressionAttributeValues: { ':route': 'WEBHOOK_ROUTE#', ':sk': `WEBHOOK#${webhookId}` },
  });
  return routes.map((r) => (r.PK as string).slice('WEBHOOK_ROUTE#'.length)).sort();
}

describe('webhook subscription changes', () => {
  it(`stores one of ${N} parallel PATCHes whole, and routes exactly its event types`, async () => {
    const { id } = await subscription();
    const results = await race(N, (i) =>
      api.patch(
        `/api/v1/webhooks/${id}`,
        {
          url: `http://127.0.0.1:9/hooks/${i}`,
          event_types: TYPES.slice(0, 1 + (i % 4)),
          status: i % 3 === 0 ? 'disabled' : 'enabled',
          description: `patch ${i}`,
        },
        key,
      ),
    );
    expectOnly(results, [200, 409]);
    expect(indexesOf(results, 200).length).toBeGreaterThan(0);
    const current = (await api.get(`/api/v1/webhooks/${id}`, key)).body;
    expect(indexesOf(results, 200).map((i) => results[i]?.body)).toContainEqual(current);
    expect(await routedTypes(id)).toEqual([...current.event_types].sort());
  });

  it(`keeps as current secret one that a 200 of ${N} parallel rotations answered, and no refused one`, async () => {
    const { id, secret: original } = await subscription();
    const results = await race(N, () => api.post(`/api/v1/webhooks/${id}/rotate-secret`, {}, key));
    expectOnly(results, [200, 409]);
    const answered = indexesOf(results, 200).map((i) => results[i]?.body.secret as string);
    const refused = results.filter((r) => r.status === 409);
    const secrets = ((await stored(keys.webhook(id))) as { secrets: { secret: string }[] }).secrets.map((s) => s.secret);
    expect(answered).toContain(secrets[0]);
    // Refused answers carry no secret; every stored one was answered by some request (or is the original).
    expect(refused.every((r) => r.body.secret === undefined)).toBe(true);
    for (const secret of secrets) expect([original, ...answered]).toContain(secret);
    // Each applied rotation keeps the secrets before it (up to MAX_SECRETS): none answered 200 was overwritten unseen.
    expect(secrets).toHaveLength(Math.min(1 + answered.length, MAX_SECRETS));
  });

  it('signs with the secret the winning rotation answered', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { id } = await subscription(receiver.url);
    const results = await race(N, () => api.post(`/api/v1/webhooks/${id}/rotate-secret`, {}, key));
    const current = ((await stored(keys.webhook(id))) as { secrets: { secret: string }[] }).secrets[0]?.secret as string;
    expect((await api.post(`/api/v1/webhooks/${id}/test`, {}, key)).status).toBe(200);
    const [sent] = receiver.received;
    const verifiesWith = (secret: string) => {
      try {
        new Webhook(secret).verify(sent?.body ?? '', sent?.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    };
    expect(
      indexesOf(results, 200)
        .map((i) => results[i]?.body.secret as string)
        .filter((s) => s === current && verifiesWith(s)),
    ).toEqual([current]);
  });

  it('lets at most one of N/2 DELETEs win against N/2 PATCHes and leaves no route or count behind', async () => {
    const { id } = await subscription();
    const countBefore = (await stored(keys.webhookCount(keyId)))?.subscriptions as number;
    const results = await race(N, (i) =>
      i % 2 === 0
        ? api.patch(`/api/v1/webhooks/${id}`, { event_types: TYPES.slice(0, 1 + (i % 4)) }, key)
        : api.request('DELETE', `/api/v1/webhooks/${id}`, { key }),
    );
    expectOnly(results, [200, 404, 409]);
    // Changes are conditional on the version read: a DELETE decided before a PATCH landed answers 409.
    const deleted = indexesOf(results, 200).filter((i) => i % 2 === 1).length;
    expect(deleted).toBeLessThanOrEqual(1);
    const current = await api.get(`/api/v1/webhooks/${id}`, key);
    expect(current.status).toBe(deleted === 1 ? 404 : 200);
    expect(await routedTypes(id)).toEqual(deleted === 1 ? [] : [...current.body.event_types].sort());
    expect((await stored(keys.webhookCount(keyId)))?.subscriptions).toBe(countBefore - deleted);
  });
});
