/**
 * The lab order sender's Lambda (functions/events/lab-order-sender.ts) as its SQS event source mapping
 * runs it: the body the EventBridge rule puts in the queue for a confirmed draw's LabOrderRequested, the
 * receive count as the attempt number. The backoff is the message's visibility, asserted as the exact
 * ChangeMessageVisibility request (SQS is replaced here, as EventBridge is); the lab is a real MLLP
 * server on loopback, or a closed port.
 */
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAB_ORDER_RETRY } from '../../shared/domain/lab-order';
import { dynamoClient } from '../../shared/store/client';
import { useApi } from '../support/api';
import { dynamoError, mentioning, withFault } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData } from '../support/fixtures';
import { startTestLab, type TestLab } from '../support/hl7-lab';
import { confirmDraw, drawableAppointment, storedAppointment } from '../support/scenario';
import { eventBridgeEvent, sqsEvent } from '../support/webhooks';

// The function reads its lab from the environment when it loads: a port that is closed until a test opens it
// (bound once by the system and closed again, so nothing listens on it).
const port = await vi.hoisted(async () => {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: closed } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return closed;
});
vi.hoisted(() => {
  Object.assign(process.env, {
    LAB_MLLP_HOST: '127.0.0.1',
    LAB_MLLP_PORT: String(port),
    LAB_SENDING_FACILITY: 'LABAPI-TEST',
    LAB_RECEIVING_APPLICATION: 'LIS',
    LAB_RECEIVING_FACILITY: 'CENTRAL-LAB',
  });
});

const api = useApi();
const eventBridge = mockEventBridge();
const sqs = mockClient(SQSClient);
let key: string;
let lab: TestLab | undefined;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});
beforeEach(() => {
  sqs.reset();
  sqs.on(ChangeMessageVisibilityCommand).resolves({});
});
afterAll(async () => {
  await lab?.stop();
});

/** A confirmed draw and the SQS event holding its LabOrderRequested, received for the `receives`-th time. */
async function orderMessage(receives: number): Promise<{ id: string; event: SQSEvent }> {
  const id = await drawableAppointment(api, key);
  await confirmDraw(api, key, id);
  const entry = eventBridge.entries().find((e) => e.DetailType === 'LabOrderRequested' && JSON.parse(e.Detail!).appointment_id === id)!;
  const event = sqsEvent([JSON.stringify(eventBridgeEvent(entry))]);
  event.Records[0]!.attributes.ApproximateReceiveCount = String(receives);
  event.Records[0]!.eventSourceARN = 'arn:aws:sqs:eu-central-1:123456789012:lab-order-sender';
  return { id, event };
}

const visibilityCalls = () => sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input);

describe('the lab order sender Lambda', () => {
  it("reports the message failed and hides it for the schedule's first wait when the lab does not answer", async () => {
    const { handler } = await import('../../functions/events/lab-order-sender');
    const { id, event } = await orderMessage(1);

    expect(await handler(event)).toEqual({ batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] });

    expect(visibilityCalls()).toEqual([
      {
        QueueUrl: 'https://sqs.eu-central-1.amazonaws.com/123456789012/lab-order-sender',
        ReceiptHandle: 'receipt',
        VisibilityTimeout: 30,
      },
    ]);
    expect((await storedAppointment(id)).lab_order).toMatchObject({ status: 'pending' });
  });

  it('makes the message visible at once after the last attempt, so SQS moves it to the dead-letter queue, and records failed', async () => {
    const { handler } = await import('../../functions/events/lab-order-sender');
    const { id, event } = await orderMessage(LAB_ORDER_RETRY.attempts);

    expect((await handler(event)).batchItemFailures).toHaveLength(1);

    expect(visibilityCalls().map((input) => input.VisibilityTimeout)).toEqual([0]);
    expect((await storedAppointment(id)).lab_order).toMatchObject({ status: 'failed' });
  });

  it('deletes the message (no failure, no visibility change) once the lab accepts the order', async () => {
    const { handler } = await import('../../functions/events/lab-order-sender');
    lab = await startTestLab(undefined, port);
    const { id, event } = await orderMessage(3);

    expect(await handler(event)).toEqual({ batchItemFailures: [] });

    expect(visibilityCalls()).toEqual([]);
    expect((await storedAppointment(id)).lab_order).toMatchObject({ status: 'accepted' });
    expect(lab.received).toHaveLength(1);
  });

  it('records failed with its event before SQS parks the message when DynamoDB fails on the last receive', async () => {
    const { handler } = await import('../../functions/events/lab-order-sender');
    const { id, event } = await orderMessage(LAB_ORDER_RETRY.attempts);
    eventBridge.client.resetHistory();

    // The attempt's lease (its one UpdateItem) fails, with every retry of the SDK: the send never starts.
    const { result, faulted } = await withFault(dynamoClient, dynamoError(500, 'InternalServerError'), mentioning(id, 'UpdateItemCommand'), () =>
      handler(event),
    );

    expect(faulted).toBeGreaterThan(0);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] });
    expect((await storedAppointment(id)).lab_order).toMatchObject({ status: 'failed', error: 'the sender failed (InternalServerError)' });
    expect(eventBridge.entries().map((entry) => entry.DetailType)).toEqual(['LabOrderFailed']);
  });
});
