/**
 * Status histories and the status-change events (the transition writer, shared/store/transitions.ts):
 * every change is one history entry and one event, written with the change or not at all.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, apiKeyWithId, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { clinical, deliver, report } from '../support/lab';
import {
  CARDIOGENETICS_PANEL,
  confirmDraw,
  createProfile,
  drawableAppointment,
  newBarcode,
  pickupDate,
  scheduleAppointment,
  THYROID_PANEL,
} from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;
let keyId: string;
let courier: { keyId: string; plaintext: string };

beforeAll(async () => {
  await seedDemoData();
  ({ plaintext: key, keyId } = await apiKeyWithId());
  courier = await apiKeyWithId({ scopes: ['SHIPMENTS_TRACK'] });
});

const history = async (path: string, withKey = key) => {
  const res = await api.get(`/api/v1/${path}/history`, withKey);
  expect(res.status).toBe(200);
  return res.body as { status: string; from_status: string | null; source: string; actor: string | null; reason: string | null; at: string }[];
};
const moves = (entries: { from_status: string | null; status: string }[]) => entries.map((e) => `${e.from_status ?? '∅'}→${e.status}`);

/** The status-change events put since the last reset for one resource, as from→to. */
function eventMoves(detailType: string, idField: string, id: string): string[] {
  return eventBridge
    .entries()
    .filter((e) => e.DetailType === detailType)
    .map((e) => JSON.parse(e.Detail as string))
    .filter((detail) => detail[idField] === id)
    .map((detail) => `${detail.from_status ?? '∅'}→${detail.status}`);
}

async function createShipment(): Promise<string> {
  const res = await api.post(
    '/api/v1/shipments',
    { location_id: BERLIN_MITTE, pickup_date: pickupDate(), pickup_time_from: '10:00', pickup_time_till: '12:00' },
    key,
  );
  expect(res.status).toBe(201);
  return res.body.id;
}

/** An appointment with the thyroid panel taken from booking to completed: confirm, pickup, the lab's report. */
async function completedAppointment(): Promise<string> {
  const id = await scheduleAppointment(api, key);
  await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [THYROID_PANEL] }, key);
  await confirmDraw(api, key, id);
  await api.post('/api/v1/appointments/pickup', { appointment_ids: [id] }, key);
  await deliver(report(id, { clinical_results: [clinical(3, 1.2), clinical(4, 14)] }));
  return id;
}

describe('GET /api/v1/appointments/{id}/history', () => {
  it('lists booking, draw, pickup and completion, oldest first, creation first', async () => {
    const id = await completedAppointment();
    expect(moves(await history(`appointments/${id}`))).toEqual(['∅→scheduled', 'scheduled→blood_drawn', 'blood_drawn→in_transit', 'in_transit→completed']);
  });

  it('names the API key id as the actor of a client change, and the lab as the source of completion', async () => {
    const id = await completedAppointment();
    const entries = await history(`appointments/${id}`);
    expect(entries.map((e) => [e.source, e.actor])).toEqual([
      ['api', keyId],
      ['api', keyId],
      ['api', keyId],
      ['lab', null],
    ]);
  });

  it('keeps the cancellation reason in the entry of the cancellation', async () => {
    const id = await drawableAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'Patient is travelling' }, key);
    const entries = await history(`appointments/${id}`);
    expect(entries.at(-1)).toEqual({
      status: 'cancelled',
      from_status: 'scheduled',
      at: expect.any(String),
      source: 'api',
      actor: keyId,
      reason: 'Patient is travelling',
    });
  });

  it('writes no entry for a refused change', async () => {
    const id = await drawableAppointment(api, key);
    await confirmDraw(api, key, id);
    expect((await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'too late' }, key)).status).toBe(409);
    expect(moves(await history(`appointments/${id}`))).toEqual(['∅→scheduled', 'scheduled→blood_drawn']);
  });

  /** An appointment as stored before the history existed: no history_seq, no entries. */
  async function legacyAppointment(): Promise<string> {
    const profileId = await createProfile(api, key);
    const id = crypto.randomUUID();
    await dynamo.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.appointment(id),
          id,
          profile_id: profileId,
          profile_group_slug: 'demo-clinic',
          location_id: BERLIN_MITTE,
          scheduled_at: '2027-01-04T09:00:00Z',
          status: 'scheduled',
          test_method: 'practitioner',
          cancellation_reason: null,
          barcode: null,
          blood_drawn_at: null,
          picked_up_at: null,
          created_at: '2026-01-04T09:00:00Z',
          updated_at: null,
        },
      }),
    );
    return id;
  }

  it('answers an empty list for an appointment stored before the history existed', async () => {
    const id = await legacyAppointment();
    expect(await history(`appointments/${id}`)).toEqual([]);
  });

  it('numbers the first entry of a legacy appointment after the ones it never had', async () => {
    const id = await legacyAppointment();
    await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'legacy' }, key);
    expect(moves(await history(`appointments/${id}`))).toEqual(['scheduled→cancelled']);
  });

  it('pages with limit and X-Next-Cursor', async () => {
    const id = await completedAppointment();
    const first = await api.get(`/api/v1/appointments/${id}/history?limit=3`, key);
    const rest = await api.get(`/api/v1/appointments/${id}/history?limit=3&cursor=${first.headers.get('x-next-cursor')}`, key);
    expect([...moves(first.body), '|', ...moves(rest.body)]).toEqual([
      '∅→scheduled',
      'scheduled→blood_drawn',
      'blood_drawn→in_transit',
      '|',
      'in_transit→completed',
    ]);
  });

  it('answers 400 for a cursor it did not issue', async () => {
    const id = await drawableAppointment(api, key);
    const res = await api.get(`/api/v1/appointments/${id}/history?cursor=${Buffer.from(JSON.stringify('APPT')).toString('base64url')}`, key);
    expect(res.status).toBe(400);
  });

  it("answers 400 to one appointment's history cursor on another appointment's history", async () => {
    const first = await api.get(`/api/v1/appointments/${await completedAppointment()}/history?limit=1`, key);
    const other = await completedAppointment();
    const res = await api.get(`/api/v1/appointments/${other}/history?cursor=${first.headers.get('x-next-cursor')}`, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'cursor is invalid; use the X-Next-Cursor value of the previous page' });
  });

  it('answers 404 for an unknown appointment', async () => {
    expect((await api.get(`/api/v1/appointments/${UNKNOWN_ID}/history`, key)).status).toBe(404);
  });

  it("answers 403 to a key outside the appointment's profile group", async () => {
    const id = await drawableAppointment(api, key);
    const other = await apiKey({ profileGroups: ['partner-clinic'] });
    expect((await api.get(`/api/v1/appointments/${id}/history`, other)).status).toBe(403);
  });
});

describe('AppointmentStatusChanged', () => {
  it('is put once for every history entry, with the same moves', async () => {
    eventBridge.client.resetHistory();
    const id = await completedAppointment();
    expect(eventMoves('AppointmentStatusChanged', 'appointment_id', id)).toEqual(moves(await history(`appointments/${id}`)));
  });

  it('carries ids, statuses and the tenant, nothing personal', async () => {
    eventBridge.client.resetHistory();
    const id = await drawableAppointment(api, key);
    const [entry] = eventBridge.entries().filter((e) => e.DetailType === 'AppointmentStatusChanged');
    expect(Object.keys(JSON.parse(entry?.Detail as string)).sort()).toEqual(
      ['appointment_id', 'event_id', 'from_status', 'location_id', 'occurred_at', 'profile_group_slug', 'profile_id', 'source', 'status'].sort(),
    );
    expect(JSON.parse(entry?.Detail as string).appointment_id).toBe(id);
  });
});

describe('GET /api/v1/home-kit-orders/{id}/history', () => {
  async function activatedKit(): Promise<{ id: string; appointmentId: string }> {
    const profileId = await createProfile(api, key);
    const created = await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: { location_id: BERLIN_MITTE } }, key);
    const id = created.body.id as string;
    await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
    await api.post(`/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: 'DHL-0001' }, key);
    const activated = await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode: newBarcode() }, key);
    return { id, appointmentId: activated.body.appointment_id };
  }

  it('lists creation, dispatch and activation', async () => {
    const { id } = await activatedKit();
    expect(moves(await history(`home-kit-orders/${id}`))).toEqual(['∅→pending', 'pending→dispatched', 'dispatched→activated']);
  });

  it("starts the activated sample's appointment history at blood_drawn, saying why", async () => {
    const { appointmentId } = await activatedKit();
    expect(await history(`appointments/${appointmentId}`)).toEqual([
      { status: 'blood_drawn', from_status: null, at: expect.any(String), source: 'api', actor: keyId, reason: 'home kit activated' },
    ]);
  });

  it('puts one HomeKitOrderStatusChanged per entry', async () => {
    eventBridge.client.resetHistory();
    const { id } = await activatedKit();
    expect(eventMoves('HomeKitOrderStatusChanged', 'home_kit_order_id', id)).toEqual(['∅→pending', 'pending→dispatched', 'dispatched→activated']);
  });
});

describe('GET /api/v1/shipments/{id}/history', () => {
  it("lists creation and the courier's moves at the times the courier reported, with the courier key as actor", async () => {
    const id = await createShipment();
    await api.post(`/api/v1/shipments/${id}/status`, { status: 'shipped', occurred_at: '2026-11-23T06:00:00Z' }, courier.plaintext);
    const entries = await history(`shipments/${id}`);
    expect(entries.slice(1)).toEqual([
      { status: 'shipped', from_status: 'pending', at: '2026-11-23T06:00:00Z', source: 'courier', actor: courier.keyId, reason: null },
    ]);
  });

  it('lists a cancellation after the creation', async () => {
    const id = await createShipment();
    await api.request('DELETE', `/api/v1/shipments/${id}`, { key });
    expect(moves(await history(`shipments/${id}`))).toEqual(['∅→pending', 'pending→cancelled']);
  });

  it('answers 403 to a key outside the shipment location group', async () => {
    const id = await createShipment();
    const helsinki = await apiKey({ locationGroups: ['helsinki'] });
    expect((await api.get(`/api/v1/shipments/${id}/history`, helsinki)).status).toBe(403);
  });
});

describe('the scopes of the history routes', () => {
  it.each([
    ['appointments', 'TEST_SESSIONS_VIEW or TEST_SESSIONS_SCHEDULE'],
    ['home-kit-orders', 'home_kit_orders_manage'],
    ['shipments', 'SHIPMENTS_MANAGE'],
  ])('answers 403 on /%s/{id}/history to a key without %s', async (resource) => {
    const catalogOnly = await apiKey({ scopes: ['RESULTS_VIEW'] });
    const id = resource === 'shipments' ? 'P-261123-0001' : UNKNOWN_ID;
    const res = await api.get(`/api/v1/${resource}/${id}/history`, catalogOnly);
    expect(res.status).toBe(403);
  });
});

describe('races write one entry and one event per applied change', () => {
  it('20 parallel confirms with different barcodes: one blood_drawn entry, one event', async () => {
    const id = await drawableAppointment(api, key);
    eventBridge.client.resetHistory();
    await Promise.all(Array.from({ length: 20 }, () => api.post(`/api/v1/appointments/${id}/confirm`, { barcode: newBarcode() }, key)));
    expect([moves(await history(`appointments/${id}`)), eventMoves('AppointmentStatusChanged', 'appointment_id', id)]).toEqual([
      ['∅→scheduled', 'scheduled→blood_drawn'],
      ['scheduled→blood_drawn'],
    ]);
  });

  it('a confirm racing a cancel: the winner alone has its entry and event', async () => {
    const id = await drawableAppointment(api, key);
    eventBridge.client.resetHistory();
    await Promise.all([
      api.post(`/api/v1/appointments/${id}/confirm`, { barcode: newBarcode() }, key),
      api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'race' }, key),
    ]);
    const entries = moves(await history(`appointments/${id}`));
    expect([entries.length, eventMoves('AppointmentStatusChanged', 'appointment_id', id)]).toEqual([2, [entries[1]]]);
  });

  it('10 overlapping pickups: one in_transit entry and one event per appointment', async () => {
    const ids = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const id = await drawableAppointment(api, key);
        await confirmDraw(api, key, id);
        return id;
      }),
    );
    eventBridge.client.resetHistory();
    await Promise.all(Array.from({ length: 10 }, (_, i) => api.post('/api/v1/appointments/pickup', { appointment_ids: [ids[i % 4], ids[(i + 1) % 4]] }, key)));
    const perAppointment = await Promise.all(
      ids.map(async (id) => [
        moves(await history(`appointments/${id}`)).filter((m) => m.endsWith('in_transit')).length,
        eventMoves('AppointmentStatusChanged', 'appointment_id', id).length,
      ]),
    );
    expect(perAppointment).toEqual(ids.map(() => [1, 1]));
  });

  it('a dispatch racing a cancel of a kit: the winner alone has its entry and event', async () => {
    const profileId = await createProfile(api, key);
    const id = (await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: { location_id: BERLIN_MITTE } }, key)).body.id;
    await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
    eventBridge.client.resetHistory();
    await Promise.all([
      ...Array.from({ length: 5 }, () => api.post(`/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: 'DHL-0002' }, key)),
      ...Array.from({ length: 5 }, () => api.request('DELETE', `/api/v1/home-kit-orders/${id}`, { key })),
    ]);
    const entries = moves(await history(`home-kit-orders/${id}`)).slice(1);
    expect(eventMoves('HomeKitOrderStatusChanged', 'home_kit_order_id', id)).toEqual(entries);
  });

  it('5 identical courier callbacks: one shipped entry, one event', async () => {
    const id = await createShipment();
    eventBridge.client.resetHistory();
    await Promise.all(
      Array.from({ length: 5 }, () =>
        api.post(`/api/v1/shipments/${id}/status`, { status: 'shipped', occurred_at: '2026-11-23T07:00:00Z' }, courier.plaintext),
      ),
    );
    expect([moves(await history(`shipments/${id}`)), eventMoves('ShipmentStatusChanged', 'shipment_id', id)]).toEqual([
      ['∅→pending', 'pending→shipped'],
      ['pending→shipped'],
    ]);
  });
});
