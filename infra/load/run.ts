/**
 * One load run (issue #54), for the CLI (./load-cli.ts) and the CI test alike: the stack (its own, or a running
 * one at `base`), the partners with their keys, webhooks and receivers, the open-model traffic of
 * ./scenario.ts for `durationMs` at `rate`, the faults at their times, the drain (failed lab reports handed
 * again, the outbox relayed, the webhook retries run by a later clock), the invariants (./invariants.ts) and
 * the figures. Answers the whole result; `ok` is false when an invariant or a soak limit broke.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/event-types';
import { type DuringOutage, type OutageWindow, checkAnswers, checkDeliveries, checkHistories, checkReadable } from './invariants';
import { startLoadStack, type LoadStack } from './local-stack';
import { type ClassFigures, figures, LoadRecord, percentile, runOpenModel } from './open-model';
import { type LoadReceiver, startLoadReceiver } from './receivers';
import { arrival, httpCaller, newState, type Partner } from './scenario';
import type { Memory } from './server-control';

export interface LoadOptions {
  durationMs: number;
  rate: number;
  faults: boolean;
  partners: number;
  /** A running stack (no faults, no lab reports, no table checks: those need the run's own stack). */
  base?: string;
  key?: string;
  dataDir: string;
  /** Progress lines (the CLI prints them; the test keeps them quiet). */
  log?: (line: string) => void;
}

export interface LoadResult {
  ok: boolean;
  date: string;
  commit: string;
  machine: { cpus: number; model: string; loadavgStart: number[]; loadavgEnd: number[] };
  settings: { durationS: number; rate: number; faults: boolean; partners: number; base: string | null };
  generator: { started: number; dropped: number; maxInFlight: number };
  classes: { [cls: string]: ClassFigures };
  outages: (OutageWindow & { requests?: number })[];
  duringOutage: DuringOutage;
  invariants: { [name: string]: string[] };
  counts: { [name: string]: number };
  memory: { afterFirstMinute?: Memory; atEnd?: Memory };
  soak?: { firstMinuteP99: number; lastMinuteP99: number; p99Ratio: number; rssRatio: number; heapRatio: number; violations: string[] };
}

/** When each fault starts, as a fraction of the run, and how long it lasts (issue #54: 10 s, 10 s, 30 s). */
const FAULTS = [
  { part: 'DynamoDB Local', at: 0.15, forMs: 10_000 },
  { part: 'webhook receivers', at: 0.1, forMs: 30_000 },
  { part: 'S3 emulator', at: 0.6, forMs: 10_000 },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function commitOf(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const log = options.log ?? (() => undefined);
  const loadavgStart = loadavg();
  let stack: LoadStack | undefined;
  const receivers: LoadReceiver[] = [];
  try {
    let baseUrl = options.base;
    if (!baseUrl) {
      rmSync(options.dataDir, { recursive: true, force: true });
      mkdirSync(options.dataDir, { recursive: true });
      log(`starting the local stack (DynamoDB Local with its data in ${options.dataDir})`);
      stack = await startLoadStack(options.dataDir);
      baseUrl = stack.baseUrl;
    }
    const record = new LoadRecord();
    const call = httpCaller(baseUrl, record);

    // The partners: a key each (or the one given), a receiver each, a webhook of every type to it.
    const partners: (Partner & { keyId?: string; webhookId?: string; receiver: LoadReceiver })[] = [];
    for (let i = 0; i < (stack ? options.partners : 1); i++) {
      const issued = stack ? await stack.control.send({ command: 'issueKey', name: `load partner ${i + 1}` }) : { plaintext: options.key!, keyId: undefined };
      const receiver = await startLoadReceiver();
      receivers.push(receiver);
      partners.push({ name: `partner ${i + 1}`, key: issued.plaintext, keyId: issued.keyId, receiver });
    }
    const eventsFrom = stack ? (statSync(stack.eventsFile, { throwIfNoEntry: false })?.size ?? 0) : 0;
    for (const partner of partners) {
      const { status, json } = await call('setup: POST /webhooks', record.now(), partner.key, 'POST', '/api/v1/webhooks', {
        url: partner.receiver.url,
        event_types: [...WEBHOOK_EVENT_TYPES],
        description: 'load run',
      });
      if (status !== 201) throw new Error(`creating a webhook answered ${status}`);
      partner.webhookId = json!.id as string;
    }
    record.samples.length = 0;

    // Faults, at their times; each outage window from the stop to the part answering again.
    const outages: OutageWindow[] = [];
    const faultRuns: Promise<void>[] = [];
    if (options.faults && stack) {
      const s = stack;
      const actions: { [part: string]: { down(): Promise<void> | void; up(): Promise<void> | void } } = {
        'DynamoDB Local': { down: () => s.stopDynamoDb(), up: () => s.startDynamoDb() },
        'S3 emulator': { down: () => s.stopS3(), up: () => s.startS3() },
        'webhook receivers': { down: () => receivers.forEach((r) => (r.down = true)), up: () => receivers.forEach((r) => (r.down = false)) },
      };
      for (const fault of FAULTS) {
        faultRuns.push(
          (async () => {
            await sleep(fault.at * options.durationMs);
            const from = record.now();
            log(`fault: ${fault.part} down for ${fault.forMs / 1000} s`);
            await actions[fault.part]!.down();
            await sleep(fault.forMs);
            await actions[fault.part]!.up();
            outages.push({ part: fault.part, from, to: record.now() });
            log(`fault: ${fault.part} back after ${((record.now() - from) / 1000).toFixed(1)} s`);
          })(),
        );
      }
    }

    // Memory of the local server after the first minute, and at the end (soak).
    const memory: LoadResult['memory'] = {};
    const firstMinute =
      stack && options.durationMs > 60_000
        ? sleep(60_000).then(async () => (memory.afterFirstMinute = await stack!.control.send({ command: 'memory' })))
        : undefined;

    const state = newState();
    const ctx = { call, state, partners, control: stack?.control, record, baseUrl };
    log(`load: ${options.rate} requests/s for ${options.durationMs / 1000} s from ${partners.length} partners${options.faults ? ', with faults' : ''}`);
    const progress = setInterval(() => log(`  ${Math.round(record.now() / 1000)} s: ${record.samples.length} answered`), 15_000);
    const generator = await runOpenModel({ rate: options.rate, durationMs: options.durationMs, record, launch: arrival(ctx) });
    clearInterval(progress);
    await Promise.all(faultRuns);
    await firstMinute;
    if (stack) memory.atEnd = await stack.control.send({ command: 'memory' });
    const runSeconds = options.durationMs / 1000;
    const loadSamples = [...record.samples];

    // The drain: what a busy day leaves to the retries, finished.
    log('drain: lab reports handed again, outbox relayed, webhook retries run');
    if (stack) {
      for (const appointment of state.appointments.filter((a) => a.confirmed && a.reportId && !a.reported)) {
        await stack.control.send({ command: 'ingest', appointmentId: appointment.id, reportId: appointment.reportId! });
        appointment.reported = true;
      }
      // The pipelines follow the events file every 100 ms; first attempts end within their timeout.
      await sleep(3_000);
      await stack.control.send({ command: 'relay' });
      await sleep(3_000);
      // Deliveries a receiver refused wait for their next attempt (5 s, then 5 minutes …): run them now by a later clock.
      for (let round = 0; round < 5; round++) {
        const attempted = await stack.control.send({ command: 'sweepAhead', aheadMs: 24 * 3_600_000 });
        if (attempted === 0 && round > 0) break;
        await sleep(1_000);
      }
    } else {
      await sleep(10_000);
    }

    // The invariants.
    log('invariants');
    // The checks' reads keep to the key's limits as a partner would: a 429 waits its Retry-After.
    const get = async (path: string, partner: Partner) => {
      for (;;) {
        const res = await fetch(`${baseUrl}${path}`, { headers: { 'x-api-key': partner.key }, signal: AbortSignal.timeout(30_000) });
        const type = res.headers.get('content-type') ?? '';
        const json = type.includes('json') ? ((await res.json()) as { [key: string]: unknown }) : (await res.arrayBuffer(), undefined);
        if (res.status !== 429) return { status: res.status, json };
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1_000);
      }
    };
    const answers = checkAnswers(loadSamples, outages);
    const invariants: LoadResult['invariants'] = {
      answers: answers.violations,
      readable: await checkReadable(state.created, get),
      histories: await checkHistories(state, get),
    };
    const counts: LoadResult['counts'] = {
      created: state.created.length,
      appointments: state.appointments.length,
      slotsTouched: new Set(state.touchedSlots.map((s) => `${s.locationId} ${s.start}`)).size,
    };
    if (stack) {
      const table = await stack.control.send({
        command: 'check',
        appointmentIds: state.appointments.map((a) => a.id),
        touchedSlots: state.touchedSlots,
        webhooks: partners.map((p) => ({ webhookId: p.webhookId!, keyId: p.keyId!, eventTypes: [...WEBHOOK_EVENT_TYPES], eventsFrom })),
      });
      invariants.table = table.violations;
      const deliveries = checkDeliveries(
        partners.map((p) => ({ webhookId: p.webhookId!, partner: p.name, receiver: p.receiver })),
        table.expectedDeliveries,
      );
      invariants.webhooks = deliveries.violations;
      Object.assign(counts, {
        slotsChecked: table.slotsChecked,
        seatsHeld: table.seatsHeld,
        confirmedDraws: table.confirmedDraws,
        labOrdersRequested: table.labOrdersRequested,
        outboxLeft: table.outboxLeft,
        webhookEventsDelivered: deliveries.delivered,
        webhookEventsRedelivered: deliveries.redelivered,
      });
    }

    // The soak: the server's memory and p99, first minute against last.
    let soak: LoadResult['soak'];
    if (options.durationMs >= 180_000 && memory.afterFirstMinute && memory.atEnd) {
      const p99Of = (from: number, to: number) =>
        percentile(
          loadSamples
            .filter((s) => s.at >= from && s.at < to && !s.cls.startsWith('lab report'))
            .map((s) => s.ms)
            .sort((a, b) => a - b),
          99,
        );
      const firstMinuteP99 = Math.round(p99Of(0, 60_000) * 10) / 10;
      const lastMinuteP99 = Math.round(p99Of(options.durationMs - 60_000, options.durationMs + 1) * 10) / 10;
      const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
      soak = {
        firstMinuteP99,
        lastMinuteP99,
        p99Ratio: ratio(lastMinuteP99, firstMinuteP99),
        rssRatio: ratio(memory.atEnd.rss, memory.afterFirstMinute.rss),
        heapRatio: ratio(memory.atEnd.heapUsed, memory.afterFirstMinute.heapUsed),
        violations: [],
      };
      if (soak.rssRatio > 1.2) soak.violations.push(`the server's RSS grew ${soak.rssRatio}x from the first minute to the end (limit 1.2x)`);
      if (soak.heapRatio > 1.2) soak.violations.push(`the server's heap grew ${soak.heapRatio}x from the first minute to the end (limit 1.2x)`);
      if (soak.p99Ratio > 1.5) soak.violations.push(`p99 of the last minute is ${soak.p99Ratio}x the first minute's (limit 1.5x)`);
      invariants.soak = soak.violations;
    }

    const ok = Object.values(invariants).every((violations) => violations.length === 0);
    return {
      ok,
      date: new Date().toISOString(),
      commit: commitOf(),
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model ?? 'unknown',
        loadavgStart: loadavgStart.map((n) => Math.round(n * 100) / 100),
        loadavgEnd: loadavg().map((n) => Math.round(n * 100) / 100),
      },
      settings: { durationS: runSeconds, rate: options.rate, faults: options.faults, partners: partners.length, base: options.base ?? null },
      generator,
      classes: figures(loadSamples, runSeconds),
      outages,
      duringOutage: answers.duringOutage,
      invariants,
      counts,
      memory,
      ...(soak ? { soak } : {}),
    };
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
    await stack?.close();
  }
}
