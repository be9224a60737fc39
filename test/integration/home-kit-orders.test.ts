/** Home kit orders: order, attach tests, dispatch, activate into a lab order, cancel. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import { putBiomarker } from '../../shared/store/catalog';
import { GSI1 } from '../../shared/store/keys';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_INACTIVE, BERLIN_MITTE, BIOMARKERS, HELSINKI_KAMPPI, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { CARDIOGENETICS_PANEL, confirmDraw, createProfile, newBarcode, scheduleAppointment } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const inline = {
  name: 'Erika Muster',
  street: 'Torstraße',
  house_number: '12a',
  postal_code: '10119',
  city: 'Berlin',
  country: 'DE',
  phone: '+4915112345678',
  email: 'erika@example.org',
};

async function order(delivery_address: Record<string, unknown> = inline, profileId?: string) {
  const res = await api.post('/api/v1/home-kit-orders', { profile_id: profileId ?? (await createProfile(api, key)), delivery_address }, key);
  expect(res.status).toBe(201);
  return res.body as { id: string; profile_id: string };
}

async function inState(state: 'pending' | 'dispatched' | 'activated' | 'cancelled') {
  const { id } = await order();
  await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
  if (state === 'cancelled') await api.request('DELETE', `/api/v1/home-kit-orders/${id}`, { key });
  if (state === 'dispatched' || state === 'activated') await api.post(`/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: 'DHL-0001' }, key);
  if (state === 'activated') await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode: newBarcode() }, key);
  return id;
}

describe('POST /api/v1/home-kit-orders', () => {
  it('creates a bare pending order to an inline address, with the full embedded profile', async () => {
    const profileId = await createProfile(api, key);
    const res = await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: inline }, key);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      profile_id: profileId,
      status: 'pending',
      delivery_address: inline,
      updated_at: null,
      panels: [],
      individual_biomarkers: [],
      appointment_id: null,
    });
    expect(res.body.profile).toMatchObject({ id: profileId, transactional_emails_enabled: null, created_at: expect.any(String) });
  });

  it('accepts a location reference as the delivery address', async () => {
    const res = await order({ location_id: BERLIN_MITTE });
    expect((res as unknown as { delivery_address: unknown }).delivery_address).toEqual({ location_id: BERLIN_MITTE });
  });

  it('accepts an inline address without the optional phone and email', async () => {
    const { phone: _p, email: _e, ...required } = inline;
    await order(required);
  });

  it.each(['name', 'street', 'house_number', 'postal_code', 'city', 'country'])('answers 400 naming the missing %s', async (field) => {
    const { [field as keyof typeof inline]: _omitted, ...address } = inline;
    const res = await api.post('/api/v1/home-kit-orders', { profile_id: await createProfile(api, key), delivery_address: address }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `delivery_address.${field} is required` });
  });

  it.each([
    ['both shapes mixed', { ...inline, location_id: BERLIN_MITTE }, 'delivery_address must be either {location_id} or an inline address, not both'],
    [
      'a country that does not exist',
      { ...inline, country: 'XX' },
      'delivery_address.country must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
    ],
    ['a lower-case country', { ...inline, country: 'de' }, 'delivery_address.country must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)'],
    ['a phone that is not E.164', { ...inline, phone: '030 123456' }, 'delivery_address.phone must be an E.164 phone number (e.g. +4930123456)'],
    ['a bad email', { ...inline, email: 'erika@' }, 'delivery_address.email must be a valid email address'],
    ['an empty street', { ...inline, street: '  ' }, 'delivery_address.street must not be empty'],
    ['an unknown field', { ...inline, floor: '3' }, 'delivery_address.floor is not an allowed field'],
    ['a location id that is not a UUID', { location_id: 'mitte' }, 'delivery_address.location_id must be a valid UUID'],
    ['a string', 'Torstraße 12a, Berlin', 'delivery_address must be an object: {location_id} or an inline address'],
  ])('answers 400 for %s', async (_, address, message) => {
    const res = await api.post('/api/v1/home-kit-orders', { profile_id: await createProfile(api, key), delivery_address: address }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it('answers 400 when delivery_address is missing', async () => {
    const res = await api.post('/api/v1/home-kit-orders', { profile_id: UNKNOWN_ID }, key);
    expect(res.body).toEqual({ error: 'delivery_address is required' });
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await api.post('/api/v1/home-kit-orders', { profile_id: UNKNOWN_ID, delivery_address: inline }, key);
    expect(res.status).toBe(404);
  });

  it('answers 404 for an inactive location', async () => {
    const res = await api.post(
      '/api/v1/home-kit-orders',
      { profile_id: await createProfile(api, key), delivery_address: { location_id: BERLIN_INACTIVE } },
      key,
    );
    expect(res.status).toBe(404);
  });

  it('answers 403 for a location outside the key context', async () => {
    const res = await api.post(
      '/api/v1/home-kit-orders',
      { profile_id: await createProfile(api, key), delivery_address: { location_id: HELSINKI_KAMPPI } },
      key,
    );
    expect(res.status).toBe(403);
  });

  it('answers 403 for a profile outside the key context', async () => {
    const partner = await apiKey({ profileGroups: ['partner-clinic'] });
    const res = await api.post('/api/v1/home-kit-orders', { profile_id: await createProfile(api, partner, 'partner-clinic'), delivery_address: inline }, key);
    expect(res.status).toBe(403);
  });

  it('answers 403 to a key without home_kit_orders_manage', async () => {
    const res = await api.post(
      '/api/v1/home-kit-orders',
      { profile_id: UNKNOWN_ID, delivery_address: inline },
      await apiKey({ scopes: ['TEST_SESSIONS_SCHEDULE'] }),
    );
    expect(res.status).toBe(403);
  });
});

describe('GET /api/v1/home-kit-orders/{id} and the profile list', () => {
  it('answers the order', async () => {
    const { id } = await order();
    const res = await api.get(`/api/v1/home-kit-orders/${id}`, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'pending' });
  });

  it('answers 400 for an id that is not a UUID', async () => {
    expect((await api.get('/api/v1/home-kit-orders/kit-1', key)).status).toBe(400);
  });

  it('answers 404 for an unknown order', async () => {
    const res = await api.get(`/api/v1/home-kit-orders/${UNKNOWN_ID}`, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Home kit order not found' });
  });

  it('answers 403 for an order of another tenant', async () => {
    const { id } = await order();
    expect((await api.get(`/api/v1/home-kit-orders/${id}`, await apiKey({ profileGroups: ['partner-clinic'] }))).status).toBe(403);
  });

  it('lists a profile orders newest first, with their tests', async () => {
    const profileId = await createProfile(api, key);
    const first = await order(inline, profileId);
    await new Promise((r) => setTimeout(r, 5));
    const second = await order({ location_id: BERLIN_MITTE }, profileId);
    await api.post(`/api/v1/home-kit-orders/${first.id}/biomarkers`, { biomarker_ids: [5] }, key);
    const res = await api.get(`/api/v1/profiles/${profileId}/home-kit-orders`, key);
    expect(res.body.map((o: { id: string }) => o.id)).toEqual([second.id, first.id]);
    expect(res.body[1].individual_biomarkers).toEqual([{ biomarker_id: 5, added_at: expect.any(String) }]);
  });

  it('reads the list with a Query on GSI1, never a Scan', async () => {
    const profileId = await createProfile(api, key);
    await order(inline, profileId);
    const { Items } = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': `PROFILE#${profileId}` },
      }),
    );
    expect(Items?.map((item) => (item.GSI1SK as string).split('#')[0])).toEqual(['KIT']);
  });
});

describe('attaching tests', () => {
  it('attaches panels while pending and answers the whole order', async () => {
    const { id } = await order();
    const res = await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
    expect(res.status).toBe(200);
    expect(res.body.panels).toEqual([{ panel_id: CARDIOGENETICS_PANEL, added_at: expect.any(String) }]);
    expect(res.body.updated_at).toEqual(expect.any(String));
  });

  it('keeps the first added_at when a biomarker is attached again', async () => {
    const { id } = await order();
    const first = await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [5] }, key);
    await new Promise((r) => setTimeout(r, 5));
    const again = await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [5, 6] }, key);
    expect(again.body.individual_biomarkers[0]).toEqual(first.body.individual_biomarkers[0]);
    expect(again.body.individual_biomarkers).toHaveLength(2);
  });

  it('answers 404 for an unknown panel and attaches nothing', async () => {
    const { id } = await order();
    const res = await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL, UNKNOWN_ID] }, key);
    expect(res.status).toBe(404);
    expect((await api.get(`/api/v1/home-kit-orders/${id}`, key)).body.panels).toEqual([]);
  });

  it('answers 400 for an empty list', async () => {
    const { id } = await order();
    expect((await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [] }, key)).status).toBe(400);
  });

  it.each(['dispatched', 'activated', 'cancelled'] as const)('answers 409 for a %s order', async (state) => {
    const id = await inState(state);
    const res = await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `The order is ${state}; tests can only be attached while it is pending` });
  });
});

describe('the 90-test capacity of a kit', () => {
  it('holds under two concurrent attaches of 50 biomarkers each: one wins, the kit never exceeds 90', async () => {
    const extra = Array.from({ length: 100 }, (_, i) => 1000 + i);
    await Promise.all(
      extra.map((id) =>
        // A home kit's test (HbA1c's specimen, methods and turnaround) under another id and name.
        putBiomarker({ ...BIOMARKERS.find((b) => b.id === 6)!, id, name: `Test marker ${id}`, unit_id: null, unit: null, reference_range_service: null }),
      ),
    );
    const { id } = await order();
    const results = await Promise.all([
      api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: extra.slice(0, 50) }, key),
      api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: extra.slice(50) }, key),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.find((r) => r.status !== 200)?.status).toBeOneOf([400, 409]);
    expect((await api.get(`/api/v1/home-kit-orders/${id}`, key)).body.individual_biomarkers).toHaveLength(50);
  });
});

describe('DELETE /api/v1/home-kit-orders/{id}', () => {
  it.each(['pending', 'dispatched'] as const)('cancels a %s order, keeping its tests listed', async (state) => {
    const id = await inState(state);
    const res = await api.request('DELETE', `/api/v1/home-kit-orders/${id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', panels: [{ panel_id: CARDIOGENETICS_PANEL, added_at: expect.any(String) }] });
    expect(res.body.profile).toHaveProperty('transactional_emails_enabled');
  });

  it.each(['activated', 'cancelled'] as const)('answers 409 for an %s order', async (state) => {
    const id = await inState(state);
    expect((await api.request('DELETE', `/api/v1/home-kit-orders/${id}`, { key })).status).toBe(409);
  });

  it('answers 400 for an id that is not a UUID', async () => {
    expect((await api.request('DELETE', '/api/v1/home-kit-orders/abc', { key })).status).toBe(400);
  });
});

describe('POST /api/v1/home-kit-orders/{id}/dispatch', () => {
  it('moves a pending order with tests to dispatched, recording tracking number and dispatched_at', async () => {
    const id = await inState('pending');
    const res = await api.post(`/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: 'DHL-123456', carrier: 'DHL' }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'dispatched', tracking_number: 'DHL-123456', carrier: 'DHL', dispatched_at: expect.any(String) });
  });

  it('answers 409 for an order without any test', async () => {
    const { id } = await order();
    const res = await api.post(`/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: 'DHL-123456' }, key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The order has no panel and no biomarker; attach tests before dispatching the kit' });
  });

  it('answers 409 for an order already dispatched', async () => {
    const id = await inState('dispatched');
    expect((await api.post(`/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: 'DHL-999999' }, key)).status).toBe(409);
  });

  it('answers 400 without a tracking number', async () => {
    const id = await inState('pending');
    const res = await api.post(`/api/v1/home-kit-orders/${id}/dispatch`, {}, key);
    expect(res.body).toEqual({ error: 'tracking_number is required' });
  });
});

describe('POST /api/v1/home-kit-orders/{id}/activate', () => {
  it('creates a home appointment carrying the order tests, and shows its id on the order', async () => {
    const id = await inState('dispatched');
    const barcode = newBarcode();
    const res = await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'activated', appointment_id: expect.any(String) });
    const appointment = await api.get(`/api/v1/appointments/${res.body.appointment_id}`, key);
    expect(appointment.body).toMatchObject({
      status: 'blood_drawn',
      test_method: 'home',
      location_id: null,
      scheduled_at: null,
      panels: [{ panel_id: CARDIOGENETICS_PANEL, added_at: expect.any(String) }],
    });
  });

  it('puts one LabOrderRequested for the home sample', async () => {
    const id = await inState('dispatched');
    eventBridge.client.resetHistory();
    const barcode = newBarcode();
    const res = await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode }, key);
    const entries = eventBridge.entries().filter((e) => e.DetailType === 'LabOrderRequested');
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0]?.Detail as string)).toMatchObject({
      appointment_id: res.body.appointment_id,
      barcode,
      test_method: 'home',
      location_id: null,
      panel_ids: [CARDIOGENETICS_PANEL],
      biomarker_ids: [100, 102],
    });
  });

  it('answers 200 and creates nothing new when activated again with the same barcode', async () => {
    const id = await inState('dispatched');
    const barcode = newBarcode();
    const first = await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode }, key);
    eventBridge.client.resetHistory();
    const again = await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode }, key);
    expect(again.status).toBe(200);
    expect(again.body.appointment_id).toBe(first.body.appointment_id);
    expect(eventBridge.entries()).toHaveLength(0);
  });

  it('answers 409 for a barcode already used by an appointment, and leaves the order dispatched', async () => {
    const appointment = await scheduleAppointment(api, key);
    const barcode = await confirmDraw(api, key, appointment);
    const id = await inState('dispatched');
    const res = await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode }, key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This barcode is already used by another sample' });
    expect((await api.get(`/api/v1/home-kit-orders/${id}`, key)).body.status).toBe('dispatched');
  });

  it('answers 409 for a pending order (not yet mailed)', async () => {
    const id = await inState('pending');
    expect((await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode: newBarcode() }, key)).status).toBe(409);
  });

  it('answers 409 when activated again with another barcode', async () => {
    const id = await inState('activated');
    expect((await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode: newBarcode() }, key)).status).toBe(409);
  });

  it('answers 400 for a malformed barcode', async () => {
    const id = await inState('dispatched');
    expect((await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode: 'kit 1' }, key)).status).toBe(400);
  });

  it('makes one appointment and one event of 10 parallel activations of one order', async () => {
    const id = await inState('dispatched');
    const profileId = (await api.get(`/api/v1/home-kit-orders/${id}`, key)).body.profile_id;
    eventBridge.client.resetHistory();
    const barcode = newBarcode();
    const results = await Promise.all(Array.from({ length: 10 }, () => api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode }, key)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.appointment_id)).size).toBe(1);
    const appointments = await api.get(`/api/v1/profiles/${profileId}/appointments`, key);
    expect(appointments.body).toHaveLength(1);
    expect(eventBridge.entries().filter((e) => e.DetailType === 'LabOrderRequested')).toHaveLength(1);
  });
});
