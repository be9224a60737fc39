/**
 * Throughput of GET /api/v1/profiles/{id} through the local server, beside its floors at the same
 * concurrency on the same DynamoDB Local. The target's floor is a bare handler making the route's two
 * calls (the GetItem and the access-log PutItem, docs/privacy.md "Privacy": an audited read writes its
 * entry in the request), served by the same local server (bench/floor-handlers.ts): both cross the same
 * HTTP hop, which API Gateway makes in AWS, so the ratio is what our code costs. Beside it, without a
 * target, the same calls made raw by this process (GetItem alone, and GetItem + PutItem): those charge the
 * local hop to the route too. After a warm-up, each round interleaves the four in blocks (BLOCKS, below), so
 * a change in the machine's load hits all alike; each ratio is the median of the rounds' ratios.
 *
 * The server runs in a process of its own (bench/server-process.ts), as `npm start` does, logging at INFO
 * as deployed; BENCH_PROFILE=1 runs it under `node --cpu-prof` and leaves the profile in bench/profiles/.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from '../../shared/store/keys';
import { accessLogPut } from './access-log-put';
import { FLOOR_ROUTE } from './floor-route';
import { median, type Figure } from './report';

const here = dirname(fileURLToPath(import.meta.url));

export interface ThroughputSettings {
  requests: number;
  rounds: number;
  concurrency: number;
  profile: boolean;
}

export interface ThroughputInput {
  endpoint: string;
  table: string;
  key: string;
  profileId: string;
  /** The profile's item key, as the route reads it. */
  itemKey: ItemKey;
}

/** `requests` calls of `call`, `concurrency` at a time: the seconds they took. */
async function secondsFor(requests: number, concurrency: number, call: () => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        await call();
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * A round runs each side's requests in BLOCKS blocks, the four sides taking turns block by block (the
 * order turning with every block), so that a change in the machine's load within the round hits all four
 * alike; a side's rate is its requests over the time of its blocks.
 */
const BLOCKS = 4;

async function startServerProcess(profile: boolean): Promise<{ url: string; stop(): Promise<void> }> {
  const profileDir = resolve(here, '../../bench/profiles');
  const child = fork(join(here, 'server-process.ts'), [], {
    execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_SERVICE_NAME: 'lab-api' },
    // Its log lines go nowhere, as a Lambda's go to CloudWatch: their cost is in the figure, not on the screen.
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.once('message', (message: { url: string }) => resolveUrl(message.url));
    child.once('exit', (code) => reject(new Error(`the bench's server process exited with code ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolveStop) => {
        child.once('exit', () => resolveStop());
        child.disconnect();
      }),
  };
}

export async function measureThroughput(input: ThroughputInput, settings: ThroughputSettings): Promise<{ figures: Figure[]; notes: Record<string, unknown> }> {
  const server = await startServerProcess(settings.profile);
  const agent = new Agent({ keepAlive: true, maxSockets: settings.concurrency });
  const { hostname, port } = new URL(server.url);
  const get = (path: string) => () =>
    new Promise<void>((resolveCall, reject) => {
      const req = request({ agent, hostname, port, path, headers: { 'x-api-key': input.key } }, (res) => {
        res.resume();
        res.once('end', () => (res.statusCode === 200 ? resolveCall() : reject(new Error(`GET ${path} answered ${res.statusCode}`))));
      });
      req.once('error', reject);
      req.end();
    });
  const getProfile = get(`/api/v1/profiles/${input.profileId}`);
  const floorGetProfile = get(FLOOR_ROUTE.route.path.replace('{id}', input.profileId));

  // A client as the app's (shared/store/client.ts): the document client, the SDK's default keep-alive agent.
  const raw = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: input.endpoint, region: 'eu-central-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const rawGet = async () => {
    const { Item } = await raw.send(new GetCommand({ TableName: input.table, Key: input.itemKey, ConsistentRead: true }));
    if (!Item) throw new Error('the profile item is missing');
  };
  // The access-log entry the route writes: its key, size and condition (shared/store/access-log.ts).
  const rawGetPut = async () => {
    await rawGet();
    await raw.send(accessLogPut(input.table, input.profileId, randomUUID()));
  };

  try {
    const { requests, concurrency } = settings;
    // Warm-up: the handler module, the key cache, the JITs of both processes and of DynamoDB Local.
    for (const call of [getProfile, floorGetProfile, rawGet, rawGetPut]) await secondsFor(requests, concurrency, call);
    const rounds: { api: number; floor: number; get: number; getPut: number }[] = [];
    const order = [
      ['api', getProfile],
      ['floor', floorGetProfile],
      ['get', rawGet],
      ['getPut', rawGetPut],
    ] as const;
    const perBlock = Math.max(concurrency, Math.round(requests / BLOCKS));
    for (let round = 0; round < settings.rounds; round++) {
      const seconds = { api: 0, floor: 0, get: 0, getPut: 0 };
      for (let block = 0; block < BLOCKS; block++) {
        // The order turns every block, so no side always runs right after the same other one.
        for (let i = 0; i < order.length; i++) {
          const [name, call] = order[(i + block + round) % order.length] as (typeof order)[number];
          seconds[name] += await secondsFor(perBlock, concurrency, call);
        }
      }
      const rateOf = (name: keyof typeof seconds) => (perBlock * BLOCKS) / seconds[name];
      rounds.push({ api: rateOf('api'), floor: rateOf('floor'), get: rateOf('get'), getPut: rateOf('getPut') });
    }
    const section = `throughput: GET /api/v1/profiles/{id} through the local server, ${concurrency} at a time, ${settings.rounds} rounds × ${requests}`;
    return {
      figures: [
        {
          section,
          name: 'API / bare GetItem + PutItem handler, same server',
          value: median(rounds.map((r) => r.api / r.floor)),
          unit: '×',
          target: { kind: 'min', limit: 0.9 },
          note: 'issue #33: what our code costs, the local HTTP hop on both sides',
        },
        {
          section,
          name: 'API / raw GetItem (req/s ÷ req/s)',
          value: median(rounds.map((r) => r.api / r.get)),
          unit: '×',
          note: 'no target: the route also writes an access-log item per read, which this floor does not',
        },
        {
          section,
          name: 'API / raw GetItem + PutItem (the route’s calls)',
          value: median(rounds.map((r) => r.api / r.getPut)),
          unit: '×',
          note: 'no target: charges the local HTTP hop, which API Gateway makes in AWS, to the route',
        },
        { section, name: 'API req/s (median round)', value: median(rounds.map((r) => r.api)), unit: 'req/s' },
        { section, name: 'bare GetItem + PutItem handler, same server, req/s', value: median(rounds.map((r) => r.floor)), unit: 'req/s' },
        { section, name: 'raw GetItem req/s', value: median(rounds.map((r) => r.get)), unit: 'req/s' },
        { section, name: 'raw GetItem + PutItem req/s', value: median(rounds.map((r) => r.getPut)), unit: 'req/s' },
      ],
      notes: {
        throughput_rounds: rounds.map((r) => ({ api: Math.round(r.api), floor: Math.round(r.floor), get: Math.round(r.get), get_put: Math.round(r.getPut) })),
      },
    };
  } finally {
    agent.destroy();
    raw.destroy();
    await server.stop();
  }
}
