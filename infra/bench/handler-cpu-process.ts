/**
 * Handler CPU per request, in a process of its own (forked by bench/handler-cpu.ts) so that nothing else
 * runs on its thread: the real GET /api/v1/profiles/{id} handler (bundled as deployed: bench/handler-cpu-subjects.ts)
 * invoked with an API Gateway event, beside
 * a bare handler that only does the GetItem through the same client and answers its JSON, and a bare one
 * with the GetItem + PutItem the route makes (bench/floor-handlers.ts). Every call goes to DynamoDB Local
 * over loopback, through the SDK's own HTTP handler, as a deployed function's calls go to DynamoDB: this
 * process's CPU is what it spends building, signing, sending, receiving and parsing them; DynamoDB Local's
 * is its own process's.
 *
 * Not a stub: a floor that sends nothing skips the system calls every real call makes, which on some
 * machines cost more than our code does (docs/proofs-and-performance.md "Handler CPU").
 */
import { setImmediate } from 'node:timers/promises';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

export interface CpuInput {
  /** The module that exports the subjects (bench/handler-cpu-subjects.ts, or its bundle): a file URL. */
  subjects: string;
  key: string;
  profileId: string;
  iterations: number;
  rounds: number;
}

export interface CpuResult {
  /** CPU microseconds per request, per round. */
  handler: number[];
  bareGet: number[];
  bareGetPut: number[];
  /** The harness alone (an invocation that answers at once): taken off the others before a ratio. */
  empty: number[];
}

const input = await new Promise<CpuInput>((resolveInput) => process.once('message', (message: CpuInput) => resolveInput(message)));
type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const { handler, bareGet, bareGetPut } = (await import(input.subjects)) as Record<'handler' | 'bareGet' | 'bareGetPut', Handler>;

const context = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: 'lab-api-bench-getProfile',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-central-1:000000000000:function:lab-api-bench-getProfile',
  memoryLimitInMB: '256',
  awsRequestId: '',
  logGroupName: '/aws/lambda/lab-api-bench-getProfile',
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} satisfies Context;

/** An event as API Gateway's REST proxy integration sends it (its usual headers included). */
function apiGatewayEvent(n: number): APIGatewayProxyEvent {
  const headers = {
    Accept: '*/*',
    Host: 'abc123.execute-api.eu-central-1.amazonaws.com',
    'User-Agent': 'curl/8.5.0',
    'X-Amzn-Trace-Id': `Root=1-67891233-${n.toString(16).padStart(24, '0')}`,
    'X-Forwarded-For': '203.0.113.7',
    'X-Forwarded-Port': '443',
    'X-Forwarded-Proto': 'https',
    'x-api-key': input.key,
  };
  const path = `/api/v1/profiles/${input.profileId}`;
  return {
    resource: '/api/v1/profiles/{id}',
    path,
    httpMethod: 'GET',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { id: input.profileId },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'abc123',
      authorizer: undefined,
      protocol: 'HTTP/1.1',
      httpMethod: 'GET',
      identity: { sourceIp: '203.0.113.7', userAgent: 'curl/8.5.0' } as APIGatewayProxyEvent['requestContext']['identity'],
      path: `/prod${path}`,
      stage: 'prod',
      requestId: `bench-${n}`,
      requestTimeEpoch: Date.now(),
      resourceId: 'abc123',
      resourcePath: '/api/v1/profiles/{id}',
    },
  };
}

let n = 0;
const invoke = async (fn: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>) => {
  n += 1;
  const result = await fn(apiGatewayEvent(n), { ...context, awsRequestId: `bench-${n}` });
  if (result.statusCode !== 200) throw new Error(`the handler answered ${result.statusCode}`);
};

/** CPU microseconds used by `count` sequential requests, and what they left behind. */
async function cpuOf(fn: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>, count: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await invoke(fn);
  // A turn of the event loop: what the requests left behind (their sockets' callbacks, promises resolved
  // after the answer) runs in this window.
  await setImmediate();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

/**
 * The harness alone: an invocation that answers at once. What it costs per request (the event built, the
 * two `process.cpuUsage()` system calls, the turn of the event loop) is in every subject's figure alike, and
 * is taken off each before a ratio (bench/handler-cpu.ts): a constant added to both sides would pull the
 * ratio toward 1.
 */
const empty = async (): Promise<APIGatewayProxyResult> => ({ statusCode: 200, headers: {}, body: '' });

/** The subjects in a random order: none always runs right after the same other one. */
function shuffled<T>(items: readonly T[]): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * A round interleaves the subjects request by request, in a new random order for every request, each timed
 * alone: a drift of the machine or of DynamoDB Local hits all alike, down to the millisecond, so the round's
 * ratio is a paired comparison. In blocks of 200 requests (until 99c2a52) nine runs gave 1.07–1.23×; request
 * by request, with the harness taken off, three gave 1.14–1.20× (docs/proofs-and-performance.md "Handler CPU").
 */
const subjects = { handler, bareGet, bareGetPut, empty };
const entries = Object.entries(subjects) as [keyof CpuResult, (typeof subjects)[keyof typeof subjects]][];
for (const [, fn] of entries) await cpuOf(fn, input.iterations); // warm-up: every path JIT-compiled
const result: CpuResult = { handler: [], bareGet: [], bareGetPut: [], empty: [] };
for (let round = 0; round < input.rounds; round++) {
  const used: Record<keyof CpuResult, number> = { handler: 0, bareGet: 0, bareGetPut: 0, empty: 0 };
  for (let i = 0; i < input.iterations; i++) {
    for (const [name, fn] of shuffled(entries)) used[name] += await cpuOf(fn, 1);
  }
  for (const [name] of entries) result[name].push(used[name] / input.iterations);
}
process.send?.(result, () => process.exit(0));
