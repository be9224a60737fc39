/**
 * A key's place in API Gateway's usage plans (infra/cli/key-usage-plans.ts), as the keys CLI writes it
 * for a deployed stage. API Gateway cannot run here: a loopback HTTP server answers as its REST API does
 * (the SDK's real requests: method, path, query and JSON body), and the tests read what it was asked.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { afterAll, beforeAll, beforeEach, describe, expect, it, inject } from 'vitest';
import { registerKeyUsage, removeKeyUsage } from '../../infra/cli/key-usage-plans';
import { ensureTable } from '../../infra/local/bootstrap';
import { revokeApiKey } from '../../shared/store/api-keys/lifecycle';
import { apiKeyWithId } from '../support/fixtures';

interface Asked {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

const STAGE_PLAN = 'stageplan1';
const STAGE_PLAN_NAME = 'LabApi-prod keys';
const API_STAGES = [{ apiId: 'a1b2c3d4e5', stage: 'prod' }];
let asked: Asked[] = [];
/** The gateway's state: its API keys, its plans by id, and which plans hold which key. */
let gatewayKeys: { id: string; name: string }[] = [];
let plans: Map<string, { id: string; name: string; apiStages: typeof API_STAGES }>;
let members: Map<string, string[]>;
let failCreateUsagePlanKey = false;
let server: Server;
let endpoint: string;

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** API Gateway's answers to the calls the module makes (its REST API's JSON: lists under `item`), keeping its state. */
function answer(method: string, path: string, query: URLSearchParams, body: unknown): [number, unknown] {
  const plan = /^\/usageplans\/(\w+)$/.exec(path)?.[1];
  const planKeys = /^\/usageplans\/(\w+)\/keys$/.exec(path)?.[1];
  if (method === 'GET' && plan) return plans.has(plan) ? [200, plans.get(plan)] : [404, { message: 'Invalid Usage Plan ID specified' }];
  if (method === 'POST' && path === '/usageplans') {
    const created = { id: `ownplan${plans.size}`, name: (body as { name: string }).name, apiStages: API_STAGES };
    plans.set(created.id, created);
    return [201, created];
  }
  if (method === 'POST' && path === '/apikeys') {
    const created = { id: `gwkey${gatewayKeys.length + 1}`, name: (body as { name: string }).name };
    gatewayKeys.push(created);
    return [201, { ...created, enabled: true }];
  }
  if (method === 'POST' && planKeys) {
    if (failCreateUsagePlanKey) return [400, { message: 'Usage Plan is not attached to any API stage' }];
    const { keyId } = body as { keyId: string };
    members.set(keyId, [...(members.get(keyId) ?? []), planKeys]);
    return [201, { id: keyId, type: 'API_KEY' }];
  }
  if (method === 'GET' && path === '/apikeys') return [200, { item: gatewayKeys.filter((k) => k.name.startsWith(query.get('name') ?? '')) }];
  if (method === 'GET' && path === '/usageplans') return [200, { item: (members.get(query.get('keyId') ?? '') ?? []).map((id) => plans.get(id)) }];
  if (method === 'DELETE' || method === 'PATCH') return [method === 'DELETE' ? 202 : 200, {}];
  return [404, { message: `not faked: ${method} ${path}` }];
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body = await bodyOf(request);
    const method = request.method ?? 'GET';
    asked.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    const [status, json] = answer(method, url.pathname, url.searchParams, body);
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  asked = [];
  gatewayKeys = [];
  plans = new Map([[STAGE_PLAN, { id: STAGE_PLAN, name: STAGE_PLAN_NAME, apiStages: API_STAGES }]]);
  members = new Map();
  failCreateUsagePlanKey = false;
});

const client = () => new APIGatewayClient({ endpoint, region: 'eu-central-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
const shapes = () => asked.map(({ method, path }) => `${method} ${path}`);

describe('registering a key with the gateway', () => {
  it("puts a key without limits of its own into the stage's usage plan, under its usage identifier", async () => {
    expect(await registerKeyUsage(client(), { keyId: 'key_0123456789abcdef', usagePlanId: STAGE_PLAN, limits: null })).toBe('registered');
    expect(shapes()).toEqual(['GET /apikeys', 'POST /apikeys', `POST /usageplans/${STAGE_PLAN}/keys`]);
    expect(asked[0]!.query).toEqual({ name: 'key_0123456789abcdef', includeValues: 'false' });
    expect(asked[1]!.body).toEqual({
      name: 'key_0123456789abcdef',
      description: 'Usage identifier of lab API key key_0123456789abcdef: counts its requests, is no credential',
      enabled: true,
      value: 'lab-usage-key_0123456789abcdef',
    });
    expect(asked[2]!.body).toEqual({ keyId: 'gwkey1', keyType: 'API_KEY' });
  });

  it("gives a key with limits of its own a usage plan of its own on the stage's API stages, with its rate, burst and daily quota", async () => {
    await registerKeyUsage(client(), { keyId: 'key_own', usagePlanId: STAGE_PLAN, limits: { rate_limit: 2, burst: 4, daily_quota: 1000 } });
    expect(shapes()).toEqual(['GET /apikeys', 'POST /apikeys', `GET /usageplans/${STAGE_PLAN}`, 'POST /usageplans', 'POST /usageplans/ownplan1/keys']);
    expect(asked[3]!.body).toEqual({
      name: 'key_own',
      description: 'Limits of lab API key key_own only',
      apiStages: API_STAGES,
      throttle: { rateLimit: 2, burstLimit: 4 },
      quota: { limit: 1000, period: 'DAY' },
    });
  });

  it('leaves the quota out of a plan of its own when the key has no daily quota', async () => {
    await registerKeyUsage(client(), { keyId: 'key_own', usagePlanId: STAGE_PLAN, limits: { rate_limit: 2, burst: 4, daily_quota: null } });
    expect(asked[3]!.body).not.toHaveProperty('quota');
  });

  it('leaves a key that is in a plan already as it is', async () => {
    await registerKeyUsage(client(), { keyId: 'key_twice', usagePlanId: STAGE_PLAN, limits: null });
    asked = [];
    expect(await registerKeyUsage(client(), { keyId: 'key_twice', usagePlanId: STAGE_PLAN, limits: null })).toBe('already');
    expect(shapes()).toEqual(['GET /apikeys', 'GET /usageplans']);
  });

  it('puts a key whose API Gateway key an earlier attempt created, but no plan holds, into the plan', async () => {
    failCreateUsagePlanKey = true;
    await expect(registerKeyUsage(client(), { keyId: 'key_half', usagePlanId: STAGE_PLAN, limits: null })).rejects.toThrow();
    failCreateUsagePlanKey = false;
    asked = [];
    expect(await registerKeyUsage(client(), { keyId: 'key_half', usagePlanId: STAGE_PLAN, limits: null })).toBe('registered');
    expect(shapes()).toEqual(['GET /apikeys', 'GET /usageplans', `POST /usageplans/${STAGE_PLAN}/keys`]);
    expect(gatewayKeys).toHaveLength(1);
  });
});

describe('removing what a failed registration left', () => {
  it('deletes the API Gateway key, then detaches the plan of its own from the API stages and deletes it', async () => {
    await registerKeyUsage(client(), { keyId: 'key_own', usagePlanId: STAGE_PLAN, limits: { rate_limit: 2, burst: 4, daily_quota: null } });
    asked = [];
    await removeKeyUsage(client(), 'key_own');
    expect(shapes()).toEqual(['GET /apikeys', 'GET /usageplans', 'DELETE /apikeys/gwkey1', 'PATCH /usageplans/ownplan1', 'DELETE /usageplans/ownplan1']);
    expect(asked[1]!.query).toEqual({ keyId: 'gwkey1' });
    expect(asked[3]!.body).toEqual({ patchOperations: [{ op: 'remove', path: '/apiStages', value: 'a1b2c3d4e5:prod' }] });
  });

  it("never detaches or deletes the stage's plan, whatever keys it holds", async () => {
    await registerKeyUsage(client(), { keyId: 'key_stage', usagePlanId: STAGE_PLAN, limits: null });
    asked = [];
    await removeKeyUsage(client(), 'key_stage');
    expect(shapes()).toEqual(['GET /apikeys', 'GET /usageplans', 'DELETE /apikeys/gwkey1']);
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
    return keysCliOn(TABLE, ...args);
  }

  async function keysCliOn(table: string, ...args: string[]) {
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
      const { stdout, stderr } = await run('node_modules/.bin/tsx', ['infra/cli/keys-cli.ts', ...args, '--table', table], { env });
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
    expect(shapes()).toEqual(['GET /apikeys', 'POST /apikeys', `POST /usageplans/${STAGE_PLAN}/keys`]);
    expect(asked[1]!.body).toMatchObject({ name: keyId, value: `lab-usage-${keyId}` });
  });

  it('revokes the new key again, shows none, and removes what the gateway took, when the gateway does not take it', async () => {
    failCreateUsagePlanKey = true;
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--usage-plan', STAGE_PLAN);
    expect(result.code).toBe(1);
    const keyId = /did not take key (\S+) /.exec(result.stderr)![1]!;
    expect(result.stdout).not.toContain('lab_');
    expect(shapes()).toContain('DELETE /apikeys/gwkey1');
    const listed = (await keysCli('list')).stdout.split('\n').find((line) => line.startsWith(keyId));
    expect(listed).toContain('REVOKED');
  });

  it('revoke --table asks the gateway nothing: the key stays in its plan, so the authorizer (never a missing plan) answers it', async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--usage-plan', STAGE_PLAN);
    const keyId = /key id: (\S+)/.exec(created.stdout)![1]!;
    asked = [];
    expect((await keysCli('revoke', keyId)).code).toBe(0);
    expect(asked).toEqual([]);
  });

  it("register gives a key issued without the gateway its place in the stage's plan", async () => {
    // Issued straight into this file's table, as keys were before the stage had usage plans.
    const { keyId } = await apiKeyWithId();
    const result = await keysCliOn(process.env.TABLE_NAME!, 'register', keyId, '--usage-plan', STAGE_PLAN);
    expect(result.code).toBe(0);
    expect(shapes()).toEqual(['GET /apikeys', 'POST /apikeys', `POST /usageplans/${STAGE_PLAN}/keys`]);
    expect(asked[1]!.body).toMatchObject({ name: keyId, value: `lab-usage-${keyId}` });
  });

  it('register of a key the gateway holds already says so and changes nothing', async () => {
    const { keyId } = await apiKeyWithId();
    await registerKeyUsage(client(), { keyId, usagePlanId: STAGE_PLAN, limits: null });
    asked = [];
    const result = await keysCliOn(process.env.TABLE_NAME!, 'register', keyId, '--usage-plan', STAGE_PLAN);
    expect(result.stdout).toContain('registered with the gateway already');
    expect(shapes()).toEqual(['GET /apikeys', 'GET /usageplans']);
  });

  it('register --all registers every key that may still be used, and no revoked one', async () => {
    const { keyId: kept } = await apiKeyWithId();
    const { keyId: revoked } = await apiKeyWithId();
    await revokeApiKey(revoked);
    const result = await keysCliOn(process.env.TABLE_NAME!, 'register', '--all', '--usage-plan', STAGE_PLAN);
    expect(result.code).toBe(0);
    const registered = asked.filter((a) => a.method === 'POST' && a.path === '/apikeys').map((a) => (a.body as { name: string }).name);
    expect(registered).toContain(kept);
    expect(registered).not.toContain(revoked);
  });
});
