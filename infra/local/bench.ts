/**
 * `npm run bench`: latency and DynamoDB round trips per request of the main routes, measured through the
 * local HTTP server against DynamoDB Local. Figures are for comparing changes on one machine, not SLAs:
 * the round-trip counts are exact, the milliseconds depend on the emulator.
 *
 *   BENCH_REQUESTS=200 BENCH_CONCURRENCY=8 npm run bench
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable } from './bootstrap';
import { startDynamoDbLocal } from './emulators';
import { freePort } from './free-port';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

/** A weekday at least two days ahead: always a valid pickup date, whatever the hour in Berlin. */
function nextWeekday(): string {
  const day = new Date(Date.now() + 2 * 86_400_000);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const dynamodb = await startDynamoDbLocal({ port: await freePort() });
  try {
    Object.assign(process.env, {
      TABLE_NAME: 'bench',
      AWS_REGION: 'eu-central-1',
      LOCAL_EVENTS_FILE: join(tmpdir(), `lab-bench-events-${process.pid}.ndjson`),
      DYNAMODB_ENDPOINT: dynamodb.endpoint,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
      // Loaded by the lab report ingest (the export's results); its reports carry no file, so S3 is never called.
      DOCUMENTS_BUCKET: 'bench',
    });
    await ensureTable(dynamodb.endpoint, 'bench');
    const { dynamo } = await import('../../shared/store/client');
    const { seedDemoData } = await import('./seed');
    const { issueApiKey } = await import('../../shared/auth/api-keys');
    const { SCOPES } = await import('../../shared/auth/scopes');
    const { startLocalApi } = await import('./server');
    await seedDemoData();
    const { plaintext: key } = await issueApiKey(
      { name: 'bench', scopes: [...SCOPES], profileGroups: ['demo-clinic'], locationGroups: ['berlin', 'helsinki'] },
      new Date(),
    );

    let roundTrips = 0;
    dynamo.middlewareStack.add((next) => (args) => ((roundTrips += 1), next(args)), { step: 'initialize', name: 'benchCounter' });

    const api = await startLocalApi(0);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as { id?: string };
      if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}`);
      return json;
    };
    const profile = { profile_group_slug: 'demo-clinic', first_name: 'Bench', last_name: 'Mark', date_of_birth: '1980-01-01' };
    const { id } = await call('POST', '/api/v1/profiles', profile);

    let barcodes = 0;
    const scheduleAppointment = async (drawn: boolean, profileId = id) => {
      const appointment = await call('POST', '/api/v1/appointments', {
        profile_id: profileId,
        location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
        scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
      });
      await call('POST', `/api/v1/appointments/${appointment.id}/panels`, { panel_ids: ['7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b01'] });
      if (drawn) await call('POST', `/api/v1/appointments/${appointment.id}/confirm`, { barcode: `BENCH-${(barcodes += 1)}` });
      return appointment.id as string;
    };
    /** Requests that change state get their own appointments, made before the clock starts. */
    const appointments = (drawn: boolean) => () => Promise.all(Array.from({ length: REQUESTS + 1 }, () => scheduleAppointment(drawn)));

    /** A person with EXPORTED_APPOINTMENTS drawn appointments, each with the lab's results for its 4 tests. */
    const { ingestLabReport } = await import('../../shared/usecases/ingest-lab-report');
    const EXPORTED_APPOINTMENTS = 200;
    let exportBytes = 0;
    const personWithAppointments = async () => {
      const person = await call('POST', '/api/v1/profiles', profile);
      await Promise.all(
        Array.from({ length: EXPORTED_APPOINTMENTS }, async () => {
          const appointmentId = await scheduleAppointment(true, person.id);
          const result = (biomarker_id: number) => ({
            biomarker_id,
            value: 4.2,
            value_operator: 'eq' as const,
            unit_id: 1,
            unit: 'mmol/L',
            reference_range_lab: { normal_min: 1, normal_max: 10, optimal_min: null, optimal_max: null },
            tested_at: '2026-11-20',
            comment: null,
          });
          const [event_id, reported_at] = [randomUUID(), new Date().toISOString()];
          const report = {
            event_id,
            appointment_id: appointmentId,
            reported_at,
            clinical_results: [1, 2, 5, 6].map(result),
            genetic_results: [],
            documents: [],
          };
          await ingestLabReport(report, new Date());
        }),
      );
      return [person.id as string];
    };

    interface Scenario {
      name: string;
      /** Fewer requests, or fewer at a time, than the other routes: for a route that is itself many reads. */
      requests?: number;
      concurrency?: number;
      prepare?: () => Promise<string[]>;
      run: (input: string | undefined) => Promise<unknown>;
    }
    const scenarios: Scenario[] = [
      { name: 'GET /api/v1/locations', run: () => call('GET', '/api/v1/locations') },
      { name: 'POST /api/v1/profiles', run: () => call('POST', '/api/v1/profiles', profile) },
      { name: 'GET /api/v1/profiles/{id}', run: () => call('GET', `/api/v1/profiles/${id}`) },
      { name: 'PATCH /api/v1/profiles/{id}', run: () => call('PATCH', `/api/v1/profiles/${id}`, { language: 'de' }) },
      { name: 'GET /api/v1/biomarkers', run: () => call('GET', '/api/v1/biomarkers') },
      {
        name: 'POST /api/v1/shipments',
        run: () =>
          call('POST', '/api/v1/shipments', {
            location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
            pickup_date: nextWeekday(),
            pickup_time_from: '10:00',
            pickup_time_till: '12:00',
          }),
      },
      { name: 'GET /api/v1/shipments (2 groups)', run: () => call('GET', '/api/v1/shipments') },
      {
        name: 'GET …/{id}/results',
        prepare: async () => [await scheduleAppointment(true)],
        run: (appointmentId) => call('GET', `/api/v1/appointments/${appointmentId}/results`),
      },
      {
        name: 'GET /api/v1/appointments/{id}',
        prepare: async () => [await scheduleAppointment(false)],
        run: (appointmentId) => call('GET', `/api/v1/appointments/${appointmentId}`),
      },
      {
        name: 'POST …/{id}/confirm',
        prepare: appointments(false),
        run: (appointmentId) => call('POST', `/api/v1/appointments/${appointmentId}/confirm`, { barcode: `BENCH-${(barcodes += 1)}` }),
      },
      {
        name: 'POST …/pickup (1 id)',
        prepare: appointments(true),
        run: (appointmentId) => call('POST', '/api/v1/appointments/pickup', { appointment_ids: [appointmentId] }),
      },
      {
        name: `GET /profiles/{id}/export (${EXPORTED_APPOINTMENTS} appointments)`,
        requests: 20,
        concurrency: 1,
        prepare: personWithAppointments,
        run: async (profileId) => {
          const res = await fetch(`${api.url}/api/v1/profiles/${profileId}/export`, { headers: { 'x-api-key': key } });
          if (res.status !== 200) throw new Error(`GET /profiles/{id}/export answered ${res.status}`);
          exportBytes = (await res.arrayBuffer()).byteLength;
        },
      },
    ];

    console.log(`${REQUESTS} requests per route, ${CONCURRENCY} at a time, API key lookups cached after the first\n`);
    console.log('route'.padEnd(32), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'req/s'.padStart(8), 'DynamoDB calls/req'.padStart(20));
    for (const scenario of scenarios) {
      const inputs = (await scenario.prepare?.()) ?? [];
      const requests = scenario.requests ?? REQUESTS;
      const input = (i: number) => inputs[inputs.length === 1 ? 0 : i];
      await scenario.run(input(requests)); // warm the handler module and the key cache
      roundTrips = 0;
      const durations: number[] = [];
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: scenario.concurrency ?? CONCURRENCY }, async () => {
          while (next < requests) {
            const i = next;
            next += 1;
            const t0 = performance.now();
            await scenario.run(input(i));
            durations.push(performance.now() - t0);
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      durations.sort((a, b) => a - b);
      console.log(
        scenario.name.padEnd(32),
        percentile(durations, 50).toFixed(1).padStart(8),
        percentile(durations, 95).toFixed(1).padStart(8),
        (durations.length / elapsed).toFixed(0).padStart(8),
        (roundTrips / durations.length).toFixed(2).padStart(20),
      );
    }
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    console.log(
      `\nthe export (20 requests, one at a time) of ${EXPORTED_APPOINTMENTS} appointments: ${kb(exportBytes)} KB, ${kb(exportBytes / EXPORTED_APPOINTMENTS)} KB per appointment`,
    );
    await api.close();
    await reportInputCost(key);
  } finally {
    await dynamodb.stop();
    rmSync(process.env.LOCAL_EVENTS_FILE ?? '', { force: true });
  }
}

/** The bodies that cost the most to refuse, each refused by its handler in process: median of 5 runs. */
async function reportInputCost(key: string): Promise<void> {
  const { measureRefusal, pathologicalBodies } = await import('./pathological-bodies');
  console.log('\npathological bodies, refused by the handler in process (targets: < 50 ms, < 20 MB)');
  console.log('body'.padEnd(38), 'status'.padStart(6), 'ms'.padStart(8), 'MB'.padStart(6));
  for (const body of pathologicalBodies()) {
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await measureRefusal(body, key));
    const median = (values: number[]) => values.sort((a, b) => a - b)[2] ?? 0;
    const ms = median(runs.map((run) => run.milliseconds));
    const mb = median(runs.map((run) => run.extraMegabytes));
    console.log(body.name.padEnd(38), String(runs[0]?.status).padStart(6), ms.toFixed(1).padStart(8), mb.toFixed(1).padStart(6));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
