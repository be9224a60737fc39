/**
 * EventBridge cannot run here, so it is the one AWS part replaced in tests (aws-sdk-client-mock).
 * Tests then assert the exact PutEvents request the service sends.
 */
import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
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
