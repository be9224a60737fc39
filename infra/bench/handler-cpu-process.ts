/**
 * Handler CPU per request, in a process of its own (forked by bench/handler-cpu.ts) so that nothing else
 * runs on its thread: the real GET /api/v1/profiles/{id} handler invoked with an API Gateway event, beside
 * a bare handler that only does the GetItem through the same client and answers its JSON (and a bare one
 * with the GetItem + PutItem the route makes). DynamoDB is answered by a stub, an SDK middleware on the app's
 * client where the HTTP handler would be called (below retries, signing and the deserializer) that returns a
 * canned HTTP response, so the SDK's serializing, signing and parsing are measured and the network is not.
 * The key cache is warmed against the real DynamoDB Local first; the stub then answers GetItem with the
 * real profile item (the key's lookup with the key's item) and PutItem with `{}`.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { accessLogPut } from './api-client';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

export interface CpuInput {
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
}

const input = await new Promise<CpuInput>((resolveInput) => process.once('message', (message: CpuInput) => resolveInput(message)));
const { handler } = (await import('../../functions/profiles/get')) as {
  handler: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
};
const { dynamo, tableName } = await import('../../shared/store/client');
const { keys } = await import('../../shared/store/keys');
const { config } = await import('../../shared/config');
const { hashApiKey } = await import('../../shared/auth/api-keys');

const itemKey = keys.profile(input.profileId);
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

const bareGet = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.profile(event.pathParameters?.id ?? ''), ConsistentRead: true }));
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(Item) };
};

const bareGetPut = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
  const answer = await bareGet(event);
  await dynamo.send(accessLogPut(tableName, input.profileId, event.requestContext.requestId));
  return answer;
};

// Warm the key cache (and the handler) against the real DynamoDB Local, then read the item the stub answers with.
let n = 0;
const invoke = async (fn: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>) => {
  n += 1;
  const result = await fn(apiGatewayEvent(n), { ...context, awsRequestId: `bench-${n}` });
  if (result.statusCode !== 200) throw new Error(`the handler answered ${result.statusCode}`);
};
await invoke(handler);
const lowLevel = new DynamoDBClient({
  endpoint: config.dynamodbEndpoint,
  region: config.region,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const stored = async ({ PK, SK }: { PK: string; SK: string }) =>
  (await lowLevel.send(new GetItemCommand({ TableName: tableName, Key: { PK: { S: PK }, SK: { S: SK } }, ConsistentRead: true }))).Item;
const keyItemKey = keys.apiKey(hashApiKey(input.key));
const [profileItem, keyItem] = [await stored(itemKey), await stored(keyItemKey)];
lowLevel.destroy();
if (!profileItem || !keyItem) throw new Error('the profile or API key item is missing');

const answers: Record<string, Uint8Array> = {
  GetItemCommand: Buffer.from(JSON.stringify({ Item: profileItem })),
  PutItemCommand: Buffer.from('{}'),
};
// The key's item too, for the lookup that follows when the key cache expires (60 s) in a long run: the
// profile in its place would answer 403.
const keyAnswer = Buffer.from(JSON.stringify({ Item: keyItem }));
dynamo.middlewareStack.add(
  (_next, handlerContext) => async (args) => {
    const asksForKey = handlerContext.commandName === 'GetItemCommand' && String((args.request as { body?: unknown }).body).includes(keyItemKey.PK);
    const body = asksForKey ? keyAnswer : answers[handlerContext.commandName ?? ''];
    if (!body) throw new Error(`the bench's DynamoDB stub has no answer for ${handlerContext.commandName}`);
    return { response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body }, output: undefined as never };
  },
  // Innermost (the deserialize step, below the SDK's own deserializer): everything up to the wire runs,
  // retries and signing included, and the canned bytes are parsed as DynamoDB's would be. At the
  // finalizeRequest step the stub would also skip that parsing, which every real call pays.
  { step: 'deserialize', priority: 'low', name: 'benchDynamoStub' },
);

/** CPU microseconds per request over `iterations` sequential requests. */
async function cpuPerRequest(fn: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < input.iterations; i++) await invoke(fn);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / input.iterations;
}

const subjects = { handler, bareGet, bareGetPut };
for (const fn of Object.values(subjects)) await cpuPerRequest(fn); // warm-up: every path JIT-compiled
const result: CpuResult = { handler: [], bareGet: [], bareGetPut: [] };
for (let round = 0; round < input.rounds; round++) {
  for (const [name, fn] of Object.entries(subjects)) result[name as keyof CpuResult].push(await cpuPerRequest(fn));
}
process.send?.(result, () => process.exit(0));
