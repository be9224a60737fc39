/**
 * The one AWS hop of webhook delivery that cannot run here, EventBridge → SQS, rebuilt with the exact
 * message shape AWS sends: an SQS record whose body is the EventBridge event of each PutEvents entry the
 * service put, handed to the dispatcher Lambda.
 */
import { randomUUID } from 'node:crypto';
import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { handler as dispatch } from '../../functions/events/webhook-dispatch';
import { expect } from 'vitest';
import { eventBridgeEnvelope, type mockEventBridge } from './event-bridge';

export { type Receiver, type Received, startReceiver } from './webhook-receiver';

/** The EventBridge event AWS builds from a PutEvents entry, as the rule's SQS target receives it. */
export const eventBridgeEvent = (entry: PutEventsRequestEntry) =>
  eventBridgeEnvelope(entry.Source as string, entry.DetailType as string, JSON.parse(entry.Detail as string), entry.Time);

export function sqsEvent(bodies: string[]): SQSEvent {
  const Records = bodies.map((body): SQSRecord => ({
    messageId: randomUUID(),
    receiptHandle: 'receipt',
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(Date.now()),
      SenderId: 'events.amazonaws.com',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-central-1:123456789012:webhooks',
    awsRegion: 'eu-central-1',
  }));
  return { Records };
}

/** Runs the dispatcher Lambda on these entries, ten per SQS batch as the event source mapping sends them. */
export async function dispatchEntries(entries: PutEventsRequestEntry[]): Promise<string[]> {
  const failures: string[] = [];
  for (let i = 0; i < entries.length; i += 10) {
    const batch = entries.slice(i, i + 10).map((entry) => JSON.stringify(eventBridgeEvent(entry)));
    const result = await dispatch(sqsEvent(batch));
    failures.push(...result.batchItemFailures.map((f) => f.itemIdentifier));
  }
  return failures;
}

/**
 * Everything put on the mocked bus since its last reset, through EventBridge → SQS → the dispatcher (which
 * also records the event log), the history reset after; fails the test when a message was not dispatched.
 */
export async function dispatchPut(eventBridge: ReturnType<typeof mockEventBridge>): Promise<void> {
  const entries = eventBridge.entries();
  eventBridge.client.resetHistory();
  expect(await dispatchEntries(entries)).toEqual([]);
}
