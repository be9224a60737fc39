/**
 * EventBridge failing while blood draws are confirmed: the first third of the confirms meet PutEvents
 * failing half the time, the second third every time, then it recovers; the relay runs once while it still
 * fails half the time, then until the outbox is empty. EventBridge cannot run here, so the mock of
 * test/support/event-bridge.ts answers each PutEvents the ways the service fails: a thrown error
 * (throttling, an internal error, a network error) or a partial failure (`FailedEntryCount` > 0 with an
 * `ErrorCode` on the failed entries), deterministically by call number.
 *
 * What must hold: every confirm answers 200, and once the relay has emptied the outbox, exactly one
 * LabOrderRequested per appointment was accepted by EventBridge (counting only the entries of answers
 * that accepted them, never attempts), none lost, no event accepted twice.
 *
 * FAULTS_CONFIRMS sets the number of confirms (default 100).
 */
import { PutEventsCommand, type PutEventsCommandInput, type PutEventsCommandOutput } from '@aws-sdk/client-eventbridge';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { relayOutbox } from '../../shared/usecases/publish-events';
import { dynamo, tableName } from '../../shared/store/client';
import { GSI2 } from '../../shared/store/keys';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData } from '../support/fixtures';
import { createProfile, drawableAppointment, newBarcode, slotIn } from '../support/scenario';

const CONFIRMS = Number(process.env.FAULTS_CONFIRMS ?? 100);

const api = useApi();
const eventBridge = mockEventBridge();

type Mode = 'half' | 'all' | 'none';

/** The ways one PutEvents fails, as EventBridge and the SDK report them. */
type Failure = 'throttled' | 'internal' | 'network' | 'first-entry' | 'last-entry' | 'every-entry';
const HALF_FAILURES: Failure[] = ['throttled', 'first-entry', 'internal', 'last-entry', 'network', 'every-entry'];
const ALL_FAILURES: Failure[] = ['throttled', 'every-entry', 'internal', 'network'];

const serviceError = (name: string, fault: 'client' | 'server', status: number) =>
  Object.assign(new Error(`injected ${name}`), { name, $fault: fault, $metadata: { httpStatusCode: status } });

function thrown(failure: Failure): Error | undefined {
  if (failure === 'throttled') return serviceError('ThrottlingException', 'client', 400);
  if (failure === 'internal') return serviceError('InternalException', 'server', 500);
  if (failure === 'network') return Object.assign(new Error('injected ECONNRESET'), { code: 'ECONNRESET' });
  return undefined;
}

/** Which entries of a call fail partially: their indexes. */
function failedEntries(failure: Failure, count: number): Set<number> {
  if (failure === 'first-entry') return new Set([0]);
  if (failure === 'last-entry') return new Set([count - 1]);
  if (failure === 'every-entry') return new Set(Array.from({ length: count }, (_, i) => i));
  return new Set();
}

interface Delivered {
  event_id: string;
  detail_type: string;
  appointment_id?: string;
  status?: string;
}

/** EventBridge as the test drives it: its mode now, and every entry it accepted. */
const bus = { mode: 'none' as Mode, calls: 0, failedCalls: 0, partialCalls: 0, delivered: [] as Delivered[] };

async function putEvents(input: PutEventsCommandInput): Promise<PutEventsCommandOutput> {
  bus.calls += 1;
  const entries = input.Entries ?? [];
  let failure: Failure | undefined;
  if (bus.mode === 'all') failure = ALL_FAILURES[bus.calls % ALL_FAILURES.length];
  if (bus.mode === 'half' && bus.calls % 2 === 0) failure = HALF_FAILURES[(bus.calls / 2) % HALF_FAILURES.length];
  const error = failure && thrown(failure);
  if (error) {
    bus.failedCalls += 1;
    throw error;
  }
  const failed = failure ? failedEntries(failure, entries.length) : new Set<number>();
  if (failed.size > 0) bus.failedCalls += 1;
  if (failed.size > 0 && failed.size < entries.length) bus.partialCalls += 1;
  const answers = entries.map((entry, i) => {
    if (failed.has(i)) return { ErrorCode: 'InternalFailure', ErrorMessage: 'injected entry failure' };
    const detail = JSON.parse(entry.Detail as string) as { event_id: string; appointment_id?: string; status?: string };
    bus.delivered.push({ event_id: detail.event_id, detail_type: entry.DetailType as string, appointment_id: detail.appointment_id, status: detail.status });
    return { EventId: `bus-${bus.delivered.length}` };
  });
  return { FailedEntryCount: failed.size, Entries: answers, $metadata: { httpStatusCode: 200 } };
}

async function pendingOutboxEntries(): Promise<number> {
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: tableName, IndexName: GSI2, KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': 'OUTBOX' } }),
  );
  return Items?.length ?? 0;
}

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) results.push(...(await Promise.all(items.slice(i, i + width).map(task))));
  return results;
}

/** The relay as scheduled, every run seeing the entries as older than its 30 s. */
const relayLater = () => relayOutbox(new Date(Date.now() + 31_000));

describe(`${CONFIRMS} confirms while EventBridge fails half the time, then every time, then recovers`, () => {
  let appointments: string[];
  const confirmStatuses: number[] = [];
  let relayFailedWhileHalf = false;
  let failuresDuringConfirms = 0;

  beforeAll(async () => {
    eventBridge.client.on(PutEventsCommand).callsFake(putEvents);
    await seedDemoData();
    const key = await apiKey();
    const profiles = await inBatches(
      Array.from({ length: Math.ceil(CONFIRMS / 10) }, (_, i) => i),
      5,
      () => createProfile(api, key),
    );
    appointments = await inBatches(
      Array.from({ length: CONFIRMS }, (_, i) => i),
      5,
      (i) => drawableAppointment(api, key, { profileId: profiles[i % profiles.length], scheduledAt: slotIn(7 + (i % 20)) }),
    );

    const third = Math.ceil(CONFIRMS / 3);
    const phases: [Mode, string[]][] = [
      ['half', appointments.slice(0, third)],
      ['all', appointments.slice(third, 2 * third)],
      ['none', appointments.slice(2 * third)],
    ];
    for (const [mode, ids] of phases) {
      bus.mode = mode;
      const statuses = await inBatches(ids, 4, async (id) => (await api.post(`/api/v1/appointments/${id}/confirm`, { barcode: newBarcode() }, key)).status);
      confirmStatuses.push(...statuses);
      if (mode === 'all') {
        failuresDuringConfirms = bus.failedCalls;
        // A relay run while EventBridge fails half the time: it publishes some entries, and fails.
        bus.mode = 'half';
        relayFailedWhileHalf = await relayLater().then(
          () => false,
          () => true,
        );
      }
    }
    bus.mode = 'none';
    for (let run = 0; run < 5 && (await pendingOutboxEntries()) > 0; run += 1) await relayLater();
  });

  it('answers 200 to every confirm', () => {
    expect(confirmStatuses).toEqual(Array(CONFIRMS).fill(200));
  });

  it('met failing PutEvents calls, partial ones included, and a relay run that failed', () => {
    expect(failuresDuringConfirms).toBeGreaterThan(CONFIRMS / 3);
    expect(bus.partialCalls).toBeGreaterThan(0);
    expect(relayFailedWhileHalf).toBe(true);
  });

  it('leaves the outbox empty once the relay ran', async () => {
    expect(await pendingOutboxEntries()).toBe(0);
  });

  it('delivers exactly one LabOrderRequested per confirmed appointment', () => {
    const orders = bus.delivered.filter((event) => event.detail_type === 'LabOrderRequested');
    expect(new Set(orders.map((event) => event.event_id)).size).toBe(CONFIRMS);
    expect(orders.map((event) => event.appointment_id).sort()).toEqual([...appointments].sort());
  });

  it('delivers no event twice', () => {
    const ids = bus.delivered.map((event) => event.event_id);
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(twice).toEqual([]);
  });

  it('delivers the status change of every confirm too, once each', () => {
    const drawn = bus.delivered.filter((event) => event.detail_type === 'AppointmentStatusChanged' && event.status === 'blood_drawn');
    expect(drawn.map((event) => event.appointment_id).sort()).toEqual([...appointments].sort());
  });
});
