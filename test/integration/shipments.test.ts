/**
 * Shipments through the API with a fixed clock (LAB_CLOCK): Monday 2026-11-23, 09:00 in Berlin.
 * The Berlin calendar rules themselves are unit-tested at their edges (test/unit/pickup-window.test.ts).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.LAB_CLOCK = '2026-11-23T08:00:00Z';
});

import type { AccessContext } from '../../shared/auth/access';
import { accessOfKeyId } from '../../shared/auth/api-keys';
import { Unavailable } from '../../shared/errors';
import { createShipment as createShipmentUseCase } from '../../shared/usecases/create-shipment';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, apiKeyWithId, BERLIN_INACTIVE, BERLIN_MITTE, BERLIN_PRENZLAUER_BERG, HELSINKI_KAMPPI, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { confirmDraw, createProfile, scheduleAppointment } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;
let courier: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey({ scopes: ['SHIPMENTS_MANAGE', 'CREATE_USER', 'TEST_SESSIONS_SCHEDULE', 'TEST_SESSIONS_VIEW', 'TEST_SESSIONS_OPERATE'] });
  courier = await apiKey({ scopes: ['SHIPMENTS_TRACK'] });
});

const TOMORROW = '2026-11-24';
const booking = (overrides: Record<string, unknown> = {}) => ({
  location_id: BERLIN_MITTE,
  pickup_date: TOMORROW,
  pickup_time_from: '10:00',
  pickup_time_till: '12:00',
  ...overrides,
});

async function createShipment(overrides: Record<string, unknown> = {}, withKey = key): Promise<string> {
  const res = await api.post('/api/v1/shipments', booking(overrides), withKey);
  expect(res.status).toBe(201);
  return res.body.id;
}

/**
 * The use case as the create handler calls it, for a new key of these location groups, at `now`: for what
 * the HTTP surface cannot choose (another instant under the fixed clock, the references drawn).
 */
async function caller(locationGroups = ['berlin'], now = new Date('2026-11-23T08:00:00Z')) {
  const { keyId } = await apiKeyWithId({ scopes: ['SHIPMENTS_MANAGE'], locationGroups });
  return { access: (await accessOfKeyId(keyId)) as AccessContext, now };
}

const track = (id: string, body: Record<string, unknown>) => api.post(`/api/v1/shipments/${id}/status`, body, courier);

describe('POST /api/v1/shipments', () => {
  it('answers 201 with the spec fields, status pending, and no timestamps', async () => {
    const res = await api.post('/api/v1/shipments', booking({ notes: 'Ring at the back door' }), key);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      'arrived_at',
      'destination',
      'id',
      'logistics_provider',
      'notes',
      'origin',
      'shipped_at',
      'status',
      'tracking_number',
    ]);
    expect(res.body).toMatchObject({ status: 'pending', tracking_number: null, shipped_at: null, arrived_at: null, notes: 'Ring at the back door' });
  });

  it('gives references of the spec shape that follow no sequence', async () => {
    const references: string[] = [];
    for (let i = 0; i < 10; i += 1) references.push(await createShipment());
    for (const reference of references) expect(reference).toMatch(/^P-\d{6}-\d{4}$/);
    // Ten random values of 10^10 lie a thousand apart but for a chance of about 1 in 100 000.
    const values = references.map((reference) => Number(reference.replaceAll(/\D/g, ''))).sort((a, b) => a - b);
    const neighbours = values.slice(1).filter((value, i) => value - (values[i] as number) < 1000);
    expect(neighbours).toEqual([]);
  });

  it('takes provider, origin and destination from the location logistics', async () => {
    const res = await api.post('/api/v1/shipments', booking({ location_id: BERLIN_PRENZLAUER_BERG }), key);
    expect(res.body.logistics_provider).toBe('dhl');
    expect(res.body.origin).toEqual({
      name: 'Lab Testing Prenzlauer Berg',
      street: 'Schönhauser Allee',
      house_number: '80',
      postal_code: '10439',
      city: 'Berlin',
      country: 'DE',
      phone: '+4930120045602',
      email: 'prenzlauer-berg@lab-testing.example',
    });
    expect(res.body.destination).toMatchObject({ city: 'Berlin', country: 'DE', name: 'Lab Testing Zentrallabor Berlin' });
  });

  it('accepts a same-day pickup before the 16:00 cutoff', async () => {
    const res = await api.post('/api/v1/shipments', booking({ pickup_date: '2026-11-23' }), key);
    expect(res.status).toBe(201);
  });

  it.each([
    ['a Saturday', { pickup_date: '2026-11-28' }, 'pickup_date must be a weekday (Monday to Friday)'],
    ['a past date', { pickup_date: '2026-11-20' }, 'pickup_date must be today or later (Europe/Berlin)'],
    ['a date in the year 9999', { pickup_date: '9999-12-31' }, 'pickup_date must be at most 90 days ahead (2027-02-21 or earlier, Europe/Berlin)'],
    ['a window under 2 hours', { pickup_time_till: '11:30' }, 'pickup_time_till must be at least 2 hours after pickup_time_from'],
    ['a start before 09:00', { pickup_time_from: '08:00' }, 'pickup_time_from must be between 09:00 and 17:00'],
    ['a date in another format', { pickup_date: '24.11.2026' }, 'pickup_date must be a real date (YYYY-MM-DD)'],
    ['a time without leading zero', { pickup_time_from: '9:00' }, 'pickup_time_from must be a time HH:MM (24-hour)'],
    ['notes over 1000 characters', { notes: 'x'.repeat(1001) }, 'notes must be at most 1000 characters'],
    ['notes with a NUL', { notes: 'back door\u0000' }, 'notes must not contain control or invisible formatting characters, or unpaired surrogates'],
    ['an unknown field', { priority: 'high' }, 'priority is not an allowed field'],
  ])('answers 400 for %s', async (_, overrides, message) => {
    const res = await api.post('/api/v1/shipments', booking(overrides), key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it('answers 404 for an unknown location', async () => {
    expect((await api.post('/api/v1/shipments', booking({ location_id: UNKNOWN_ID }), key)).status).toBe(404);
  });

  it('answers 404 for an inactive location', async () => {
    expect((await api.post('/api/v1/shipments', booking({ location_id: BERLIN_INACTIVE }), key)).status).toBe(404);
  });

  it('answers 403 for a location outside the key location groups', async () => {
    expect((await api.post('/api/v1/shipments', booking({ location_id: HELSINKI_KAMPPI }), key)).status).toBe(403);
  });

  it('answers 403 to a key without SHIPMENTS_MANAGE', async () => {
    expect((await api.post('/api/v1/shipments', booking(), courier)).status).toBe(403);
  });

  it('gives 20 concurrent creates 20 distinct references', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post('/api/v1/shipments', booking(), key)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(20);
  });
});

describe('shipment references', () => {
  /** The references a create draws, in this order: a taken one forces the collision a random draw almost never hits. */
  const drawing =
    (...references: string[]) =>
    () =>
      references.shift() ?? 'no reference left';

  it('creates under a new reference when the one drawn is taken, leaving the existing shipment as it was', async () => {
    const taken = await createShipment({ notes: 'the first' });
    const shipment = await createShipmentUseCase(booking(), await caller(), drawing(taken, 'P-000000-4242'));
    expect(shipment.id).toBe('P-000000-4242');
    expect((await api.get(`/api/v1/shipments/${taken}`, key)).body).toMatchObject({ id: taken, notes: 'the first' });
    expect((await api.get(`/api/v1/shipments/${taken}/history`, key)).body).toHaveLength(1);
    expect((await api.get('/api/v1/shipments/P-000000-4242', key)).body).toMatchObject({ id: 'P-000000-4242', notes: null });
  });

  it('gives up with Unavailable (503) when every reference drawn is taken', async () => {
    const taken = await createShipment();
    await expect(createShipmentUseCase(booking(), await caller(), () => taken)).rejects.toThrowError(Unavailable);
  });
});

describe('GET /api/v1/shipments', () => {
  it('lists only the shipments of the key location groups, newest first', async () => {
    const helsinkiKey = await apiKey({ scopes: ['SHIPMENTS_MANAGE'], locationGroups: ['helsinki'] });
    // Under the fixed clock every create has the same created_at; the use case takes two instants.
    const helsinki = { ...booking(), location_id: HELSINKI_KAMPPI };
    const first = (await createShipmentUseCase(helsinki, await caller(['helsinki'], new Date('2026-11-23T08:00:00Z')))).id;
    const second = (await createShipmentUseCase(helsinki, await caller(['helsinki'], new Date('2026-11-23T08:01:00Z')))).id;
    await createShipment();
    const res = await api.get('/api/v1/shipments', helsinkiKey);
    expect(res.status).toBe(200);
    expect(res.body.map((s: { id: string }) => s.id)).toEqual([second, first]);
  });

  it('answers an empty array to a key without location groups', async () => {
    const res = await api.get('/api/v1/shipments', await apiKey({ scopes: ['SHIPMENTS_MANAGE'], locationGroups: [] }));
    expect(res.body).toEqual([]);
  });
});

describe('GET /api/v1/shipments, page by page', () => {
  it('walks two location groups newest first with X-Next-Cursor, every shipment once', async () => {
    const both = await apiKey({ scopes: ['SHIPMENTS_MANAGE'], locationGroups: ['berlin', 'helsinki'] });
    for (let i = 0; i < 3; i += 1) {
      await createShipment({ location_id: HELSINKI_KAMPPI }, both);
      await createShipment({ location_id: BERLIN_PRENZLAUER_BERG }, both);
    }
    const everything = (await api.get('/api/v1/shipments?limit=100', both)).body.map((s: { id: string }) => s.id);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await api.get(`/api/v1/shipments?limit=4${cursor ? `&cursor=${cursor}` : ''}`, both);
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThanOrEqual(4);
      walked.push(...res.body.map((s: { id: string }) => s.id));
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    expect(walked).toEqual(everything);
  });

  it('answers no X-Next-Cursor on the last page', async () => {
    const res = await api.get('/api/v1/shipments?limit=100', key);
    expect(res.headers.get('x-next-cursor')).toBeNull();
  });

  it.each([['0'], ['101'], ['ten']])('answers 400 for limit=%s', async (limit) => {
    const res = await api.get(`/api/v1/shipments?limit=${limit}`, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'limit must be a whole number from 1 to 100' });
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ['for another number of groups', Buffer.from(JSON.stringify([null, true])).toString('base64url')],
    ['pointing outside the list', Buffer.from(JSON.stringify(['APPT#2026-01-01#x'])).toString('base64url')],
    ['with an empty position', Buffer.from(JSON.stringify(['SHIPMENT#'])).toString('base64url')],
  ])('answers 400 for a cursor %s', async (_, cursor) => {
    const res = await api.get(`/api/v1/shipments?cursor=${cursor}`, key); // a berlin-only key: one group
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'cursor is invalid; use the X-Next-Cursor value of the previous page' });
  });

  it("answers 400 to a Berlin key's cursor under a Helsinki key", async () => {
    const berlinKey = await apiKey({ scopes: ['SHIPMENTS_MANAGE'], locationGroups: ['berlin'] });
    const helsinkiKey = await apiKey({ scopes: ['SHIPMENTS_MANAGE'], locationGroups: ['helsinki'] });
    await createShipment({ location_id: HELSINKI_KAMPPI }, helsinkiKey);
    for (let i = 0; i < 2; i += 1) await createShipment({}, berlinKey);
    const cursor = (await api.get('/api/v1/shipments?limit=1', berlinKey)).headers.get('x-next-cursor');
    const res = await api.get(`/api/v1/shipments?cursor=${cursor}`, helsinkiKey);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'cursor is invalid; use the X-Next-Cursor value of the previous page' });
  });

  it('answers 400 to a cursor whose readable position was edited', async () => {
    for (let i = 0; i < 2; i += 1) await createShipment();
    const cursor = (await api.get('/api/v1/shipments?limit=1', key)).headers.get('x-next-cursor') as string;
    // The positions are readable base64url JSON; whatever follows them is kept as issued.
    const [, ...rest] = cursor.split('.');
    const edited = [Buffer.from(JSON.stringify(['SHIPMENT#2099-01-01T00:00:00.000Z#P-000000-0001'])).toString('base64url'), ...rest].join('.');
    const res = await api.get(`/api/v1/shipments?cursor=${edited}`, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'cursor is invalid; use the X-Next-Cursor value of the previous page' });
  });

  it('answers 400 for an unknown query parameter', async () => {
    const res = await api.get('/api/v1/shipments?status=pending', key);
    expect(res.body).toEqual({ error: 'status is not an allowed query parameter' });
  });
});

describe('GET /api/v1/shipments/{id}', () => {
  it('answers the shipment with created_at, updated_at and its appointment ids', async () => {
    const id = await createShipment();
    const res = await api.get(`/api/v1/shipments/${id}`, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'pending', created_at: '2026-11-23T08:00:00.000Z', updated_at: null, appointment_ids: [] });
  });

  it('answers the same shipment for its reference without hyphens, as an appointment shows it', async () => {
    const id = await createShipment();
    const res = await api.get(`/api/v1/shipments/${id.replaceAll('-', '')}`, key);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
  });

  it('answers 400 for an id that is not a shipment reference', async () => {
    for (const id of ['P-1234', 'P583019-2746', 'P58301927460', 'p5830192746']) {
      const res = await api.get(`/api/v1/shipments/${id}`, key);
      expect(res.status, id).toBe(400);
      expect(res.body).toEqual({ error: 'id must be a shipment reference P-<6 digits>-<4 digits> (or its 11 characters without hyphens)' });
    }
  });

  it('answers 404 for an unknown reference', async () => {
    expect((await api.get('/api/v1/shipments/P-200101-0001', key)).status).toBe(404);
  });

  it('answers 403 for a shipment of another location group', async () => {
    const id = await createShipment();
    const other = await apiKey({ scopes: ['SHIPMENTS_MANAGE'], locationGroups: ['helsinki'] });
    expect((await api.get(`/api/v1/shipments/${id}`, other)).status).toBe(403);
  });
});

describe('PATCH /api/v1/shipments/{id}', () => {
  it('moves the pickup window and sets updated_at', async () => {
    const id = await createShipment();
    const res = await api.patch(`/api/v1/shipments/${id}`, { pickup_date: '2026-11-25', pickup_time_from: '13:00', pickup_time_till: '16:00' }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pickup_date: '2026-11-25', pickup_time_from: '13:00', pickup_time_till: '16:00', updated_at: expect.any(String) });
  });

  it('checks the merged window against the create rules', async () => {
    const id = await createShipment(); // 10:00–12:00
    const res = await api.patch(`/api/v1/shipments/${id}`, { pickup_time_from: '11:00' }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'pickup_time_till must be at least 2 hours after pickup_time_from' });
  });

  it('answers 400 for a pickup_date more than 90 days ahead', async () => {
    const id = await createShipment();
    const res = await api.patch(`/api/v1/shipments/${id}`, { pickup_date: '2027-02-22' }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'pickup_date must be at most 90 days ahead (2027-02-21 or earlier, Europe/Berlin)' });
  });

  it('answers 400 for an empty patch', async () => {
    const id = await createShipment();
    expect((await api.patch(`/api/v1/shipments/${id}`, {}, key)).status).toBe(400);
  });

  it('answers 409 once the shipment is picked up', async () => {
    const id = await createShipment();
    await track(id, { status: 'shipped' });
    const res = await api.patch(`/api/v1/shipments/${id}`, { pickup_date: '2026-11-25' }, key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The shipment is shipped; it can only be modified while pending' });
  });
});

describe('DELETE /api/v1/shipments/{id}', () => {
  it('cancels a pending shipment and answers it', async () => {
    const id = await createShipment();
    const res = await api.request('DELETE', `/api/v1/shipments/${id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'cancelled' });
  });

  it.each(['cancelled', 'shipped', 'delivered'])('answers 409 for a %s shipment', async (state) => {
    const id = await createShipment();
    if (state === 'cancelled') await api.request('DELETE', `/api/v1/shipments/${id}`, { key });
    else {
      await track(id, { status: 'shipped' });
      if (state === 'delivered') {
        await track(id, { status: 'in_transit' });
        await track(id, { status: 'delivered' });
      }
    }
    expect((await api.request('DELETE', `/api/v1/shipments/${id}`, { key })).status).toBe(409);
  });
});

describe('POST /api/v1/shipments/{id}/status', () => {
  it('records shipped with the tracking number and shipped_at, and puts ShipmentStatusChanged', async () => {
    const id = await createShipment();
    eventBridge.client.resetHistory();
    const res = await track(id, { status: 'shipped', tracking_number: 'GX-123456', occurred_at: '2026-11-23T07:30:00Z' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'shipped', tracking_number: 'GX-123456', shipped_at: '2026-11-23T07:30:00Z' });
    const [entry] = eventBridge.entries();
    expect(entry).toMatchObject({ Source: 'lab-api', DetailType: 'ShipmentStatusChanged', EventBusName: 'test-bus' });
    expect(JSON.parse(entry?.Detail as string)).toEqual({
      event_id: expect.any(String),
      occurred_at: '2026-11-23T07:30:00Z',
      source: 'courier',
      shipment_id: id,
      location_id: BERLIN_MITTE,
      location_group_slug: 'berlin',
      from_status: 'pending',
      previous_status: 'pending',
      status: 'shipped',
      tracking_number: 'GX-123456',
    });
  });

  it('records delivered with arrived_at', async () => {
    const id = await createShipment();
    await track(id, { status: 'shipped', occurred_at: '2026-11-23T06:00:00Z' });
    await track(id, { status: 'in_transit', occurred_at: '2026-11-23T06:30:00Z' });
    const res = await track(id, { status: 'delivered', occurred_at: '2026-11-23T07:45:00Z' });
    expect(res.body).toMatchObject({ status: 'delivered', arrived_at: '2026-11-23T07:45:00Z' });
  });

  it('ignores an update older than the last one applied, so the shipment never moves backwards', async () => {
    const id = await createShipment();
    await track(id, { status: 'shipped', occurred_at: '2026-11-23T06:00:00Z' });
    await track(id, { status: 'fault', occurred_at: '2026-11-23T07:00:00Z' });
    const late = await track(id, { status: 'in_transit', occurred_at: '2026-11-23T06:30:00Z' });
    expect(late.status).toBe(200);
    expect(late.body.status).toBe('fault');
  });

  it('answers 200 to every one of 5 parallel identical callbacks and puts one event', async () => {
    const id = await createShipment();
    eventBridge.client.resetHistory();
    const results = await Promise.all(Array.from({ length: 5 }, () => track(id, { status: 'shipped', occurred_at: '2026-11-23T07:00:00Z' })));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(eventBridge.entries().filter((e) => JSON.parse(e.Detail as string).shipment_id === id)).toHaveLength(1);
  });

  it('answers 409 for a move the lifecycle does not allow', async () => {
    const id = await createShipment();
    const res = await track(id, { status: 'delivered' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'A pending shipment cannot become delivered' });
  });

  it('answers 400 for a status the provider cannot set', async () => {
    const id = await createShipment();
    const res = await track(id, { status: 'cancelled' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'status must be one of shipped, in_transit, delivered, fault' });
  });

  it('answers 400 for an occurred_at in the future', async () => {
    const id = await createShipment();
    expect((await track(id, { status: 'shipped', occurred_at: '2026-11-23T09:00:00Z' })).status).toBe(400);
  });

  it('answers 403 to a key with SHIPMENTS_MANAGE only', async () => {
    const id = await createShipment();
    expect((await api.post(`/api/v1/shipments/${id}/status`, { status: 'shipped' }, key)).status).toBe(403);
  });
});

describe('pickup into a shipment', () => {
  async function drawn(): Promise<string> {
    const id = await scheduleAppointment(api, key);
    await confirmDraw(api, key, id);
    return id;
  }

  it('links every moved appointment to the shipment, shown without hyphens in the appointment', async () => {
    const shipment = await createShipment();
    const appointment = await drawn();
    const res = await api.post('/api/v1/appointments/pickup', { appointment_ids: [appointment], shipment_id: shipment }, key);
    expect(res.status).toBe(200);
    const read = await api.get(`/api/v1/appointments/${appointment}`, key);
    expect(read.body.shipments).toEqual([{ id: shipment.replaceAll('-', ''), added_at: '2026-11-23T08:00:00.000Z' }]);
  });

  it('lists the linked appointments on the shipment', async () => {
    const shipment = await createShipment();
    const [a, b] = [await drawn(), await drawn()];
    await api.post('/api/v1/appointments/pickup', { appointment_ids: [a, b], shipment_id: shipment }, key);
    const res = await api.get(`/api/v1/shipments/${shipment}`, key);
    expect(res.body.appointment_ids.sort()).toEqual([a, b].sort());
  });

  it('answers 404 for an unknown shipment and picks nothing up', async () => {
    const appointment = await drawn();
    const res = await api.post('/api/v1/appointments/pickup', { appointment_ids: [appointment], shipment_id: 'P-200101-0001' }, key);
    expect(res.status).toBe(404);
    expect((await api.get(`/api/v1/appointments/${appointment}`, key)).body.status).toBe('blood_drawn');
  });

  it('answers 409 for a cancelled shipment and picks nothing up', async () => {
    const shipment = await createShipment();
    await api.request('DELETE', `/api/v1/shipments/${shipment}`, { key });
    const appointment = await drawn();
    const res = await api.post('/api/v1/appointments/pickup', { appointment_ids: [appointment], shipment_id: shipment }, key);
    expect(res.status).toBe(409);
    expect((await api.get(`/api/v1/appointments/${appointment}`, key)).body.status).toBe('blood_drawn');
  });

  it('answers 403 for a shipment of another location group', async () => {
    const helsinkiKey = await apiKey({ scopes: ['SHIPMENTS_MANAGE'], locationGroups: ['helsinki'] });
    const shipment = await createShipment({ location_id: HELSINKI_KAMPPI }, helsinkiKey);
    const appointment = await drawn();
    const res = await api.post('/api/v1/appointments/pickup', { appointment_ids: [appointment], shipment_id: shipment }, key);
    expect(res.status).toBe(403);
  });

  it('answers 409 for an appointment drawn at another location than the shipment', async () => {
    const shipment = await createShipment({ location_id: BERLIN_PRENZLAUER_BERG });
    const appointment = await drawn(); // drawn at Berlin Mitte
    const res = await api.post('/api/v1/appointments/pickup', { appointment_ids: [appointment], shipment_id: shipment }, key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `Appointment(s) ${appointment} were not drawn at the shipment's location` });
  });

  it('lists on the shipment only the appointments of profiles the reader may see', async () => {
    const both = await apiKey({
      profileGroups: ['demo-clinic', 'partner-clinic'],
      scopes: ['SHIPMENTS_MANAGE', 'CREATE_USER', 'TEST_SESSIONS_SCHEDULE', 'TEST_SESSIONS_OPERATE'],
    });
    const shipment = await createShipment({}, both);
    const demo = await scheduleAppointment(api, both, { profileId: await createProfile(api, both, 'demo-clinic') });
    const partner = await scheduleAppointment(api, both, { profileId: await createProfile(api, both, 'partner-clinic') });
    await confirmDraw(api, both, demo);
    await confirmDraw(api, both, partner);
    await api.post('/api/v1/appointments/pickup', { appointment_ids: [demo, partner], shipment_id: shipment }, both);
    const res = await api.get(`/api/v1/shipments/${shipment}`, key); // demo-clinic only
    expect(res.body.appointment_ids).toEqual([demo]);
  });

  it('answers 400 for more than 49 appointments with a shipment', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const res = await api.post('/api/v1/appointments/pickup', { appointment_ids: ids, shipment_id: 'P-261123-0001' }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'body must list at most 49 distinct appointment_ids when a shipment_id is given' });
  });
});
