/**
 * `npm run keys` against DynamoDB Local: the CLI reaches the stack through the same variables as
 * `npm start` (DYNAMODB_PORT), so it writes the local table `lab-local`, which only this file uses,
 * seeded here with the demo groups as `npm start` seeds it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, inject, vi } from 'vitest';
import { ensureTable } from '../../infra/local/bootstrap';
import { LOCAL_TABLE } from '../../infra/local/environment';
import { hashApiKey } from '../../shared/auth/api-keys';
import { dynamo } from '../../shared/store/client';
import { keys } from '../../shared/store/keys';

const run = promisify(execFile);
const endpoint = inject('dynamodbEndpoint');

async function keysCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node_modules/.bin/tsx', ['infra/local/keys-cli.ts', ...args], {
      env: { ...process.env, DYNAMODB_PORT: new URL(endpoint).port },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function storedKey(plaintext: string) {
  const { Items } = await dynamo.send(
    new QueryCommand({
      TableName: LOCAL_TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.apiKey(hashApiKey(plaintext)).PK },
    }),
  );
  return Items?.[0];
}

beforeAll(async () => {
  await ensureTable(endpoint, LOCAL_TABLE);
  // The seed writes through shared/store, which reads TABLE_NAME once, at import: a fresh copy of it.
  vi.stubEnv('TABLE_NAME', LOCAL_TABLE);
  vi.resetModules();
  const { seedDemoData } = await import('../../infra/local/seed');
  await seedDemoData();
  vi.unstubAllEnvs();
});

describe('npm run keys', () => {
  it('create prints the new key alone on the last line and stores only its hash with scopes and groups', async () => {
    const result = await keysCli(
      'create',
      '--scopes',
      'CREATE_USER,PROFILES_VIEW',
      '--profile-groups',
      'demo-clinic',
      '--location-groups',
      'berlin',
      '--name',
      'clinic app',
    );
    expect(result.code).toBe(0);
    const plaintext = result.stdout.trim().split('\n').at(-1) as string;
    expect(plaintext).toMatch(/^lab_[A-Za-z0-9_-]{43}$/);
    const item = await storedKey(plaintext);
    expect(item).toMatchObject({
      name: 'clinic app',
      scopes: ['CREATE_USER', 'PROFILES_VIEW'],
      profile_groups: ['demo-clinic'],
      location_groups: ['berlin'],
      revoked: false,
    });
    expect(JSON.stringify(item)).not.toContain(plaintext);
  });

  it('list shows the keys without any plaintext', async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--name', 'listed key');
    const plaintext = created.stdout.trim().split('\n').at(-1) as string;
    const result = await keysCli('list');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"listed key"');
    expect(result.stdout).not.toContain(plaintext);
  });

  it('revoke marks the key revoked', async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--name', 'revoked key');
    const keyId = /key id: (\S+)/.exec(created.stdout)?.[1] as string;
    const plaintext = created.stdout.trim().split('\n').at(-1) as string;
    const result = await keysCli('revoke', keyId);
    expect(result.code).toBe(0);
    expect((await storedKey(plaintext))?.revoked).toBe(true);
  });

  it('revoke of a key revoked already says so and changes nothing', async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--name', 'revoked twice');
    const keyId = /key id: (\S+)/.exec(created.stdout)?.[1] as string;
    await keysCli('revoke', keyId);
    const result = await keysCli('revoke', keyId);
    expect(result).toMatchObject({ code: 0, stdout: `${keyId} was already revoked; nothing changed.\n` });
  });

  it('revoke of an unknown key id fails with exit code 1', async () => {
    const result = await keysCli('revoke', 'key_0000000000000000');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No key with id key_0000000000000000');
  });

  it.each([[['--help']], [['-h']], [['create', '--help']]])('%j prints the usage on stdout with exit code 0', async (args) => {
    const result = await keysCli(...args);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage:\n {2}npm run keys -- create --scopes/);
  });

  it.each([
    ['profile', ['--profile-groups', 'demo-clinic,demo-clinik'], 'unknown profile group(s): demo-clinik'],
    ['location', ['--location-groups', 'berlin,hamburg'], 'unknown location group(s): hamburg'],
  ])('create refuses an unknown %s group by name with exit code 2, issuing nothing', async (_kind, groupArgs, message) => {
    const before = await keysCli('list');
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', ...groupArgs);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect((await keysCli('list')).stdout).toBe(before.stdout);
  });

  it('create --allow-unknown-groups issues a key for groups yet to be created', async () => {
    const result = await keysCli(
      'create',
      '--scopes',
      'LOCATIONS_VIEW',
      '--profile-groups',
      'new-clinic',
      '--location-groups',
      'hamburg',
      '--allow-unknown-groups',
    );
    expect(result.code).toBe(0);
    const plaintext = result.stdout.trim().split('\n').at(-1) as string;
    expect(await storedKey(plaintext)).toMatchObject({ profile_groups: ['new-clinic'], location_groups: ['hamburg'] });
  });

  it.each([
    [['create'], '--scopes is required'],
    [['create', '--scopes', 'CREATE_USER,ADMIN'], 'unknown scope(s): ADMIN'],
    [['rotate'], 'unknown command: rotate'],
    [[], 'a command is required'],
    [['create', '--scopes', 'CREATE_USER', '--colour', 'blue'], "Unknown option '--colour'"],
  ])('exits with code 2 and a clear message for %j', async (args, message) => {
    const result = await keysCli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
