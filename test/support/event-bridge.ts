/**
 * EventBridge cannot run here, so it is the one AWS part replaced in tests (aws-sdk-client-mock).
 * Tests then assert the exact PutEvents request the service sends.
 */
import { randomUUID } from 'node:crypto';
import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { EventBridgeEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach } from 'vitest';

export function mockEventBridge() {
  const eventBridge = mockClient(EventBridgeClient);
  beforeEach(() => {
    eventBridge.reset();
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'test' }] });
  });
  return {
    client: eventBridge,
    /** Every entry put since the last reset, in order. */
    entries(): PutEventsRequestEntry[] {
      return eventBridge.commandCalls(PutEventsCommand).flatMap((call) => call.args[0].input.Entries ?? []);
    },
    failNextPuts(): void {
      eventBridge.on(PutEventsCommand).rejects(new Error('EventBridge unavailable'));
    },
  };
}

/** An event as EventBridge hands it to a target (a Lambda, or the body of an SQS message): its envelope. */
export function eventBridgeEnvelope(source: string, detailType: string, detail: unknown, time = new Date()): EventBridgeEvent<string, unknown> {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': detailType,
    source,
    account: '123456789012',
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'eu-central-1',
    resources: [],
    detail,
  };
}
