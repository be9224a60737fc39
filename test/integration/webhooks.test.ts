/**
 * Webhooks end to end on real parts: subscriptions through the API, events from the mocked EventBridge
 * rebuilt as the SQS messages AWS delivers, the dispatcher Lambda, and real HTTP receivers on loopback
 * verifying every signature with the `standardwebhooks` package. Retries are driven by the retry sweep's
 * use case with a clock moved forward, as the schedule's hours cannot be waited for.
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as dispatch } from '../../functions/events/webhook-dispatch';
import { revokeApiKey } from '../../shared/store/api-keys/lifecycle';
import { RETRY_SCHEDULE_MS } from '../../shared/domain/webhook';
import { attemptDueDeliveries } from '../../shared/usecases/deliver-webhooks';
import { useApi } from '../support/api';
import type { AnyWebhookBody } from '../../docs/lab-api';
import { assertWebhookDocumented } from '../support/contract';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, apiKeyWithId, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { createProfile, scheduleAppointment, slotIn } from '../support/scenario';
import { dispatchEntries, dispatchPut, type Receiver, type Received, sqsEvent, startReceiver } from '../support/webhooks';

/** An event type no test here causes: subscriptions that must never receive anything use it. */
const QUIET = 'HomeKitOrderStatusChanged';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

const receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

interface Subscription {
  id: string;
  secret: string;
  /** The key that made it: its own routes answer only to it. */
  key: string;
}

/** A subscription of `withKey`, by default of a fresh key of the demo tenant (a key may have 10). */
async function subscribe(url: string, eventTypes = ['AppointmentStatusChanged'], withKey?: string): Promise<Subscription> {
  const owner = withKey ?? (await apiKey());
  const res = await api.post('/api/v1/webhooks', { url, event_types: eventTypes }, owner);
  expect(res.status).toBe(201);
  return { id: res.body.id, secret: res.body.secret, key: owner };
}

/** The retry sweep at a moment `ms` from now, until nothing more is due then. */
async function sweepAfter(ms: number): Promise<void> {
  const at = new Date(Date.now() + ms);
  while ((await attemptDueDeliveries(at)) > 0);
}

/** Every scheduled retry, each just after it is due. */
async function sweepWholeSchedule(): Promise<void> {
  let elapsed = 0;
  for (const wait of RETRY_SCHEDULE_MS) {
    elapsed += wait + 1000;
    await sweepAfter(elapsed);
  }
}

const deliveries = async (subscription: Subscription) => {
  const res = await api.get(`/api/v1/webhooks/${subscription.id}/deliveries`, subscription.key);
  expect(res.status).toBe(200);
  return res.body as {
    id: string;
    event_id: string;
    event_type: string;
    attempts: number;
    outcome: string;
    last_status_code: number | null;
    last_error: string | null;
    next_attempt_at: string | null;
    last_attempt_at: string | null;
  }[];
};

const verify = (secret: string, received: Received) =>
  new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> };

describe('subscriptions', () => {
  it('answers a new subscription enabled, with a whsec_ secret that no later answer shows', async () => {
    const res = await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', event_types: ['ShipmentStatusChanged'], description: 'ops' }, key);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: 'http://127.0.0.1:9/hooks',
      event_types: ['ShipmentStatusChanged'],
      status: 'enabled',
      description: 'ops',
      disabled_reason: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await api.get(`/api/v1/webhooks/${res.body.id}`, key);
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(res.body.secret);
    const listed = await api.get('/api/v1/webhooks', key);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  });

  it("lists only the calling key's own subscriptions", async () => {
    const own = await apiKey();
    const other = await apiKey();
    const mine = await subscribe('http://127.0.0.1:9/a', [QUIET], own);
    await subscribe('http://127.0.0.1:9/b', [QUIET], other);
    const res = await api.get('/api/v1/webhooks', own);
    expect(res.body.map((w: { id: string }) => w.id)).toEqual([mine.id]);
  });

  it('refuses an unknown event type with 400 naming the allowed ones', async () => {
    const res = await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/x', event_types: ['LabOrderRequested'] }, key);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('AppointmentStatusChanged');
  });

  it('refuses with 403 an event type whose resource the key may not read', async () => {
    const shipmentsOnly = await apiKey({ scopes: ['WEBHOOKS_MANAGE', 'SHIPMENTS_MANAGE'] });
    const res = await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/x', event_types: ['LabResultsAvailable'] }, shipmentsOnly);
    expect(res.status).toBe(403);
    expect(res.body.error).toContain('RESULTS_VIEW');
  });

  it('refuses an eleventh subscription of one key with 409, also when they are created at once', async () => {
    const busy = await apiKey();
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) => api.post('/api/v1/webhooks', { url: `http://127.0.0.1:9/${i}`, event_types: [QUIET] }, busy)),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    expect((await api.get('/api/v1/webhooks', busy)).body).toHaveLength(10);
  });

  it('frees a place for a new subscription when one is deleted', async () => {
    const busy = await apiKey();
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => subscribe(`http://127.0.0.1:9/${i}`, [QUIET], busy)));
    const deleted = await api.request('DELETE', `/api/v1/webhooks/${made[0]?.id}`, { key: busy });
    expect(deleted.status).toBe(200);
    expect((await api.get(`/api/v1/webhooks/${made[0]?.id}`, busy)).status).toBe(404);
    expect((await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/new', event_types: [QUIET] }, busy)).status).toBe(201);
  });

  it.each([
    ['http to a public host', 'http://example.com/hooks'],
    ['a private address', 'https://10.0.0.8/hooks'],
    ['the metadata service', 'https://169.254.169.254/latest/meta-data/'],
    ['a private address written as a number', 'https://167772168/hooks'],
    ['an IPv4-mapped private address', 'https://[::ffff:192.168.1.1]/hooks'],
    ['a unique local IPv6 address', 'https://[fd00:ec2::254]/'],
    ['credentials in the URL', 'http://user:pass@127.0.0.1:9/hooks'],
    ['a relative URL', '/hooks'],
    ['a URL over 2048 characters', `https://example.com/${'a'.repeat(2040)}`],
  ])('refuses %s as a webhook url with 400', async (_, url) => {
    const res = await api.post('/api/v1/webhooks', { url, event_types: ['AppointmentStatusChanged'] }, key);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^url /);
  });

  it('answers 403 to another key, even of the same tenant, for every route of a subscription', async () => {
    const sub = await subscribe('http://127.0.0.1:9/mine', [QUIET]);
    const other = await apiKey();
    const answers = await Promise.all([
      api.get(`/api/v1/webhooks/${sub.id}`, other),
      api.patch(`/api/v1/webhooks/${sub.id}`, { description: 'x' }, other),
      api.request('DELETE', `/api/v1/webhooks/${sub.id}`, { key: other }),
      api.post(`/api/v1/webhooks/${sub.id}/rotate-secret`, undefined, other),
      api.post(`/api/v1/webhooks/${sub.id}/test`, undefined, other),
      api.get(`/api/v1/webhooks/${sub.id}/deliveries`, other),
      api.post(`/api/v1/webhooks/${sub.id}/deliveries/${UNKNOWN_ID}/retry`, undefined, other),
    ]);
    expect(answers.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
  });

  it('answers 403 to a key without WEBHOOKS_MANAGE and 401 without a key', async () => {
    const noScope = await apiKey({ scopes: ['TEST_SESSIONS_VIEW'] });
    expect((await api.get('/api/v1/webhooks', noScope)).status).toBe(403);
    expect((await api.get('/api/v1/webhooks')).status).toBe(401);
  });

  it('answers 404 for an unknown subscription', async () => {
    expect((await api.get(`/api/v1/webhooks/${UNKNOWN_ID}`, key)).status).toBe(404);
  });

  it('refuses an empty PATCH with 400', async () => {
    const sub = await subscribe('http://127.0.0.1:9/x', [QUIET]);
    expect((await api.patch(`/api/v1/webhooks/${sub.id}`, {}, sub.key)).status).toBe(400);
  });

  it('routes events by the types a PATCH sets', async () => {
    const hooks = await receiver();
    const sub = await subscribe(hooks.url, ['ShipmentStatusChanged']);
    expect((await api.patch(`/api/v1/webhooks/${sub.id}`, { event_types: ['AppointmentStatusChanged'] }, sub.key)).status).toBe(200);
    eventBridge.client.resetHistory();
    await scheduleAppointment(api, key);
    await dispatchPut(eventBridge);
    expect(hooks.received.map((r) => JSON.parse(r.body).type)).toEqual(['AppointmentStatusChanged']);
  });
});

describe('delivery', () => {
  it('POSTs a signed Standard Webhook whose webhook-id is the event id and whose data holds ids and statuses only', async () => {
    const hooks = await receiver();
    const sub = await subscribe(hooks.url);
    eventBridge.client.resetHistory();
    const appointmentId = await scheduleAppointment(api, key);
    const [put] = eventBridge.entries().filter((e) => e.DetailType === 'AppointmentStatusChanged');
    await dispatchPut(eventBridge);
    expect(hooks.received).toHaveLength(1);
    const message = verify(sub.secret, hooks.received[0] as Received);
    const detail = JSON.parse(put?.Detail as string);
    expect(hooks.received[0]?.headers['webhook-id']).toBe(detail.event_id);
    expect(message).toEqual({ type: 'AppointmentStatusChanged', timestamp: detail.occurred_at, data: detail });
    expect(message.data).toMatchObject({ appointment_id: appointmentId, status: 'scheduled', from_status: null });
    expect(hooks.received[0]?.body).not.toMatch(/Test|Patient|1979-10-01/);
  });

  it("matches the document's webhooks: the Standard Webhooks headers and the body schema of its type, the test send's too", async () => {
    const hooks = await receiver();
    const sub = await subscribe(hooks.url, ['AppointmentStatusChanged', 'LabResultsUpdated']);
    eventBridge.client.resetHistory();
    await scheduleAppointment(api, key);
    await dispatchPut(eventBridge);
    expect((await api.post(`/api/v1/webhooks/${sub.id}/test`, undefined, sub.key)).status).toBeLessThan(300);
    expect(hooks.received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual(['AppointmentStatusChanged', 'webhook.test']);
    for (const { headers, body } of hooks.received) assertWebhookDocumented(headers as Record<string, unknown>, body);
    // The typed client's body types (docs/lab-api.d.ts) narrow by `type`, as a receiver written against them would.
    const [changed] = hooks.received.map((r) => JSON.parse(r.body) as AnyWebhookBody);
    if (changed?.type !== 'AppointmentStatusChanged') throw new Error('expected AppointmentStatusChanged first');
    expect(changed.data.status).toBe('scheduled');
  });

  it('delivers AppointmentRescheduled, and nothing else a move puts, to a subscription of that type, as the document says', async () => {
    const hooks = await receiver();
    const sub = await subscribe(hooks.url, ['AppointmentRescheduled']);
    const appointmentId = await scheduleAppointment(api, key);
    eventBridge.client.resetHistory();
    const moved = await api.patch(`/api/v1/appointments/${appointmentId}`, { scheduled_at: slotIn(9) }, key);
    expect(moved.status).toBe(200);
    await dispatchPut(eventBridge);
    expect(hooks.received).toHaveLength(1);
    const message = verify(sub.secret, hooks.received[0] as Received);
    expect(message).toMatchObject({ type: 'AppointmentRescheduled', data: { appointment_id: appointmentId, to: { scheduled_at: moved.body.scheduled_at } } });
    assertWebhookDocumented(hooks.received[0]!.headers as Record<string, unknown>, hooks.received[0]!.body);
  });

  it('retries after a 500 with the same webhook-id and records the success', async () => {
    const hooks = await receiver((n) => (n === 0 ? 500 : 200));
    const sub = await subscribe(hooks.url);
    eventBridge.client.resetHistory();
    await scheduleAppointment(api, key);
    await dispatchPut(eventBridge);
    const [waiting] = await deliveries(sub);
    expect(waiting).toMatchObject({ outcome: 'pending', attempts: 1, last_status_code: 500 });
    expect(Date.parse(waiting?.next_attempt_at as string) - Date.parse(waiting?.last_attempt_at as string)).toBe(RETRY_SCHEDULE_MS[0]);
    await sweepAfter(RETRY_SCHEDULE_MS[0] + 1000);
    expect(hooks.received).toHaveLength(2);
    expect(new Set(hooks.ids()).size).toBe(1);
    verify(sub.secret, hooks.received[1] as Received);
    expect((await deliveries(sub))[0]).toMatchObject({ outcome: 'succeeded', attempts: 2, last_status_code: 200, next_attempt_at: null });
  });

  it('counts a receiver that does not answer within 10 s as failed and retries it', { timeout: 40_000 }, async () => {
    const hooks = await receiver((n) => (n === 0 ? 'hang' : 204));
    const sub = await subscribe(hooks.url);
    eventBridge.client.resetHistory();
    await scheduleAppointment(api, key);
    await dispatchPut(eventBridge);
    expect((await deliveries(sub))[0]).toMatchObject({ outcome: 'pending', last_status_code: null, last_error: 'no answer within 10 s' });
    await sweepAfter(RETRY_SCHEDULE_MS[0] + 1000);
    expect((await deliveries(sub))[0]).toMatchObject({ outcome: 'succeeded', attempts: 2 });
    expect(new Set(hooks.ids()).size).toBe(1);
  });

  it('marks a delivery failed after the last scheduled attempt, and a manual retry then delivers it', async () => {
    const hooks = await receiver(() => 503);
    const sub = await subscribe(hooks.url);
    eventBridge.client.resetHistory();
    await scheduleAppointment(api, key);
    await dispatchPut(eventBridge);
    await sweepWholeSchedule();
    const [failed] = await deliveries(sub);
    expect(failed).toMatchObject({ outcome: 'failed', attempts: 8, last_status_code: 503, next_attempt_at: null });
    const retry = () => api.post(`/api/v1/webhooks/${sub.id}/deliveries/${failed?.id}/retry`, undefined, sub.key);
    // Still down: one more attempt, and the delivery stays failed, with no new schedule.
    expect((await retry()).body).toMatchObject({ outcome: 'failed', attempts: 9, last_status_code: 503, next_attempt_at: null });
    hooks.behave(() => 200);
    const retried = await retry();
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ outcome: 'succeeded', attempts: 10, last_status_code: 200 });
    expect(new Set(hooks.ids()).size).toBe(1);
    verify(sub.secret, hooks.received.at(-1) as Received);
  });

  it('records a closed port as connection refused', async () => {
    const hooks = await receiver();
    const sub = await subscribe(hooks.url);
    await hooks.close();
    eventBridge.client.resetHistory();
    await scheduleAppointment(api, key);
    await dispatchPut(eventBridge);
    expect((await deliveries(sub))[0]).toMatchObject({ outcome: 'pending', last_status_code: null, last_error: 'connection refused' });
  });

  it('disables a subscription at the 5th delivery in a row that failed, not before, says why, and enabling it starts a new count', async () => {
    const hooks = await receiver(() => 500);
    const sub = await subscribe(hooks.url);
    const failDeliveries = async (count: number) => {
      eventBridge.client.resetHistory();
      for (let i = 0; i < count; i += 1) await scheduleAppointment(api, key);
      await dispatchPut(eventBridge);
      await sweepWholeSchedule();
      return (await api.get(`/api/v1/webhooks/${sub.id}`, sub.key)).body;
    };
    expect(await failDeliveries(4)).toMatchObject({ status: 'enabled' });
    const disabled = await failDeliveries(1);
    expect(disabled).toMatchObject({ status: 'disabled' });
    expect(disabled.disabled_reason).toContain('5 deliveries in a row failed');
    expect(hooks.received).toHaveLength(5 * 8);
    const enabled = await api.patch(`/api/v1/webhooks/${sub.id}`, { status: 'enabled' }, sub.key);
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    expect(await failDeliveries(1)).toMatchObject({ status: 'enabled' });
  });

  it("never delivers a partner key's subscription an event of the demo clinic, only its own tenant's", async () => {
    const hooks = await receiver();
    const partner = await apiKey({ profileGroups: ['partner-clinic'], locationGroups: ['berlin'] });
    await subscribe(hooks.url, ['AppointmentStatusChanged'], partner);
    eventBridge.client.resetHistory();
    await scheduleAppointment(api, key);
    const partnerAppointment = await scheduleAppointment(api, partner, { profileId: await createProfile(api, partner, 'partner-clinic') });
    await dispatchPut(eventBridge);
    expect(hooks.received.map((r) => JSON.parse(r.body).data.appointment_id)).toEqual([partnerAppointment]);
  });

  it('stops delivering to the subscriptions of a revoked key', async () => {
    const hooks = await receiver();
    const { keyId, plaintext } = await apiKeyWithId();
    await subscribe(hooks.url, ['AppointmentStatusChanged'], plaintext);
    await revokeApiKey(keyId);
    eventBridge.client.resetHistory();
    await scheduleAppointment(api, key);
    await dispatchPut(eventBridge);
    expect(hooks.received).toHaveLength(0);
  });

  it('makes 20 deliveries of 20 parallel events, none twice, even when every message arrives twice', async () => {
    const hooks = await receiver();
    await subscribe(hooks.url);
    eventBridge.client.resetHistory();
    await Promise.all(Array.from({ length: 20 }, () => scheduleAppointment(api, key)));
    const entries = eventBridge.entries().filter((e) => e.DetailType === 'AppointmentStatusChanged');
    expect(entries).toHaveLength(20);
    await Promise.all([dispatchEntries(entries), dispatchEntries([...entries].reverse())]);
    expect(hooks.received).toHaveLength(20);
    expect(new Set(hooks.ids()).size).toBe(20);
  });

  it('signs with both secrets for 24 h after a rotation, so either verifies', async () => {
    const hooks = await receiver();
    const sub = await subscribe(hooks.url);
    const rotated = await api.post(`/api/v1/webhooks/${sub.id}/rotate-secret`, undefined, sub.key);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret as string;
    expect(newSecret).not.toBe(sub.secret);
    const sent = await api.post(`/api/v1/webhooks/${sub.id}/test`, undefined, sub.key);
    expect(sent.body.outcome).toBe('succeeded');
    const received = hooks.received[0] as Received;
    expect((received.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verify(sub.secret, received).type).toBe('webhook.test');
    expect(verify(newSecret, received).type).toBe('webhook.test');
  });

  it('sends a test webhook now and answers its delivery', async () => {
    const hooks = await receiver();
    const sub = await subscribe(hooks.url, ['ShipmentStatusChanged']);
    const res = await api.post(`/api/v1/webhooks/${sub.id}/test`, undefined, sub.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ event_type: 'webhook.test', outcome: 'succeeded', attempts: 1, last_status_code: 204 });
    expect(verify(sub.secret, hooks.received[0] as Received)).toMatchObject({ type: 'webhook.test', data: { webhook_id: sub.id } });
  });

  it('refuses a test send to a disabled subscription with 409', async () => {
    const sub = await subscribe('http://127.0.0.1:9/x', [QUIET]);
    await api.patch(`/api/v1/webhooks/${sub.id}`, { status: 'disabled' }, sub.key);
    expect((await api.post(`/api/v1/webhooks/${sub.id}/test`, undefined, sub.key)).status).toBe(409);
  });

  it('lists deliveries newest first, a page at a time', async () => {
    const hooks = await receiver();
    const sub = await subscribe(hooks.url);
    for (let i = 0; i < 3; i += 1) await api.post(`/api/v1/webhooks/${sub.id}/test`, undefined, sub.key);
    const first = await api.get(`/api/v1/webhooks/${sub.id}/deliveries?limit=2`, sub.key);
    expect(first.body).toHaveLength(2);
    const rest = await api.get(`/api/v1/webhooks/${sub.id}/deliveries?limit=2&cursor=${first.headers.get('x-next-cursor')}`, sub.key);
    const ids = [...first.body, ...rest.body].map((d: { event_id: string }) => d.event_id);
    expect(ids).toEqual([...hooks.ids()].reverse());
  });

  it('answers 409 to a retry while another attempt of the same delivery is in flight', async () => {
    const hooks = await receiver(() => ({ status: 200, afterMs: 500 }));
    const sub = await subscribe(hooks.url, ['ShipmentStatusChanged']);
    const sent = await api.post(`/api/v1/webhooks/${sub.id}/test`, undefined, sub.key);
    const retry = () => api.post(`/api/v1/webhooks/${sub.id}/deliveries/${sent.body.id}/retry`, undefined, sub.key);
    const statuses = (await Promise.all([retry(), retry()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect(hooks.received).toHaveLength(2);
  });

  it('answers 404 to a retry of an unknown delivery', async () => {
    const sub = await subscribe('http://127.0.0.1:9/x', [QUIET]);
    expect((await api.post(`/api/v1/webhooks/${sub.id}/deliveries/${UNKNOWN_ID}/retry`, undefined, sub.key)).status).toBe(404);
  });

  it('reports an SQS message that is not an event of the service as a batch item failure', async () => {
    const event = sqsEvent(['not json', JSON.stringify({ source: 'someone-else', 'detail-type': 'X', detail: {} })]);
    const result = await dispatch(event);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(event.Records.map((r) => r.messageId));
  });
});
