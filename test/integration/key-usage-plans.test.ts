/**
 * A key's place in API Gateway's usage plans (infra/local/key-usage-plans.ts), as the keys CLI writes it
 * for a deployed stage. API Gateway cannot run here: a loopback HTTP server answers as its REST API does
 * (the SDK's real requests: method, path, query and JSON body), and the tests read what it was asked.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { afterAll, beforeAll, beforeEach, describe, expect, it, inject } from 'vitest';
import { registerKeyUsage, removeKeyUsage } from '../../infra/local/key-usage-plans';
import { ensureTable } from '../../infra/local/bootstrap';

interface Asked {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

const STAGE_PLAN = 'stageplan1';
const API_STAGES = [{ apiId: 'a1b2c3d4e5', stage: 'prod' }];
let asked: Asked[] = [];
/** The gateway's keys, by name: what GetApiKeys finds. */
let gatewayKeys: { id: string; name: string }[] = [];
let failCreateApiKey = false;
let server: Server;
let endpoint: string;

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** API Gateway's answers to the calls the module makes (its REST API's JSON: lists under `item`). */
function answer(method: string, path: string, body: unknown): [number, unknown] {
  if (method === 'GET' && path === `/usageplans/${STAGE_PLAN}`) return [200, { id: STAGE_PLAN, name: 'LabApi-prod keys', apiStages: API_STAGES }];
  if (method === 'POST' && path === '/usageplans') return [201, { id: 'ownplan1', name: (body as { name: string }).name }];
  if (method === 'POST' && path === '/apikeys') {
    if (failCreateApiKey) return [400, { message: 'API key value already exists' }];
    return [201, { id: 'gwkey1', name: (body as { name: string }).name, enabled: true }];
  }
  if (method === 'POST' && /^\/usageplans\/\w+\/keys$/.test(path)) return [201, { id: 'gwkey1', type: 'API_KEY' }];
  if (method === 'GET' && path === '/apikeys') return [200, { item: gatewayKeys }];
  if (method === 'GET' && path === '/usageplans') return [200, { item: [{ id: 'ownplan1', name: gatewayKeys[0]?.name, apiStages: API_STAGES }] }];
  if (method === 'DELETE' || method === 'PATCH') return [method === 'DELETE' ? 202 : 200, {}];
  return [404, { message: `not faked: ${method} ${path}` }];
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body = await bodyOf(request);
    const method = request.method ?? 'GET';
    asked.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    const [status, json] = answer(method, url.pathname, body);
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  asked = [];
  gatewayKeys = [];
  failCreateApiKey = false;
});

const client = () => new APIGatewayClient({ endpoint, region: 'eu-central-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
const shapes = () => asked.map(({ method, path }) => `${method} ${path}`);

describe('registering a key with the gateway', () => {
  it("puts a key without limits of its own into the stage's usage plan, under its usage identifier", async () => {
    await registerKeyUsage(client(), { keyId: 'key_0123456789abcdef', usagePlanId: STAGE_PLAN, limits: null });
    expect(shapes()).toEqual(['POST /apikeys', `POST /usageplans/${STAGE_PLAN}/keys`]);
    expect(asked[0]!.body).toEqual({
      name: 'key_0123456789abcdef',
      description: 'Usage identifier of lab API key key_0123456789abcdef: counts its requests, is no credential',
      enabled: true,
      value: 'lab-usage-key_0123456789abcdef',
    });
    expect(asked[1]!.body).toEqual({ keyId: 'gwkey1', keyType: 'API_KEY' });
  });

  it("gives a key with limits of its own a usage plan of its own on the stage's API stages, with its rate, burst and daily quota", async () => {
    await registerKeyUsage(client(), { keyId: 'key_own', usagePlanId: STAGE_PLAN, limits: { rate_limit: 2, burst: 4, daily_quota: 1000 } });
    expect(shapes()).toEqual([`GET /usageplans/${STAGE_PLAN}`, 'POST /usageplans', 'POST /apikeys', 'POST /usageplans/ownplan1/keys']);
    expect(asked[1]!.body).toEqual({
      name: 'key_own',
      description: 'Limits of lab API key key_own only',
      apiStages: API_STAGES,
      throttle: { rateLimit: 2, burstLimit: 4 },
      quota: { limit: 1000, period: 'DAY' },
    });
  });

  it('leaves the quota out of a plan of its own when the key has no daily quota', async () => {
    await registerKeyUsage(client(), { keyId: 'key_own', usagePlanId: STAGE_PLAN, limits: { rate_limit: 2, burst: 4, daily_quota: null } });
    expect(asked[1]!.body).not.toHaveProperty('quota');
  });
});

describe('removing a key from the gateway', () => {
  it('deletes its API Gateway key, then detaches its own plan from the API stages and deletes it', async () => {
    gatewayKeys = [{ id: 'gwkey1', name: 'key_own' }];
    await removeKeyUsage(client(), 'key_own');
    expect(shapes()).toEqual(['GET /apikeys', 'GET /usageplans', 'DELETE /apikeys/gwkey1', 'PATCH /usageplans/ownplan1', 'DELETE /usageplans/ownplan1']);
    expect(asked[0]!.query).toEqual({ name: 'key_own', includeValues: 'false' });
    expect(asked[1]!.query).toEqual({ keyId: 'gwkey1' });
    expect(asked[3]!.body).toEqual({ patchOperations: [{ op: 'remove', path: '/apiStages', value: 'a1b2c3d4e5:prod' }] });
  });

  it('asks nothing more for a key the gateway never knew', async () => {
    await removeKeyUsage(client(), 'key_unknown');
    expect(shapes()).toEqual(['GET /apikeys']);
  });
});

describe('the keys CLI against a deployed stage (DynamoDB Local as its table)', () => {
  const run = promisify(execFile);
  const TABLE = 'keys-cli-deployed';
  const dynamodb = inject('dynamodbEndpoint');
  beforeAll(() => ensureTable(dynamodb, TABLE));

  async function keysCli(...args: string[]) {
    const env = {
      ...process.env,
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      // The SDK's endpoint variables, per service: the "deployed" table and gateway are the local ones.
      AWS_ENDPOINT_URL_DYNAMODB: dynamodb,
      AWS_ENDPOINT_URL_API_GATEWAY: endpoint,
    };
    try {
      const { stdout, stderr } = await run('node_modules/.bin/tsx', ['infra/local/keys-cli.ts', ...args, '--table', TABLE], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      return error as { code: number; stdout: string; stderr: string };
    }
  }

  it('refuses create --table without --usage-plan, asking the gateway and the table nothing', async () => {
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--allow-unknown-groups');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('create --table needs --usage-plan');
    expect(asked).toEqual([]);
  });

  it("registers a new key with the stage's usage plan before it shows the key", async () => {
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--usage-plan', STAGE_PLAN);
    expect(result.code).toBe(0);
    const keyId = /key id: (\S+)/.exec(result.stdout)![1];
    expect(shapes()).toEqual(['POST /apikeys', `POST /usageplans/${STAGE_PLAN}/keys`]);
    expect(asked[0]!.body).toMatchObject({ name: keyId, value: `lab-usage-${keyId}` });
  });

  it('revokes the new key again, and shows none, when the gateway does not take it', async () => {
    failCreateApiKey = true;
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--usage-plan', STAGE_PLAN);
    expect(result.code).toBe(1);
    const keyId = /did not take key (\S+) /.exec(result.stderr)![1]!;
    expect(result.stdout).not.toContain('lab_');
    const listed = (await keysCli('list')).stdout.split('\n').find((line) => line.startsWith(keyId));
    expect(listed).toContain('REVOKED');
  });

  it("revoke --table removes the key's API Gateway key", async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--usage-plan', STAGE_PLAN);
    const keyId = /key id: (\S+)/.exec(created.stdout)![1]!;
    gatewayKeys = [{ id: 'gwkey1', name: keyId }];
    asked = [];
    expect((await keysCli('revoke', keyId)).code).toBe(0);
    expect(shapes()).toContain('DELETE /apikeys/gwkey1');
  });
});
