/**
 * `npm run bench`: what a request costs, as ratios against the floor measured in the same run on this
 * machine (absolute times vary by machine and load), printed as one table and written to
 * bench/results.json (committed with the change it measured) with the machine, date, commit and each figure's target (docs/proofs-and-performance.md "Performance"):
 *   1. throughput of GET /profiles/{id} through the local server against a bare handler there (bench/throughput.ts);
 *   2. handler CPU per request, to DynamoDB Local, against bare handlers (bench/handler-cpu.ts);
 *   3. per function: bundle size and cold import time against a bare handler (bench/bundle-figures.ts, bundles.ts);
 *   4. DynamoDB round trips and items read per request of every route, items read / returned on lists (bench/round-trips.ts);
 *   5. latency of the main routes (bench/latency.ts) and the cost of refusing pathological bodies;
 *   6. each stage's synth as DevOps run it, every function bundled, in seconds (bench/synth.ts).
 *
 *   BENCH_REQUESTS=200 BENCH_CONCURRENCY=8 BENCH_THROUGHPUT_REQUESTS=400 BENCH_ROUNDS=5 BENCH_CPU_ITERATIONS=2000 npm run bench
 *   BENCH_ONLY=throughput,cpu,bundles,routes,latency,input,synth   a subset;   BENCH_PROFILE=1   CPU profiles in bench/profiles/
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { apiCaller, BERLIN_MITTE, CARDIOGENETICS_PANEL, ESSENTIALS_PANEL, idOf, labReport, nextWeekday } from './api-client';
import { bundleFigures } from './bundle-figures';
import { measureHandlerCpu } from './handler-cpu';
import { measureLatency } from './latency';
import { type Figure, previousRun, printFigures, writeResults } from './report';
import {
  ADDRESS,
  countAtSdkEdge,
  countRoundTrips,
  slotIn,
  LIST_LIMIT,
  newBarcode,
  PROFILE,
  printRoundTrips,
  roundTripFigures,
  type World,
} from './round-trips';
import { synthFigures } from './synth';
import { measureThroughput } from './throughput';
import { ensureBucket, ensureTable } from '../local/bootstrap';
import { startDynamoDbLocal, startS3Emulator } from '../local/emulators';
import { freePort } from '../local/free-port';

/** The environment before the bench sets the local stack's: the bundle builds get this one. */
const startEnvironment = { ...process.env };

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1`);
  return value;
};
const settings = {
  requests: number('BENCH_REQUESTS', 200),
  concurrency: number('BENCH_CONCURRENCY', 8),
  throughputRequests: number('BENCH_THROUGHPUT_REQUESTS', 400),
  rounds: number('BENCH_ROUNDS', 5),
  cpuIterations: number('BENCH_CPU_ITERATIONS', 2000),
  listSize: number('BENCH_LIST_SIZE', 50),
  exportedAppointments: number('BENCH_EXPORTED_APPOINTMENTS', 200),
};
const only = new Set((process.env.BENCH_ONLY ?? 'throughput,cpu,bundles,routes,latency,input,synth').split(',').map((part) => part.trim()));
const profile = process.env.BENCH_PROFILE === '1';
/** Which part runs now, on stderr: the table comes at the end. */
const progress = (part: string) => console.error(`… ${part} (${Math.round(process.uptime())} s)`);

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadAtStart = loadavg();
  const dataDir = join(tmpdir(), `lab-bench-${process.pid}`);
  const [dynamodb, s3] = await Promise.all([
    startDynamoDbLocal({ port: await freePort() }),
    startS3Emulator({ port: await freePort(), dataDir: join(dataDir, 's3') }),
  ]);
  const figures: Figure[] = [];
  const notes: Record<string, unknown> = {};
  try {
    Object.assign(process.env, {
      TABLE_NAME: 'bench',
      AWS_REGION: 'eu-central-1',
      LOCAL_EVENTS_FILE: join(dataDir, 'events.ndjson'),
      DYNAMODB_ENDPOINT: dynamodb.endpoint,
      S3_ENDPOINT: s3.endpoint,
      DOCUMENTS_BUCKET: 'bench-documents',
      EVENT_BUS_NAME: 'bench',
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
      // This process's own log and metrics lines would fill the table; the measured server and handler write both, as deployed.
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      POWERTOOLS_METRICS_DISABLED: 'true',
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
    });
    await Promise.all([ensureTable(dynamodb.endpoint, 'bench'), ensureBucket(s3.endpoint, 'bench-documents')]);
    const { dynamoClient } = await import('../../shared/store/client');
    const keys = await import('../../shared/store/keys/items');
    const { seedDemoData } = await import('../local/seed');
    const { issueApiKey } = await import('../../shared/auth/api-keys');
    const { SCOPES } = await import('../../shared/domain/scopes');
    const { startLocalApi } = await import('../local/server');
    await seedDemoData();
    const { plaintext: key } = await issueApiKey(
      { name: 'bench', scopes: [...SCOPES], profileGroups: ['demo-clinic'], locationGroups: ['berlin', 'helsinki'] },
      new Date(),
    );
    const counter = countAtSdkEdge(dynamoClient.middlewareStack);
    const api = await startLocalApi(0);
    const call = apiCaller(api.url, key);
    const profileId = idOf(await call('POST', '/api/v1/profiles', PROFILE));
    console.log(
      `npm run bench — ${new Date().toISOString()}, load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} on ${(await import('node:os')).cpus().length} cores`,
    );

    if (only.has('throughput')) progress('throughput');
    if (only.has('throughput')) {
      const measured = await measureThroughput(
        { endpoint: dynamodb.endpoint, table: 'bench', key, profileId, itemKey: keys.profile(profileId) },
        { requests: settings.throughputRequests, rounds: settings.rounds, concurrency: settings.concurrency, profile },
      );
      figures.push(...measured.figures);
      Object.assign(notes, measured.notes);
    }
    if (only.has('cpu')) progress('cpu');
    if (only.has('cpu')) {
      const measured = await measureHandlerCpu({ key, profileId, iterations: settings.cpuIterations, rounds: settings.rounds }, profile);
      figures.push(...measured.figures);
      Object.assign(notes, measured.notes);
    }
    if (only.has('bundles')) progress('bundles');
    if (only.has('bundles')) figures.push(...(await bundleFigures(notes, startEnvironment, number('BENCH_BUNDLES_TIMEOUT_S', 900))));
    if (only.has('routes')) progress('routes');
    if (only.has('routes')) {
      const world = await arrangeWorld(call, settings.listSize);
      const { counts, skipped } = await countRoundTrips(world, counter, process.env.BENCH_VERBOSE === '1' ? (line) => console.error(line) : undefined);
      printRoundTrips(counts, skipped);
      figures.push(...roundTripFigures(counts));
      notes.round_trips = counts;
      notes.round_trips_not_measured = skipped;
      notes.confirm_calls_in_order = counts.find((count) => count.route.endsWith('/confirm'))?.calls;
    }
    if (only.has('latency')) progress('latency');
    if (only.has('latency')) {
      figures.push(
        ...(await measureLatency(
          call,
          { reset: () => void counter.reset(), count: () => counter.current.calls.length },
          { requests: settings.requests, concurrency: settings.concurrency, exportedAppointments: settings.exportedAppointments },
        )),
      );
    }
    await api.close();
    if (only.has('input')) progress('input');
    if (only.has('input')) figures.push(...(await inputCost(key)));
    if (only.has('synth')) progress('synth');
    if (only.has('synth')) figures.push(...(await synthFigures(startEnvironment)));

    const missed = printFigures(figures, previousRun());
    const file = writeResults({ settings: { ...settings, only: [...only].join(','), profile: String(profile) }, figures, notes, startedAt, loadAtStart });
    console.log(`\n${missed === 0 ? 'every target met' : `${missed} target(s) missed`}; written to ${file}`);
  } finally {
    await Promise.all([dynamodb.stop(), s3.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }

  /** A profile with `listSize` appointments, kit orders and access-log entries; a reported appointment; shipments and webhooks. */
  async function arrangeWorld(call: ReturnType<typeof apiCaller>, listSize: number): Promise<World> {
    const fresh: World['fresh'] = {
      profile: async () => idOf(await call('POST', '/api/v1/profiles', PROFILE)),
      async appointment(options = {}) {
        const id = idOf(await call('POST', '/api/v1/appointments', { profile_id: await fresh.profile(), location_id: BERLIN_MITTE, scheduled_at: slotIn(1) }));
        if (options.panels !== false) await call('POST', `/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL] });
        if (options.drawn) await call('POST', `/api/v1/appointments/${id}/confirm`, { barcode: newBarcode() });
        return id;
      },
      shipment: async () =>
        idOf(
          await call('POST', '/api/v1/shipments', {
            location_id: BERLIN_MITTE,
            pickup_date: nextWeekday(),
            pickup_time_from: '10:00',
            pickup_time_till: '12:00',
          }),
        ),
      async kitOrder(options = {}) {
        const id = idOf(await call('POST', '/api/v1/home-kit-orders', { profile_id: await fresh.profile(), delivery_address: ADDRESS }));
        if (options.panels !== false) await call('POST', `/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] });
        if (options.dispatched) await call('POST', `/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: 'TRACK-1234', carrier: 'DHL' });
        return id;
      },
      // A key holds at most 10 subscriptions: the earlier probes' go first.
      async webhook() {
        const existing = (await call('GET', '/api/v1/webhooks')).json as { id: string }[];
        for (const { id } of existing) await call('DELETE', `/api/v1/webhooks/${id}`);
        return idOf(await call('POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', event_types: ['ShipmentStatusChanged'] }));
      },
      // The lab's report for a barcode no order holds, stored by the ingest in process (as the reported appointment's).
      async unmatched() {
        const { ingestLabReport } = await import('../../shared/usecases/ingest-lab-report');
        const { unmatchedIdOf } = await import('../../shared/usecases/keep-unmatched-result');
        const detail = { ...labReport(''), appointment_id: undefined, barcode: newBarcode(), patient: { name: 'Mark, Bench', date_of_birth: '1980-01-01' } };
        await ingestLabReport(detail, new Date());
        return unmatchedIdOf(detail.event_id);
      },
    };
    if (process.env.BENCH_VERBOSE === '1') console.error('arranging the lists');
    const listedProfile = idOf(await call('POST', '/api/v1/profiles', PROFILE));
    for (let i = 0; i < listSize; i++) {
      await call('POST', '/api/v1/appointments', { profile_id: listedProfile, location_id: BERLIN_MITTE, scheduled_at: slotIn(1 + i / 24) });
      await call('POST', '/api/v1/home-kit-orders', { profile_id: listedProfile, delivery_address: ADDRESS });
      await call('GET', `/api/v1/profiles/${listedProfile}`);
      await fresh.shipment();
    }
    // The reported appointment: drawn, the lab's results and one PDF document (uploaded as the lab does).
    const appointmentId = await fresh.appointment({ drawn: true });
    const { s3: documents } = await import('../../shared/documents/s3');
    const incoming = `incoming/${randomUUID()}.pdf`;
    await documents.send(
      new PutObjectCommand({ Bucket: 'bench-documents', Key: incoming, Body: Buffer.from('%PDF-1.4\n%%EOF\n'), ContentType: 'application/pdf' }),
    );
    const { ingestLabReport } = await import('../../shared/usecases/ingest-lab-report');
    await ingestLabReport(labReport(appointmentId, [{ s3_key: incoming, file_name: 'report.pdf', content_type: 'application/pdf' }]), new Date());
    const results = (await call('GET', `/api/v1/appointments/${appointmentId}/results`)).json as { documents?: { id: string }[] };
    const documentId = results.documents?.[0]?.id ?? '';
    console.log(`\narranged: a profile with ${listSize} appointments, kit orders and reads; ${listSize} shipments; lists also asked with limit=${LIST_LIMIT}`);
    return { call, listedProfile, reported: { appointmentId, documentId }, fresh, barcode: newBarcode };
  }
}

/** The bodies that cost the most to refuse, each refused by its handler in process: median of 5 runs. */
async function inputCost(key: string): Promise<Figure[]> {
  const { measureRefusal, pathologicalBodies } = await import('../local/pathological-bodies');
  const section = 'pathological bodies, refused by the handler in process (median of 5)';
  const figures: Figure[] = [];
  for (const body of pathologicalBodies()) {
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await measureRefusal(body, key));
    const median = (values: number[]) => values.sort((a, b) => a - b)[2] ?? 0;
    figures.push(
      {
        section,
        name: `${body.name}: ${runs[0]?.status} in`,
        value: median(runs.map((run) => run.milliseconds)),
        unit: 'ms',
        target: { kind: 'max', limit: 50 },
      },
      { section, name: `${body.name}: extra memory`, value: median(runs.map((run) => run.extraMegabytes)), unit: 'MB', target: { kind: 'max', limit: 20 } },
    );
  }
  return figures;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
