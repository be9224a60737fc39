/**
 * POST /api/v1/profiles/{id}/erase (docs/privacy.md "Privacy"): the person's identifiers go, what was still to happen
 * is cancelled through the normal transitions, copies of their data go, results stay; a failure midway is
 * finished by the retry.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import { GSI1 } from '../../shared/store/keys';
import * as keys from '../../shared/store/keys/items';
import { eraseProfileIdentifiers } from '../../shared/store/profiles';
import { useApi } from '../support/api';
import { type Handler, type Middleware, withMiddleware } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { clinical, deliver, report } from '../support/lab';
import { CARDIOGENETICS_PANEL, confirmDraw, newBarcode, scheduleAppointment, slotIn, THYROID_PANEL } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const person = {
  profile_group_slug: 'demo-clinic',
  first_name: 'Jürgen',
  last_name: 'Eraseme',
  handle: 'juergen.e',
  email: 'juergen@example.org',
  phone: '+4915112345678',
  sex: 1,
  date_of_birth: '1961-02-03',
  height: 180,
  weight: 82,
};
const homeAddress = {
  name: 'Jürgen Eraseme',
  street: 'Torstraße',
  house_number: '12a',
  postal_code: '10119',
  city: 'Berlin',
  country: 'DE',
  phone: '+4915112345678',
  email: 'juergen@example.org',
};

async function newPerson(): Promise<string> {
  const res = await api.post('/api/v1/profiles', person, key);
  expect(res.status).toBe(201);
  // Set by PATCH only: the consent to transactional emails is erased too.
  expect((await api.patch(`/api/v1/profiles/${res.body.id}`, { transactional_emails_enabled: true }, key)).status).toBe(200);
  return res.body.id;
}

const erase = (id: string, withKey = key) => api.request('POST', `/api/v1/profiles/${id}/erase`, { key: withKey });

async function kitOrder(profileId: string, state: 'pending' | 'dispatched' | 'activated', deliveryAddress: Record<string, unknown> = homeAddress) {
  const res = await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: deliveryAddress }, key);
  expect(res.status).toBe(201);
  const id = res.body.id as string;
  await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
  if (state !== 'pending') expect((await api.post(`/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: 'DHL-0001' }, key)).status).toBe(200);
  if (state === 'activated') expect((await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode: newBarcode() }, key)).status).toBe(200);
  return id;
}

async function storedItem(key: { PK: string; SK: string }) {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item as Record<string, unknown>;
}

const isIndexQuery = (args: unknown) => (args as { input: { IndexName?: string } }).input.IndexName === GSI1;
type QueryOutput = { output: { Items?: Record<string, unknown>[] } };

/** GSI1 answers as if it had not caught up with the record `id` yet. */
const hideFromIndex =
  (id: string): Middleware =>
  (next) =>
  async (args) => {
    const result = (await next(args)) as QueryOutput;
    if (isIndexQuery(args) && result.output.Items) result.output.Items = result.output.Items.filter((item) => item.id !== id);
    return result;
  };

/** GSI1 answers the record `id` with an older status. */
const staleIndexStatus =
  (id: string, status: string): Middleware =>
  (next) =>
  async (args) => {
    const result = (await next(args)) as QueryOutput;
    if (isIndexQuery(args)) result.output.Items = result.output.Items?.map((item) => (item.id === id ? { ...item, status } : item));
    return result;
  };

const IDENTIFIERS = { first_name: null, last_name: null, handle: null, email: null, phone: null, sex: null, date_of_birth: null, height: null, weight: null };

describe('POST /api/v1/profiles/{id}/erase', () => {
  it('answers the profile with every identifier null and erased_at set', async () => {
    const id = await newPerson();
    const res = await erase(id);
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ id, ...IDENTIFIERS, transactional_emails_enabled: null, erased_at: expect.any(String) });
  });

  it('answers GET of the erased profile with the identifiers null and erased_at', async () => {
    const id = await newPerson();
    await erase(id);
    const res = await api.get(`/api/v1/profiles/${id}`, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, ...IDENTIFIERS, erased_at: expect.any(String) });
  });

  it('stores no value of the identifiers any more', async () => {
    const id = await newPerson();
    await erase(id);
    const stored = JSON.stringify(await storedItem(keys.profile(id)));
    for (const value of ['Jürgen', 'Eraseme', 'juergen', '+4915112345678', '1961-02-03']) expect(stored).not.toContain(value);
  });

  it('cancels a scheduled appointment through its transition, with the reason "profile erased" in its history', async () => {
    const id = await newPerson();
    const appointmentId = await scheduleAppointment(api, key, { profileId: id });
    const res = await erase(id);
    expect(res.body.cancelled_appointment_ids).toEqual([appointmentId]);
    const history = await api.get(`/api/v1/appointments/${appointmentId}/history`, key);
    expect(history.body.at(-1)).toMatchObject({ status: 'cancelled', from_status: 'scheduled', reason: 'profile erased' });
  });

  it('publishes the status change of every appointment it cancels', async () => {
    const id = await newPerson();
    const appointmentIds = [
      await scheduleAppointment(api, key, { profileId: id }),
      await scheduleAppointment(api, key, { profileId: id, scheduledAt: slotIn(8) }),
    ];
    eventBridge.client.resetHistory();
    await erase(id);
    const changed = eventBridge
      .entries()
      .filter((entry) => entry.DetailType === 'AppointmentStatusChanged')
      .map((entry) => JSON.parse(entry.Detail ?? '{}') as { appointment_id: string; status: string });
    expect(changed.map((detail) => detail.appointment_id).sort()).toEqual([...appointmentIds].sort());
    expect(changed.every((detail) => detail.status === 'cancelled')).toBe(true);
  });

  it('leaves a drawn appointment and its results as they are', async () => {
    const id = await newPerson();
    const appointmentId = await scheduleAppointment(api, key, { profileId: id });
    await api.post(`/api/v1/appointments/${appointmentId}/panels`, { panel_ids: [THYROID_PANEL] }, key);
    await confirmDraw(api, key, appointmentId);
    await deliver(report(appointmentId, { clinical_results: [clinical(3, 2.1)] }));
    const res = await erase(id);
    expect(res.body.cancelled_appointment_ids).toEqual([]);
    const results = await api.get(`/api/v1/appointments/${appointmentId}/results`, key);
    expect(results.status).toBe(200);
    expect(results.body.clinical_results.find((r: { biomarker_id: number }) => r.biomarker_id === 3)).toMatchObject({ status: 'received', value: 2.1 });
  });

  it('cancels a pending and a dispatched kit order and removes their delivery addresses', async () => {
    const id = await newPerson();
    const orders = [await kitOrder(id, 'pending'), await kitOrder(id, 'dispatched')];
    const res = await erase(id);
    expect([...res.body.cancelled_home_kit_order_ids].sort()).toEqual([...orders].sort());
    for (const orderId of orders) {
      const order = await api.get(`/api/v1/home-kit-orders/${orderId}`, key);
      expect(order.body).toMatchObject({ status: 'cancelled', delivery_address: null });
    }
  });

  it("removes an activated kit order's delivery address without changing its status", async () => {
    const id = await newPerson();
    const orderId = await kitOrder(id, 'activated');
    const res = await erase(id);
    expect(res.body).toMatchObject({ cancelled_home_kit_order_ids: [], erased_delivery_address_order_ids: [orderId] });
    const stored = await storedItem(keys.homeKitOrder(orderId));
    expect(stored).toMatchObject({ status: 'activated', delivery_address: null });
  });

  it('keeps a kit order addressed to a test location addressed to it', async () => {
    const id = await newPerson();
    const orderId = await kitOrder(id, 'activated', { location_id: BERLIN_MITTE });
    const res = await erase(id);
    expect(res.body.erased_delivery_address_order_ids).toEqual([]);
    expect((await storedItem(keys.homeKitOrder(orderId))).delivery_address).toEqual({ location_id: BERLIN_MITTE });
  });

  it('answers a second erasure 200, changing nothing', async () => {
    const id = await newPerson();
    await scheduleAppointment(api, key, { profileId: id });
    await kitOrder(id, 'pending');
    const first = await erase(id);
    const second = await erase(id);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, cancelled_appointment_ids: [], cancelled_home_kit_order_ids: [], erased_delivery_address_order_ids: [] });
  });

  it('answers PATCH of an erased profile 409, changing nothing', async () => {
    const id = await newPerson();
    await erase(id);
    const res = await api.patch(`/api/v1/profiles/${id}`, { first_name: 'Back' }, key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The profile was erased: it can no longer be changed or booked for (docs/privacy.md)' });
    expect((await storedItem(keys.profile(id))).first_name).toBeNull();
  });

  it('answers a new appointment for an erased profile 409', async () => {
    const id = await newPerson();
    await erase(id);
    const res = await api.post('/api/v1/appointments', { profile_id: id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key);
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('erased');
  });

  it('answers a new kit order for an erased profile 409', async () => {
    const id = await newPerson();
    await erase(id);
    const res = await api.post('/api/v1/home-kit-orders', { profile_id: id, delivery_address: homeAddress }, key);
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('erased');
  });

  it('is finished by a retry after a failure midway', async () => {
    const id = await newPerson();
    const appointmentIds = [
      await scheduleAppointment(api, key, { profileId: id }),
      await scheduleAppointment(api, key, { profileId: id, scheduledAt: slotIn(8) }),
    ];
    // The fault at the SDK edge: the second cancellation's transaction fails as DynamoDB would when unavailable,
    // shaped as the SDK throws it once its retries gave up (`$metadata` set: shared/http/errors.ts isTryAgainLater).
    let transactions = 0;
    const failSecondTransaction = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      const input = (args as { input: { TransactItems?: unknown[] } }).input;
      if (input.TransactItems && (transactions += 1) === 2)
        throw Object.assign(new Error('injected: service unavailable'), {
          name: 'InternalServerError',
          $fault: 'server',
          $metadata: { httpStatusCode: 500, attempts: 3 },
        });
      return next(args);
    };
    dynamo.middlewareStack.add(failSecondTransaction as never, { step: 'initialize', name: 'failSecondTransaction' });
    let failed;
    try {
      failed = await erase(id);
    } finally {
      dynamo.middlewareStack.remove('failSecondTransaction');
    }
    expect({ status: failed.status, retryAfter: failed.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '1' });
    const statuses = async () => Promise.all(appointmentIds.map(async (a) => (await storedItem(keys.appointment(a))).status));
    expect((await statuses()).sort()).toEqual(['cancelled', 'scheduled']);
    const retried = await erase(id);
    expect(retried.status).toBe(200);
    expect(await statuses()).toEqual(['cancelled', 'cancelled']);
  });

  it('cancels an appointment booked a moment before, which the index does not show yet', async () => {
    const id = await newPerson();
    const hidden = await scheduleAppointment(api, key, { profileId: id });
    // DynamoDB Local updates GSI1 at once; in AWS it lags: the fault at the SDK edge is a GSI1 answer without it.
    await withMiddleware(hideFromIndex(hidden), async () => {
      const res = await erase(id);
      expect(res.body.cancelled_appointment_ids).toEqual([hidden]);
    });
    expect((await storedItem(keys.appointment(hidden))).status).toBe('cancelled');
  });

  it('cancels a kit order the index still shows as pending although it was dispatched', async () => {
    const id = await newPerson();
    const orderId = await kitOrder(id, 'dispatched');
    await withMiddleware(staleIndexStatus(orderId, 'pending'), async () => {
      const res = await erase(id);
      expect(res.body.cancelled_home_kit_order_ids).toEqual([orderId]);
    });
    expect(await storedItem(keys.homeKitOrder(orderId))).toMatchObject({ status: 'cancelled', delivery_address: null });
  });

  it('answers 409 to a booking whose person is erased between its check and its write', async () => {
    const id = await newPerson();
    let erased = false;
    // The erasure lands while the booking is on its way: right before the booking's transaction.
    const eraseFirst = (next: Handler) => async (args: unknown) => {
      if (!erased && (args as { input: { TransactItems?: unknown[] } }).input.TransactItems) {
        erased = true;
        await eraseProfileIdentifiers(id, new Date().toISOString());
      }
      return next(args);
    };
    const res = await withMiddleware(eraseFirst, () =>
      api.post('/api/v1/appointments', { profile_id: id, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key),
    );
    expect(res.status).toBe(409);
    expect((await api.get(`/api/v1/profiles/${id}/appointments`, key)).body).toEqual([]);
  });

  it('writes one history entry per cancellation, even when retried', async () => {
    const id = await newPerson();
    const appointmentId = await scheduleAppointment(api, key, { profileId: id });
    await erase(id);
    await erase(id);
    const { Items } = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.historyEntry(keys.appointment(appointmentId), 1).PK },
      }),
    );
    expect(Items?.map((item) => item.status)).toEqual(['scheduled', 'cancelled']);
  });

  it('answers 403 to a key without PROFILES_ERASE', async () => {
    const id = await newPerson();
    const res = await erase(id, await apiKey({ scopes: ['CREATE_USER', 'PROFILES_VIEW'] }));
    expect(res.status).toBe(403);
    expect((await storedItem(keys.profile(id))).first_name).toBe('Jürgen');
  });

  it('answers 403 to a key of another tenant, erasing nothing', async () => {
    const id = await newPerson();
    const res = await erase(id, await apiKey({ profileGroups: ['partner-clinic'] }));
    expect(res.status).toBe(403);
    expect((await storedItem(keys.profile(id))).first_name).toBe('Jürgen');
  });

  it('answers 401 without a key', async () => {
    const res = await api.request('POST', `/api/v1/profiles/${UNKNOWN_ID}/erase`, {});
    expect(res.status).toBe(401);
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await erase(UNKNOWN_ID);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Profile not found' });
  });
});
