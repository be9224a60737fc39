/**
 * One scheduled run at a time (issue #27: no reserved concurrency): the lease of shared/store/leases.ts
 * against DynamoDB Local, then the outbox relay and the webhook retry sweep started while another run
 * holds theirs.
 */
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { handler as relayOutbox } from '../../functions/events/relay-outbox';
import { handler as webhookRetries } from '../../functions/events/webhook-retries';
import { acquireLease, releaseLease } from '../../shared/store/leases';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData } from '../support/fixtures';
import { scheduleAppointment } from '../support/scenario';

const eventBridge = mockEventBridge();
const api = useApi();

const at = (ms: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, 0) + ms);
let leaseNumber = 0;
const newLease = () => `test-lease-${++leaseNumber}`;

describe('a lease', () => {
  it('goes to exactly one of two holders asking at once', async () => {
    const name = newLease();
    const taken = await Promise.all(['a', 'b'].map((holder) => acquireLease(name, holder, at(0), at(60_000))));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it('is refused to another holder while its time runs', async () => {
    const name = newLease();
    await acquireLease(name, 'a', at(0), at(60_000));
    expect(await acquireLease(name, 'b', at(59_999), at(120_000))).toBe(false);
  });

  it('can be taken by another holder once its time is up', async () => {
    const name = newLease();
    await acquireLease(name, 'a', at(0), at(60_000));
    expect(await acquireLease(name, 'b', at(60_000), at(120_000))).toBe(true);
  });

  it('stays with its holder when someone else gives it back', async () => {
    const name = newLease();
    await acquireLease(name, 'a', at(0), at(60_000));
    await releaseLease(name, 'b');
    expect(await acquireLease(name, 'b', at(1_000), at(61_000))).toBe(false);
  });

  it('is free for the next holder at once when its holder gives it back', async () => {
    const name = newLease();
    await acquireLease(name, 'a', at(0), at(60_000));
    await releaseLease(name, 'a');
    expect(await acquireLease(name, 'b', at(1_000), at(61_000))).toBe(true);
  });
});

const lambdaContext = (awsRequestId: string) => ({ awsRequestId, getRemainingTimeInMillis: () => 50_000 }) as Context;

describe('the outbox relay', () => {
  it('started twice at once, publishes each waiting event once: the second run finds the lease held and skips', async () => {
    await seedDemoData();
    const key = await apiKey();
    eventBridge.failNextPuts();
    const ids = await Promise.all([1, 2, 3].map(() => scheduleAppointment(api, key)));
    eventBridge.client.reset();
    eventBridge.client.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'test' }] });

    // The relay publishes entries older than 30 s: both runs a minute later.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
    const runs = await Promise.all([relayOutbox(undefined, lambdaContext('run-1')), relayOutbox(undefined, lambdaContext('run-2'))]).finally(() =>
      vi.useRealTimers(),
    );

    expect(runs.map((run) => run.skipped).sort()).toEqual([false, true]);
    const details = eventBridge.entries().map((entry) => JSON.parse(entry.Detail!) as { event_id: string; appointment_id?: string });
    expect(new Set(details.map((detail) => detail.event_id)).size).toBe(details.length);
    for (const id of ids) expect(details.some((detail) => detail.appointment_id === id)).toBe(true);
  });
});

describe('the webhook retry sweep', () => {
  it('attempts nothing while another run holds its lease', async () => {
    const now = new Date();
    await acquireLease('webhook-retries', 'another-run', now, new Date(now.getTime() + 60_000));
    try {
      expect(await webhookRetries({}, lambdaContext('this-run'))).toEqual({ attempted: 0, skipped: true });
    } finally {
      await releaseLease('webhook-retries', 'another-run');
    }
  });

  it('runs once the other run has given its lease back', async () => {
    const now = new Date();
    await acquireLease('webhook-retries', 'another-run', now, new Date(now.getTime() + 60_000));
    await releaseLease('webhook-retries', 'another-run');
    expect(await webhookRetries({}, lambdaContext('next-run'))).toEqual({ attempted: 0, skipped: false });
  });
});
