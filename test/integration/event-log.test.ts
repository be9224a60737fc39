/**
 * The event log (issue #32, docs/events-and-webhooks.md "Event log") on real parts: events the service put
 * on the mocked bus, rebuilt as the SQS messages AWS delivers and run through the dispatcher Lambda (which
 * records them), then read through the local server with keys of different scopes, tenants and realms.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_LOG_RETENTION_DAYS } from '../../shared/store/event-log';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { confirmDraw, createProfile, drawableAppointment, scheduleAppointment, slotIn } from '../support/scenario';
import { scanItems } from '../support/table';
import { dispatchEntries, dispatchPut, startReceiver } from '../support/webhooks';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

interface Entry {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { appointment_id?: string };
}

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

/** A cancelled appointment: two AppointmentStatusChanged events (scheduled, cancelled), logged. */
async function cancelledAppointment(withKey = key): Promise<string> {
  const id = await scheduleAppointment(api, withKey);
  expect((await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'event log' }, withKey)).status).toBe(200);
  await dispatchPut(eventBridge);
  return id;
}

const events = async (query = '', withKey = key): Promise<Entry[]> => {
  const res = await api.get(`/api/v1/events${query}`, withKey);
  expect(res.status).toBe(200);
  return res.body;
};

describe('GET /api/v1/events', () => {
  it('lists an event exactly as its webhook body, with the id its deliveries carry as webhook-id', async () => {
    const receiver = await startReceiver();
    try {
      const subscribed = await api.post('/api/v1/webhooks', { url: receiver.url, event_types: ['AppointmentStatusChanged'] }, key);
      expect(subscribed.status).toBe(201);
      const id = await cancelledAppointment();
      const delivered = receiver.received.filter((r) => JSON.parse(r.body).data.appointment_id === id);
      const logged = (await events()).filter((entry) => entry.data.appointment_id === id);
      expect(logged.map(({ id: eventId, ...body }) => [eventId, body])).toEqual(
        expect.arrayContaining(delivered.map((r) => [r.headers['webhook-id'], JSON.parse(r.body)])),
      );
      expect(logged).toHaveLength(delivered.length);
    } finally {
      await receiver.close();
    }
  });

  it('lists the newest first', async () => {
    await cancelledAppointment();
    const timestamps = (await events()).map((entry) => Date.parse(entry.timestamp));
    expect(timestamps).toEqual([...timestamps].sort((a, b) => b - a));
  });

  it('pages with limit and X-Next-Cursor, every event once', async () => {
    await cancelledAppointment();
    const all = (await events('?limit=100')).map((entry) => entry.id);
    const paged: string[] = [];
    let query = '?limit=2';
    for (;;) {
      const res = await api.get(`/api/v1/events${query}`, key);
      expect(res.body.length).toBeLessThanOrEqual(2);
      paged.push(...res.body.map((entry: Entry) => entry.id));
      const next = res.headers.get('x-next-cursor');
      if (!next) break;
      query = `?limit=2&cursor=${encodeURIComponent(next)}`;
    }
    expect(paged).toEqual(all);
  });

  it('keeps one type with type=', async () => {
    const id = await drawableAppointment(api, key);
    await confirmDraw(api, key, id);
    await dispatchPut(eventBridge);
    const listed = await events('?type=AppointmentStatusChanged');
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed.map((entry) => entry.type))).toEqual(new Set(['AppointmentStatusChanged']));
  });

  it('keeps a time range with after= and before=, both exclusive', async () => {
    await cancelledAppointment();
    const all = await events('?limit=100');
    const [newest, middle, oldest] = [all[0]!, all[1]!, all.at(-1)!];
    const between = await events(`?limit=100&after=${encodeURIComponent(oldest.timestamp)}&before=${encodeURIComponent(newest.timestamp)}`);
    expect(between.map((entry) => entry.id)).toContain(middle.id);
    expect(between.map((entry) => entry.id)).not.toContain(newest.id);
    expect(between.map((entry) => entry.id)).not.toContain(oldest.id);
  });

  it('an event dispatched twice (SQS delivers at least once) is listed once', async () => {
    const id = await scheduleAppointment(api, key);
    const entries = eventBridge.entries();
    eventBridge.client.resetHistory();
    expect(await dispatchEntries([...entries, ...entries])).toEqual([]);
    expect((await events()).filter((entry) => entry.data.appointment_id === id)).toHaveLength(1);
  });

  it("a key whose scopes do not receive results sees the appointment's status changes and none of its results events", async () => {
    const id = await drawableAppointment(api, key);
    await confirmDraw(api, key, id);
    await dispatchPut(eventBridge);
    const scheduler = await apiKey({ scopes: ['WEBHOOKS_MANAGE', 'TEST_SESSIONS_VIEW'] });
    const types = new Set((await events('?limit=100', scheduler)).map((entry) => entry.type));
    expect(types).toEqual(new Set(['AppointmentStatusChanged']));
  });

  it("lists a move's AppointmentRescheduled with type=, to a key that reads appointments and not results", async () => {
    const id = await scheduleAppointment(api, key);
    expect((await api.patch(`/api/v1/appointments/${id}`, { scheduled_at: slotIn(12) }, key)).status).toBe(200);
    await dispatchPut(eventBridge);
    const scheduler = await apiKey({ scopes: ['WEBHOOKS_MANAGE', 'TEST_SESSIONS_VIEW'] });
    const listed = await events('?type=AppointmentRescheduled', scheduler);
    expect(listed.map((entry) => [entry.type, entry.data.appointment_id])).toEqual([['AppointmentRescheduled', id]]);
  });

  it('a key whose scopes receive no event type gets 403', async () => {
    const res = await api.get('/api/v1/events', await apiKey({ scopes: ['WEBHOOKS_MANAGE', 'PROFILES_VIEW'] }));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/receive any event type/);
  });

  it('after not earlier than before gets 400, naming before', async () => {
    const res = await api.get('/api/v1/events?after=2026-11-20T10:00:00Z&before=2026-11-20T10:00:00Z', key);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/before/);
  });

  it('an instant an offset carries past year 9999 gets 400', async () => {
    expect((await api.get(`/api/v1/events?after=${encodeURIComponent('9999-12-31T23:00:00-05:00')}`, key)).status).toBe(400);
  });

  it('a type filter pages newest first across groups, however many events of other types one group holds', async () => {
    const sandbox = await apiKey({ sandbox: true, profileGroups: ['demo-clinic', 'partner-clinic'] });
    /** A drawn appointment of the group with the lab's simulated answer, its events logged. */
    const reported = async (group: string, outcome: string) => {
      const id = await scheduleAppointment(api, sandbox, {
        profileId: await createProfile(api, sandbox, group),
        scheduledAt: slotIn(20 + Math.floor(Math.random() * 10)),
      });
      await confirmDraw(api, sandbox, id);
      expect((await api.post(`/api/v1/sandbox/appointments/${id}/results`, { outcome }, sandbox)).status).toBe(200);
      await dispatchPut(eventBridge);
    };
    // One group's newer events of other types lie between the other group's two of the type asked for.
    await reported('partner-clinic', 'critical');
    await reported('demo-clinic', 'critical');
    for (let i = 0; i < 3; i++) await reported('demo-clinic', 'normal');
    await reported('partner-clinic', 'critical');
    const paged: Entry[] = [];
    let query = '?type=CriticalResultReported&limit=1';
    for (let pages = 0; pages < 50; pages++) {
      const res = await api.get(`/api/v1/events${query}`, sandbox);
      paged.push(...res.body);
      const next = res.headers.get('x-next-cursor');
      if (!next) break;
      query = `?type=CriticalResultReported&limit=1&cursor=${encodeURIComponent(next)}`;
    }
    const timestamps = paged.map((entry) => Date.parse(entry.timestamp));
    expect(paged).toHaveLength(3);
    expect(timestamps).toEqual([...timestamps].sort((a, b) => b - a));
  });

  it('an unknown type gets 400', async () => {
    expect((await api.get('/api/v1/events?type=LabOrderRequested', key)).status).toBe(400);
  });

  it("another tenant's key lists none of this tenant's events", async () => {
    await cancelledAppointment();
    const other = await apiKey({ profileGroups: ['partner-clinic'], locationGroups: ['helsinki'] });
    const groups = new Set((await events('?limit=100', other)).map((entry) => entry.data.profile_group_slug ?? entry.data.location_group_slug));
    expect([...groups].filter((group) => group !== 'partner-clinic' && group !== 'helsinki')).toEqual([]);
  });

  it('a sandbox key lists the sandbox events only, and a live key none of them', async () => {
    const sandbox = await apiKey({ sandbox: true });
    const sandboxed = await cancelledAppointment(sandbox);
    const lived = await cancelledAppointment();
    const sandboxIds = (await events('?limit=100', sandbox)).map((entry) => entry.data.appointment_id);
    const liveIds = (await events('?limit=100')).map((entry) => entry.data.appointment_id);
    expect([sandboxIds.includes(sandboxed), sandboxIds.includes(lived), liveIds.includes(sandboxed), liveIds.includes(lived)]).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });

  it('an event is stored to expire 30 days after it was recorded', async () => {
    const id = await cancelledAppointment();
    const items = (await scanItems()).filter((item) => String(item.PK).startsWith('EVENT#') && JSON.stringify(item.data).includes(id));
    const expected = Math.floor(Date.now() / 1000) + EVENT_LOG_RETENTION_DAYS * 86_400;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(Math.abs((item.expires_at as number) - expected)).toBeLessThan(120);
  });
});

describe('GET /api/v1/events/{id}', () => {
  it('answers one event as the list shows it', async () => {
    await cancelledAppointment();
    const [first] = await events();
    const res = await api.get(`/api/v1/events/${first!.id}`, key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(first);
  });

  it('an id the log does not hold gets 404', async () => {
    const res = await api.get(`/api/v1/events/${UNKNOWN_ID}`, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Event not found' });
  });

  it("another tenant's event gets 403", async () => {
    await cancelledAppointment();
    const [first] = await events();
    const other = await apiKey({ profileGroups: ['partner-clinic'], locationGroups: ['helsinki'] });
    expect((await api.get(`/api/v1/events/${first!.id}`, other)).status).toBe(403);
  });

  it('a sandbox event is not found for a live key', async () => {
    const sandbox = await apiKey({ sandbox: true });
    await cancelledAppointment(sandbox);
    const [first] = await events('', sandbox);
    expect((await api.get(`/api/v1/events/${first!.id}`, key)).status).toBe(404);
  });
});
