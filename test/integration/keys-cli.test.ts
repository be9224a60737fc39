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
import * as keys from '../../shared/store/keys/items';

const run = promisify(execFile);
const endpoint = inject('dynamodbEndpoint');

async function keysCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node_modules/.bin/tsx', ['infra/cli/keys-cli.ts', ...args], {
      env: { ...process.env, DYNAMODB_PORT: new URL(endpoint).port },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const DAY = 86_400_000;
const lastLine = (stdout: string) => stdout.trim().split('\n').at(-1) as string;
const keyIdOf = (stdout: string) => /key id: (\S+)/.exec(stdout)?.[1] as string;

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

/** One authenticated request with the key, as the API would make it against the CLI's table. */
async function useKey(plaintext: string): Promise<void> {
  vi.stubEnv('TABLE_NAME', LOCAL_TABLE);
  vi.resetModules();
  try {
    const { authenticate } = await import('../../shared/auth/api-keys');
    await authenticate(plaintext);
  } finally {
    vi.unstubAllEnvs();
  }
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

  it.each([
    ['profile', ['--profile-groups', 'demo-clinik'], 'known: demo-clinic, partner-clinic'],
    ['location', ['--location-groups', 'hamburg'], 'known: berlin, helsinki'],
  ])('create names the %s groups that exist when it refuses an unknown one', async (_kind, groupArgs, known) => {
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', ...groupArgs);
    expect(result.stderr).toContain(known);
  });

  it('create refuses LAB_RESULTS_MATCH on a key that lacks a profile group, naming it, with exit code 2, issuing nothing', async () => {
    const before = await keysCli('list');
    const result = await keysCli('create', '--scopes', 'LAB_RESULTS_MATCH', '--profile-groups', 'demo-clinic');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "LAB_RESULTS_MATCH is issued only on a key holding every profile group (the service's own lab-operations staff): --profile-groups lacks partner-clinic",
    );
    expect((await keysCli('list')).stdout).toBe(before.stdout);
  });

  it('create issues LAB_RESULTS_MATCH on a key that holds every profile group', async () => {
    const result = await keysCli('create', '--scopes', 'LAB_RESULTS_MATCH', '--profile-groups', 'partner-clinic,demo-clinic', '--name', 'lab operations');
    expect(result.code).toBe(0);
    expect(await storedKey(lastLine(result.stdout))).toMatchObject({ scopes: ['LAB_RESULTS_MATCH'], profile_groups: ['partner-clinic', 'demo-clinic'] });
  });

  it('create refuses LAB_RESULTS_MATCH on a sandbox key: the lab sends unmatched results as live data', async () => {
    const result = await keysCli('create', '--scopes', 'LAB_RESULTS_MATCH', '--profile-groups', 'demo-clinic,partner-clinic', '--sandbox');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('LAB_RESULTS_MATCH is not issued on a sandbox key');
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
    [['rotate'], 'rotate takes exactly one key id'],
    [['create', '--scopes', 'LOCATIONS_VIEW', '--expires-in', '90'], '--expires-in takes whole days from 1d to 3650d (e.g. 90d), or never'],
    [['create', '--scopes', 'LOCATIONS_VIEW', '--expires-in', '0d'], '--expires-in takes whole days from 1d to 3650d (e.g. 90d), or never'],
    [['rotate', 'key_0000000000000000', '--grace', '2w'], '--grace takes hours or days from 0h to 30d (e.g. 24h, 7d)'],
    [['create', '--scopes', 'LOCATIONS_VIEW', '--grace', '24h'], '--grace applies to rotate only'],
    [['unknown-command'], 'unknown command: unknown-command'],
    [[], 'a command is required'],
    [['create', '--scopes', 'CREATE_USER', '--colour', 'blue'], "Unknown option '--colour'"],
  ])('exits with code 2 and a clear message for %j', async (args, message) => {
    const result = await keysCli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('create gives a key 365 days by default and prints its expiry', async () => {
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--name', 'default expiry');
    const item = await storedKey(lastLine(result.stdout));
    expect(Date.parse(item?.key_expires_at) - Date.parse(item?.created_at)).toBe(365 * DAY);
    expect(result.stdout).toContain(`expires: ${item?.key_expires_at}\n`);
  });

  it('create --expires-in 90d gives a key 90 days', async () => {
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--expires-in', '90d');
    const item = await storedKey(lastLine(result.stdout));
    expect(Date.parse(item?.key_expires_at) - Date.parse(item?.created_at)).toBe(90 * DAY);
  });

  it('create --expires-in never without --allow-no-expiry exits with code 2, issuing nothing', async () => {
    const before = await keysCli('list');
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--expires-in', 'never');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--expires-in never needs --allow-no-expiry');
    expect((await keysCli('list')).stdout).toBe(before.stdout);
  });

  it('create --expires-in never --allow-no-expiry issues a key that never expires', async () => {
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--expires-in', 'never', '--allow-no-expiry');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('expires: never\n');
    expect((await storedKey(lastLine(result.stdout)))?.key_expires_at).toBeNull();
  });

  it('create --sandbox issues a lab_test_ key stored as a sandbox key, which list shows', async () => {
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--sandbox');
    expect(result.code).toBe(0);
    expect(lastLine(result.stdout)).toMatch(/^lab_test_/);
    expect((await storedKey(lastLine(result.stdout)))?.sandbox).toBe(true);
    const listed = (await keysCli('list')).stdout.split('\n').find((line) => line.startsWith(keyIdOf(result.stdout)));
    expect(listed).toContain('  data=sandbox');
  });

  it('rotate of a sandbox key prints a lab_test_ key that stays a sandbox key', async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--sandbox');
    const result = await keysCli('rotate', keyIdOf(created.stdout));
    expect(lastLine(result.stdout)).toMatch(/^lab_test_/);
    expect((await storedKey(lastLine(result.stdout)))?.sandbox).toBe(true);
  });

  it('rotate prints a new key for the same key id and gives the old one the grace asked for', async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--name', 'rotated key');
    const result = await keysCli('rotate', keyIdOf(created.stdout), '--grace', '48h');
    expect(result.code).toBe(0);
    const [old, next] = [await storedKey(lastLine(created.stdout)), await storedKey(lastLine(result.stdout))];
    expect(next).toMatchObject({ key_id: keyIdOf(created.stdout), name: 'rotated key', scopes: ['LOCATIONS_VIEW'], revoked: false });
    expect(Date.parse(old?.key_expires_at) - Date.parse(old?.replaced_at)).toBe(2 * DAY);
    expect(result.stdout).toContain(`previous key works until: ${old?.key_expires_at}`);
  });

  it('rotate of an unknown key id fails with exit code 1', async () => {
    const result = await keysCli('rotate', 'key_0000000000000000');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No key with id key_0000000000000000');
  });

  it('revoke after a rotation revokes the old and the new key', async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--name', 'rotated then revoked');
    const rotated = await keysCli('rotate', keyIdOf(created.stdout));
    await keysCli('revoke', keyIdOf(created.stdout));
    expect([(await storedKey(lastLine(created.stdout)))?.revoked, (await storedKey(lastLine(rotated.stdout)))?.revoked]).toEqual([true, true]);
  });

  it('create --rate-limit gives the key its own limits, a burst of twice the rate by default, and list shows them', async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--rate-limit', '2', '--daily-quota', '1000');
    expect([created.code, created.stdout]).toEqual([0, expect.stringContaining('limits: 2/s burst 4, 1000/day')]);
    expect((await storedKey(lastLine(created.stdout)))?.limits).toEqual({ rate_limit: 2, burst: 4, daily_quota: 1000 });
    const line = (await keysCli('list')).stdout.split('\n').find((l) => l.startsWith(keyIdOf(created.stdout)));
    expect(line).toContain('limits=2/s,burst=4,quota=1000/day');
  });

  it('create without --rate-limit leaves the key to the stage default', async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW');
    expect((await storedKey(lastLine(created.stdout)))?.limits).toBeUndefined();
    expect((await keysCli('list')).stdout.split('\n').find((l) => l.startsWith(keyIdOf(created.stdout)))).toContain('limits=stage-default');
  });

  it('create --burst without --rate-limit exits with code 2, issuing nothing', async () => {
    const before = await keysCli('list');
    const result = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--burst', '10');
    expect([result.code, result.stderr]).toEqual([2, expect.stringContaining('--burst and --daily-quota come with --rate-limit')]);
    expect((await keysCli('list')).stdout).toBe(before.stdout);
  });

  it("rotate keeps the key's own limits", async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--rate-limit', '7', '--burst', '9');
    const rotated = await keysCli('rotate', keyIdOf(created.stdout));
    expect((await storedKey(lastLine(rotated.stdout)))?.limits).toEqual({ rate_limit: 7, burst: 9, daily_quota: null });
  });

  it("list shows a rotated key on one line with its expiry, its last use and the old key's grace", async () => {
    const created = await keysCli('create', '--scopes', 'LOCATIONS_VIEW', '--name', 'used key');
    const keyId = keyIdOf(created.stdout);
    const rotated = await keysCli('rotate', keyId);
    await useKey(lastLine(created.stdout));
    const lines = (await keysCli('list')).stdout.split('\n').filter((line) => line.startsWith(keyId));
    const [old, next] = [await storedKey(lastLine(created.stdout)), await storedKey(lastLine(rotated.stdout))];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`  active  ${next?.created_at}  expires=${next?.key_expires_at}  last-used=${old?.last_used_on}  "used key"`);
    expect(lines[0]).toMatch(new RegExp(`previous-key-until=${old?.key_expires_at}$`));
  });
});
