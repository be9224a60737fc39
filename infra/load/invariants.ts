/**
 * The invariants a load run must hold afterwards (issue #54), each a list of violations (empty: it holds):
 *
 * - no 500, no hang, no connection error; no 503 outside an injected outage's window, and inside one every 503
 *   with Retry-After and every answer within 5 s;
 * - every 201 readable: its resource's GET answers 200;
 * - every status history consistent: the last entry's status is the resource's status (appointments, shipments);
 * - from the table and the events file (./table-checks.ts): seats, one LabOrderRequested per confirmed draw,
 *   the outbox empty;
 * - every event delivered to each matching webhook exactly once by webhook-id: the receiver answered 2xx for
 *   it exactly once, and for no event it should not have had.
 */
import type { Sample } from './open-model';
import type { LoadReceiver } from './receivers';
import type { Created, Partner, RunState } from './scenario';
import type { TableCheckResult } from './table-checks';

/** An outage: from when the part was stopped to when it answered again, ms from the run's start. */
export interface OutageWindow {
  part: string;
  from: number;
  to: number;
}

/** A request due this long after an outage ended may still meet it (the SDK's retries, a connection in flight). */
export const OUTAGE_GRACE_MS = 3_000;
export const OUTAGE_ANSWER_MS = 5_000;

export interface DuringOutage {
  requests: number;
  unavailable: number;
  maxMs: number;
  slowest: { cls: string; status: Sample['status']; atS: number; ms: number }[];
}

export function checkAnswers(samples: Sample[], outages: OutageWindow[]): { violations: string[]; duringOutage: DuringOutage } {
  const violations: string[] = [];
  const inOutage = (at: number, ms: number) => outages.some((o) => at + ms >= o.from && at <= o.to + OUTAGE_GRACE_MS);
  const count = (what: string, where: (s: Sample) => boolean) => {
    const found = samples.filter(where);
    // Each named by class, status, when it was due and how long it took (the first five).
    const which = found.slice(0, 5).map((s) => `${s.cls} ${s.status} at ${(s.at / 1000).toFixed(1)} s in ${Math.round(s.ms)} ms`);
    if (found.length > 0) violations.push(`${found.length} ${what}: ${which.join('; ')}`);
  };
  count('answers 500 or above other than 503', (s) => typeof s.status === 'number' && s.status >= 500 && s.status !== 503);
  count('requests with no answer within the client timeout', (s) => s.status === 'timeout');
  count('connection errors', (s) => s.status === 'error' && !s.cls.startsWith('lab report'));
  count('lab report ingests failed outside an outage', (s) => s.status === 'error' && s.cls.startsWith('lab report') && !inOutage(s.at, s.ms));
  count('answers 503 outside an injected outage', (s) => s.status === 503 && !inOutage(s.at, s.ms));
  count('answers 503 without Retry-After', (s) => s.status === 503 && s.retryAfter === false);
  const during = samples.filter(
    (s) => !s.cls.startsWith('lab report') && outages.some((o) => o.part !== 'webhook receivers' && s.at >= o.from && s.at <= o.to),
  );
  count(`answers during an outage slower than ${OUTAGE_ANSWER_MS / 1000} s`, (s) => during.includes(s) && s.ms > OUTAGE_ANSWER_MS);
  return {
    violations,
    duringOutage: {
      requests: during.length,
      unavailable: during.filter((s) => s.status === 503).length,
      maxMs: Math.round(Math.max(0, ...during.map((s) => s.ms))),
      // The ten slowest, for the record: what a client waited for during an outage.
      slowest: [...during]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 10)
        .map((s) => ({ cls: s.cls, status: s.status, atS: Math.round(s.at / 100) / 10, ms: Math.round(s.ms) })),
    },
  };
}

type Get = (path: string, partner: Partner) => Promise<{ status: number; json: { [key: string]: unknown } | undefined }>;

/** Runs `work` over `items`, `parallel` at a time. */
async function eachLimited<T>(items: T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function checkReadable(created: Created[], get: Get): Promise<string[]> {
  const violations: string[] = [];
  await eachLimited(created, 8, async ({ cls, path, partner }) => {
    const { status } = await get(path, partner);
    if (status !== 200) violations.push(`${cls} ${path.replace(/\/p\/.+/, '/p/{token}')} answered 201 and its GET ${status}`);
  });
  return violations;
}

export async function checkHistories(state: RunState, get: Get): Promise<string[]> {
  const violations: string[] = [];
  const resources = [
    ...state.appointments.map((a) => ({ path: `/api/v1/appointments/${a.id}`, partner: a.partner })),
    ...state.shipments.map((s) => ({ path: `/api/v1/shipments/${s.id}`, partner: s.partner })),
  ];
  await eachLimited(resources, 8, async ({ path, partner }) => {
    const [resource, history] = await Promise.all([get(path, partner), get(`${path}/history`, partner)]);
    const entries = (history.json as unknown as { status?: string }[] | undefined) ?? [];
    const last = Array.isArray(entries) ? entries.at(-1)?.status : undefined;
    if (resource.status !== 200 || history.status !== 200) violations.push(`${path}: GET ${resource.status}, history ${history.status}`);
    else if (last !== resource.json?.status) violations.push(`${path} is ${String(resource.json?.status)}, its history ends with ${String(last)}`);
  });
  return violations;
}

export function checkDeliveries(
  webhooks: { webhookId: string; partner: string; receiver: LoadReceiver }[],
  expected: TableCheckResult['expectedDeliveries'],
): { violations: string[]; delivered: number; redelivered: number } {
  const violations: string[] = [];
  let delivered = 0;
  let redelivered = 0;
  for (const { webhookId, partner, receiver } of webhooks) {
    const accepted = new Map<string, number>();
    const refusedIds = new Set<string>();
    for (const r of receiver.received) {
      if (r.status < 300) accepted.set(r.id, (accepted.get(r.id) ?? 0) + 1);
      else refusedIds.add(r.id);
    }
    const want = new Set(expected[webhookId] ?? []);
    const missing = [...want].filter((id) => !accepted.has(id));
    const twice = [...accepted].filter(([, n]) => n > 1).map(([id]) => id);
    const unexpected = [...accepted.keys()].filter((id) => !want.has(id));
    if (missing.length > 0) violations.push(`webhooks: ${partner} never accepted ${missing.length} of ${want.size} events`);
    if (twice.length > 0) violations.push(`webhooks: ${partner} accepted ${twice.length} events more than once`);
    if (unexpected.length > 0) violations.push(`webhooks: ${partner} accepted ${unexpected.length} events it should not have had`);
    delivered += accepted.size;
    redelivered += [...refusedIds].filter((id) => accepted.has(id)).length;
  }
  return { violations, delivered, redelivered };
}
