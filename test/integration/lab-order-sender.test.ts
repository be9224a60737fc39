/**
 * The lab order sender (shared/usecases/send-lab-order.ts) against DynamoDB Local and a lab's engine on
 * loopback (@medplum/hl7's Hl7Server): a confirmed draw's order delivered over MLLP, the lab's answers
 * recorded on the appointment (and a home kit's), each change with its event, the same control id on
 * every attempt, and the failure after the last one.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { controlIdOf, type RetrySchedule } from '../../shared/domain/lab-order';
import { outboxEntriesBefore } from '../../shared/store/outbox';
import { type AttemptOutcome, ERASED_BEFORE_SENT, type LabInterface, sendLabOrder } from '../../shared/usecases/send-lab-order';
import { useApi } from '../support/api';
import { type Handler, withMiddleware } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData } from '../support/fixtures';
import { ack, acceptAll, type LabAnswer, startTestLab, type TestLab } from '../support/hl7-lab';
import { CARDIOGENETICS_PANEL, confirmDraw, createProfile, drawableAppointment, newBarcode, storedAppointment } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;
const labs: TestLab[] = [];

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});
afterEach(async () => {
  while (labs.length > 0) await labs.pop()!.stop();
});

const SCHEDULE: RetrySchedule = { firstDelayMs: 10, maxDelayMs: 40, attempts: 3 };
const parties = { sendingFacility: 'Demo Clinic', receivingApplication: 'LIS', receivingFacility: 'Central Lab' };
const labInterface = (port: number): LabInterface => ({ target: { host: '127.0.0.1', port, tls: false }, parties, ackTimeoutMs: 2000, schedule: SCHEDULE });

async function lab(answer: LabAnswer = acceptAll): Promise<TestLab> {
  const started = await startTestLab(answer);
  labs.push(started);
  return started;
}

/** A port nothing listens on: a lab that is down. */
async function closedPort(): Promise<number> {
  const { port, stop } = await startTestLab();
  await stop();
  return port;
}

/** A confirmed draw of ferritin: its id and requisition number, as the LabOrderRequested event names them. */
async function drawnSample(): Promise<{ appointment_id: string; requisition_number: string; barcode: string }> {
  const id = await drawableAppointment(api, key);
  const barcode = await confirmDraw(api, key, id);
  const res = await api.get(`/api/v1/appointments/${id}`, key);
  return { appointment_id: id, requisition_number: res.body.requisition.number as string, barcode };
}

const send = (order: { appointment_id: string; requisition_number: string }, attempt: number, port: number): Promise<AttemptOutcome> =>
  sendLabOrder(order, attempt, labInterface(port), () => new Date());

const putTypes = () => eventBridge.entries().map((entry) => entry.DetailType);

describe('sendLabOrder', () => {
  it("sends the draw's order once and records accepted with its event when the lab answers AA", async () => {
    const order = await drawnSample();
    const theLab = await lab();
    eventBridge.client.resetHistory();

    expect(await send(order, 1, theLab.port)).toEqual({ kind: 'answered', status: 'accepted' });

    expect(theLab.controlIds()).toEqual([controlIdOf(order.requisition_number)]);
    expect(theLab.received[0]!.getSegment('ORC')!.getField(4).getComponent(1)).toBe(order.requisition_number);
    const res = await api.get(`/api/v1/appointments/${order.appointment_id}`, key);
    expect(res.body.lab_order).toEqual({
      status: 'accepted',
      message_control_id: controlIdOf(order.requisition_number),
      acknowledged_at: expect.any(String),
      error: null,
    });
    expect(putTypes()).toEqual(['LabOrderAccepted']);
    expect(JSON.parse(eventBridge.entries()[0]!.Detail!)).toEqual({
      event_id: expect.any(String),
      occurred_at: res.body.lab_order.acknowledged_at,
      appointment_id: order.appointment_id,
      home_kit_order_id: null,
      profile_id: res.body.profile_id,
      profile_group_slug: 'demo-clinic',
      requisition_number: order.requisition_number,
      message_control_id: controlIdOf(order.requisition_number),
      from_status: 'pending',
      status: 'accepted',
    });
  });

  it("records refused with the lab's text, and its event without that text, when the lab answers AR", async () => {
    const order = await drawnSample();
    const theLab = await lab((message, connection) => connection.send(ack(message, 'AR', 'Unknown test code')));
    eventBridge.client.resetHistory();

    expect(await send(order, 1, theLab.port)).toEqual({ kind: 'answered', status: 'refused' });

    expect((await storedAppointment(order.appointment_id)).lab_order).toMatchObject({ status: 'refused', error: 'Unknown test code' });
    expect(putTypes()).toEqual(['LabOrderRefused']);
    expect(eventBridge.entries()[0]!.Detail).not.toContain('Unknown test code');
  });

  it('asks for a retry after the first wait of the schedule, the order pending with the reason, when the lab is down', async () => {
    const order = await drawnSample();
    eventBridge.client.resetHistory();

    expect(await send(order, 1, await closedPort())).toEqual({ kind: 'retry', afterMs: 10, reason: 'connection failed (ECONNREFUSED)' });

    expect((await storedAppointment(order.appointment_id)).lab_order).toEqual({
      status: 'pending',
      message_control_id: controlIdOf(order.requisition_number),
      acknowledged_at: null,
      error: 'connection failed (ECONNREFUSED)',
    });
    expect(putTypes()).toEqual([]);
  });

  it('sends the same control id on every attempt until the lab answers', async () => {
    const order = await drawnSample();
    let calls = 0;
    const theLab = await lab((message, connection) => {
      calls += 1;
      if (calls < 3)
        connection.socket.destroy(); // dropped twice, answered the third time
      else connection.send(ack(message, 'AA'));
    });

    const outcomes = [await send(order, 1, theLab.port), await send(order, 2, theLab.port), await send(order, 3, theLab.port)];

    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['retry', 'retry', 'answered']);
    expect(theLab.controlIds()).toEqual(Array(3).fill(controlIdOf(order.requisition_number)));
    expect((await storedAppointment(order.appointment_id)).lab_order).toMatchObject({ status: 'accepted', error: null });
  });

  it('records failed with its event after the last attempt of the schedule without an answer', async () => {
    const order = await drawnSample();
    const port = await closedPort();
    eventBridge.client.resetHistory();

    await send(order, 1, port);
    await send(order, 2, port);
    expect(await send(order, 3, port)).toEqual({ kind: 'failed', reason: 'connection failed (ECONNREFUSED)' });

    expect((await storedAppointment(order.appointment_id)).lab_order).toMatchObject({ status: 'failed', error: 'connection failed (ECONNREFUSED)' });
    expect(putTypes()).toEqual(['LabOrderFailed']);
  });

  it('moves a failed order to accepted when a redrive reaches the lab, with the same control id', async () => {
    const order = await drawnSample();
    const port = await closedPort();
    for (const attempt of [1, 2, 3]) await send(order, attempt, port);
    const theLab = await lab();
    eventBridge.client.resetHistory();

    expect(await send(order, 1, theLab.port)).toEqual({ kind: 'answered', status: 'accepted' });

    expect(theLab.controlIds()).toEqual([controlIdOf(order.requisition_number)]);
    expect((await storedAppointment(order.appointment_id)).lab_order).toMatchObject({ status: 'accepted', error: null });
    expect(eventBridge.entries().map((entry) => JSON.parse(entry.Detail!) as { from_status: string; status: string })).toEqual([
      expect.objectContaining({ from_status: 'failed', status: 'accepted' }),
    ]);
  });

  it('keeps a failed order failed, with no second LabOrderFailed, when a redrive runs out of attempts too', async () => {
    const order = await drawnSample();
    const port = await closedPort();
    for (const attempt of [1, 2, 3]) await send(order, attempt, port);
    eventBridge.client.resetHistory();

    for (const attempt of [1, 2]) await send(order, attempt, port);
    expect(await send(order, 3, port)).toMatchObject({ kind: 'failed' });

    expect((await storedAppointment(order.appointment_id)).lab_order).toMatchObject({ status: 'failed' });
    expect(putTypes()).toEqual([]);
  });

  it('sends nothing again for an order the lab already accepted (a redelivered event)', async () => {
    const order = await drawnSample();
    const theLab = await lab();
    await send(order, 1, theLab.port);
    eventBridge.client.resetHistory();

    expect(await send(order, 1, theLab.port)).toEqual({ kind: 'answered', status: 'accepted' });

    expect(theLab.received).toHaveLength(1);
    expect(putTypes()).toEqual([]);
  });

  it('leaves the event in the outbox, written with the change, when the bus is down', async () => {
    const order = await drawnSample();
    const theLab = await lab();
    eventBridge.failNextPuts();

    await send(order, 1, theLab.port);

    const pending = (await outboxEntriesBefore(new Date(Date.now() + 60_000).toISOString())).flatMap((entry) => entry.events);
    expect(pending).toContainEqual(
      expect.objectContaining({ detail_type: 'LabOrderAccepted', detail: expect.objectContaining({ appointment_id: order.appointment_id }) }),
    );
  });

  it("mirrors a home kit's lab order onto the kit, and names the kit in the event", async () => {
    const profileId = await createProfile(api, key);
    const created = await api.post(
      '/api/v1/home-kit-orders',
      { profile_id: profileId, delivery_address: { location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01' } },
      key,
    );
    const kitId = created.body.id as string;
    await api.post(`/api/v1/home-kit-orders/${kitId}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
    await api.post(`/api/v1/home-kit-orders/${kitId}/dispatch`, { tracking_number: 'DHL-0001' }, key);
    const activated = await api.post(`/api/v1/home-kit-orders/${kitId}/activate`, { barcode: newBarcode() }, key);
    const theLab = await lab();
    eventBridge.client.resetHistory();

    await send({ appointment_id: activated.body.appointment_id, requisition_number: activated.body.requisition.number }, 1, theLab.port);

    const kit = await api.get(`/api/v1/home-kit-orders/${kitId}`, key);
    const appointment = await api.get(`/api/v1/appointments/${activated.body.appointment_id}`, key);
    expect(kit.body.lab_order).toMatchObject({ status: 'accepted' });
    expect(kit.body.lab_order).toEqual(appointment.body.lab_order);
    expect(JSON.parse(eventBridge.entries()[0]!.Detail!)).toMatchObject({ home_kit_order_id: kitId, status: 'accepted' });
  });

  it('sends nothing for an event whose requisition is not the one the appointment holds', async () => {
    const order = await drawnSample();
    const theLab = await lab();

    expect(await send({ ...order, requisition_number: 'RQ-0000-0000-0000' }, 1, theLab.port)).toMatchObject({ kind: 'skipped' });

    expect(theLab.received).toEqual([]);
    expect((await storedAppointment(order.appointment_id)).lab_order).toBeUndefined();
  });
});

describe('two attempts at once on one order', () => {
  it('sends one message, one attempt answered and the other in flight', async () => {
    const order = await drawnSample();
    // The lab answers after 300 ms: both attempts reach the order while the first one's message is out.
    const theLab = await lab((message, connection) => void setTimeout(() => connection.send(ack(message, 'AA')), 300));

    const outcomes = await Promise.all([send(order, 1, theLab.port), send(order, 1, theLab.port)]);

    expect(theLab.received).toHaveLength(1);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        { kind: 'answered', status: 'accepted' },
        { kind: 'in-flight', afterMs: expect.any(Number) as number },
      ]),
    );
    const stored = (await storedAppointment(order.appointment_id)).lab_order;
    expect(stored).toMatchObject({ status: 'accepted' });
    expect(stored).not.toHaveProperty('sending_until');
  });

  it("answers the other attempt's answer, not failed, when it recorded one first during the last attempt", async () => {
    const order = await drawnSample();
    const theLab = await lab();
    // The last attempt to a lab that is down; just before its write of failed, another attempt whose clock
    // is past this one's lease (a lease outlived) reaches an accepting lab and records accepted.
    let raced = false;
    const race = (next: Handler) => async (args: unknown) => {
      const input = JSON.stringify((args as { input: unknown }).input);
      if (!raced && input.includes('"failed"') && input.includes(order.appointment_id) && input.includes('TransactItems')) {
        raced = true;
        await sendLabOrder(order, 1, labInterface(theLab.port), () => new Date(Date.now() + 60_000));
      }
      return next(args);
    };
    eventBridge.client.resetHistory();

    const outcome = await withMiddleware(race, async () => send(order, SCHEDULE.attempts, await closedPort()));

    expect(raced).toBe(true);
    expect(outcome).toEqual({ kind: 'answered', status: 'accepted' });
    expect((await storedAppointment(order.appointment_id)).lab_order).toMatchObject({ status: 'accepted' });
    expect(putTypes()).toEqual(['LabOrderAccepted']);
  });
});

describe('an order whose person was erased before it was sent', () => {
  it('is not sent, and is failed with its event and the reason', async () => {
    const order = await drawnSample();
    const { profile_id } = await storedAppointment(order.appointment_id);
    expect((await api.post(`/api/v1/profiles/${profile_id as string}/erase`, {}, key)).status).toBe(200);
    const theLab = await lab();
    eventBridge.client.resetHistory();

    expect(await send(order, 1, theLab.port)).toEqual({ kind: 'skipped', reason: ERASED_BEFORE_SENT });

    expect(theLab.received).toEqual([]);
    expect((await storedAppointment(order.appointment_id)).lab_order).toMatchObject({ status: 'failed', error: ERASED_BEFORE_SENT });
    expect(putTypes()).toEqual(['LabOrderFailed']);
  });
});

describe("a refused order's lab text and the person's erasure", () => {
  it("is replaced when the person is erased, the refusal kept: the lab's words may quote them", async () => {
    const order = await drawnSample();
    const theLab = await lab((message, connection) => connection.send(ack(message, 'AR', 'Name Erika Muster does not match')));
    await send(order, 1, theLab.port);
    const { profile_id } = await storedAppointment(order.appointment_id);
    expect((await api.post(`/api/v1/profiles/${profile_id as string}/erase`, {}, key)).status).toBe(200);
    expect((await storedAppointment(order.appointment_id)).lab_order).toMatchObject({
      status: 'refused',
      error: "The lab's reason was removed when the person's data was erased",
    });
  });

  it('leaves an accepted order as it is', async () => {
    const order = await drawnSample();
    const theLab = await lab();
    await send(order, 1, theLab.port);
    const before = (await storedAppointment(order.appointment_id)).lab_order;
    const { profile_id } = await storedAppointment(order.appointment_id);
    await api.post(`/api/v1/profiles/${profile_id as string}/erase`, {}, key);
    expect((await storedAppointment(order.appointment_id)).lab_order).toEqual(before);
  });
});
