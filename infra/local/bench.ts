/**
 * `npm run bench`: latency and DynamoDB round trips per request of the main routes, measured through the
 * local HTTP server against DynamoDB Local. Figures are for comparing changes on one machine, not SLAs:
 * the round-trip counts are exact, the milliseconds depend on the emulator.
 *
 *   BENCH_REQUESTS=200 BENCH_CONCURRENCY=8 npm run bench
 */
import { ensureTable } from './bootstrap';
import { startDynamoDbLocal } from './emulators';
import { freePort } from './free-port';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const dynamodb = await startDynamoDbLocal({ port: await freePort() });
  try {
    Object.assign(process.env, {
      TABLE_NAME: 'bench',
      DYNAMODB_ENDPOINT: dynamodb.endpoint,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
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

    const scenarios: [string, () => Promise<unknown>][] = [
      ['GET /api/v1/locations', () => call('GET', '/api/v1/locations')],
      ['POST /api/v1/profiles', () => call('POST', '/api/v1/profiles', profile)],
      ['GET /api/v1/profiles/{id}', () => call('GET', `/api/v1/profiles/${id}`)],
      ['PATCH /api/v1/profiles/{id}', () => call('PATCH', `/api/v1/profiles/${id}`, { language: 'de' })],
      ['GET /api/v1/biomarkers', () => call('GET', '/api/v1/biomarkers')],
    ];

    console.log(`${REQUESTS} requests per route, ${CONCURRENCY} at a time, API key lookups cached after the first\n`);
    console.log('route'.padEnd(30), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'req/s'.padStart(8), 'DynamoDB calls/req'.padStart(20));
    for (const [name, scenario] of scenarios) {
      await scenario(); // warm the handler module and the key cache
      roundTrips = 0;
      const durations: number[] = [];
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < REQUESTS) {
            next += 1;
            const t0 = performance.now();
            await scenario();
            durations.push(performance.now() - t0);
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      durations.sort((a, b) => a - b);
      console.log(
        name.padEnd(30),
        percentile(durations, 50).toFixed(1).padStart(8),
        percentile(durations, 95).toFixed(1).padStart(8),
        (durations.length / elapsed).toFixed(0).padStart(8),
        (roundTrips / durations.length).toFixed(2).padStart(20),
      );
    }
    await api.close();
  } finally {
    await dynamodb.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
