/**
 * `npm run smoke` (infra/cli/smoke-cli.ts), the smoke test CI runs after a deploy, run as written against
 * `npm start`: one stack for the file, a sandbox key issued by `npm run keys`, the command's own exit code
 * and lines. The webhook goes to a receiver this test runs (npm start delivers webhooks itself).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/free-port';
import { interrupt, type NpmStart, npmStart } from '../support/npm-start';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'lab-smoke-'));
const devKey = `lab_e2e_${randomBytes(16).toString('hex')}`;
let stack: NpmStart;
let sandboxKey: string;
let receiver: Receiver;

/** The steps of a whole run with a sandbox key, in order; the webhook's are added with --webhook-url. */
const FLOW = [
  'health',
  'docs page',
  'contract',
  'keyed read',
  'no key',
  'sandbox key',
  'profile',
  'slots',
  'book',
  'attach',
  'confirm',
  'simulated results',
  'results',
  'report',
  'clean-up',
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run smoke -- <args>` (with `npm run` flags before the script's name), its exit code and output; SMOKE_KEY only when given. */
async function smoke(args: string[], { npmFlags = [], env = {} }: { npmFlags?: string[]; env?: Record<string, string> } = {}): Promise<Run> {
  const { SMOKE_KEY: _key, SMOKE_SANDBOX_KEY: _sandboxKey, ...inherited } = process.env;
  return run('npm', ['run', ...npmFlags, 'smoke', '--', ...args], { env: { ...inherited, ...env }, timeout: 90_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Run) => error,
  );
}

/** The command's step lines (npm's echo of the script and the summary left out). */
const stepLines = (output: string) => output.split('\n').filter((line) => /^(ok {3}|FAIL |skip )/.test(line));
/** What a step's ok line said after its name. */
const detailOf = (output: string, step: string) =>
  stepLines(output)
    .find((line) => line.startsWith(`ok   ${step} `))
    ?.slice(`ok   ${step} `.length) ?? '';

beforeAll(async () => {
  const ports = { PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), S3_PORT: String(await freePort()) };
  stack = await npmStart({ ...ports, LAB_DATA_DIR: dataDir, DEV_API_KEY: devKey });
  // As docs/sandbox.md issues one, with PROFILES_ERASE for the clean-up and PROFILES_VIEW for this test's look at it.
  const created = await run(
    'npm',
    [
      'run',
      '--silent',
      'keys',
      '--',
      'create',
      '--sandbox',
      '--scopes',
      'CREATE_USER,PROFILES_VIEW,TEST_SESSIONS_SCHEDULE,RESULTS_VIEW,WEBHOOKS_MANAGE,PROFILES_ERASE',
      '--profile-groups',
      'demo-clinic',
      '--location-groups',
      'berlin',
      '--name',
      'smoke test',
    ],
    { env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir } },
  );
  sandboxKey = created.stdout.trim().split('\n').at(-1) as string;
  expect(sandboxKey).toMatch(/^lab_test_/);
});

afterAll(async () => {
  await receiver?.close();
  if (stack) await interrupt(stack);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run smoke', () => {
  let sandboxRun: Run;
  let liveRun: Run;
  let webhookRun: Run;

  it('passes every step against the local stack with a sandbox key, one line each, and exits 0', async () => {
    sandboxRun = await smoke(['--base', stack.baseUrl, '--key', sandboxKey]); // as the pipeline calls it
    expect(stepLines(sandboxRun.stdout)).toEqual(FLOW.map((step) => expect.stringMatching(new RegExp(`^ok   ${step} .+ \\(\\d+ ms\\)$`))));
    expect(sandboxRun.stdout).toMatch(new RegExp(`\\nsmoke test passed: ${FLOW.length} ok, 0 failed, against ${stack.baseUrl} in [\\d.]+ s\\n$`));
    expect(sandboxRun.code).toBe(0);
  });

  it('checks all but the flow with a live key, skipping the flow in one line, and exits 0', async () => {
    liveRun = await smoke(['--base', `${stack.baseUrl}/`], { env: { SMOKE_KEY: devKey } });
    expect(stepLines(liveRun.stdout)).toEqual([
      ...FLOW.slice(0, 5).map((step) => expect.stringMatching(new RegExp(`^ok   ${step} `))),
      'skip sandbox flow: --key is not a sandbox key (lab_test_…) and no --sandbox-key was given',
    ]);
    expect(liveRun.code).toBe(0);
  });

  it("prints no key and not the made-up person's name (a key in SMOKE_KEY stays out of npm's echo of the command too)", () => {
    const ownLines = (output: string) => output.split('\n').filter((line) => !line.startsWith('> ')); // npm's echo of the command
    expect(ownLines(sandboxRun.stdout + sandboxRun.stderr).join('\n')).not.toContain(sandboxKey);
    expect(liveRun.stdout + liveRun.stderr).not.toContain(devKey);
    for (const name of ['Erika', 'Muster', '1984-08-12']) expect(sandboxRun.stdout + sandboxRun.stderr).not.toContain(name);
  });

  it('fails the keyed read with a wrong key and exits 1', async () => {
    const wrong = await smoke(['--base', stack.baseUrl, '--key', `lab_test_${randomBytes(16).toString('hex')}`], { npmFlags: ['--silent'] });
    expect(stepLines(wrong.stdout)).toContain('FAIL keyed read: GET /api/v1/locations answered 401 (Invalid or revoked API key), expected 200');
    expect(wrong.stdout).toMatch(/\nsmoke test FAILED: \d+ ok, 2 failed, 8 skipped, /);
    expect(wrong.code).toBe(1);
  });

  it.each([
    [[], '--base <url> is required'],
    [['--base', 'not a url', '--key', 'k'], '--base takes an http or https URL: not a url'],
    [['--base', 'http://127.0.0.1:9', '--key', 'lab_live', '--sandbox-key', 'lab_live'], '--sandbox-key takes a sandbox key (lab_test_…)'],
    [['--base', 'http://127.0.0.1:9', '--key', 'lab_live', '--webhook-url', 'http://127.0.0.1:9/'], '--webhook-url needs a sandbox key'],
  ])('exits 2 with the usage for bad arguments: %j', async (args, message) => {
    const refused = await smoke(args, { npmFlags: ['--silent'] });
    expect(refused.stderr).toContain(message);
    expect(refused.stderr).toContain('usage:\n  npm run smoke -- --base <url> --key <key>');
    expect(stepLines(refused.stdout)).toEqual([]);
    expect(refused.code).toBe(2);
  });

  it("delivers the test send and the flow's events to the receiver given by --webhook-url", async () => {
    receiver = await startReceiver();
    webhookRun = await smoke(['--base', stack.baseUrl, '--webhook-url', receiver.url], { npmFlags: ['--silent'], env: { SMOKE_KEY: sandboxKey } });
    const steps = [...FLOW.slice(0, 6), 'webhook subscribe', 'webhook test', ...FLOW.slice(6, -1), 'webhook delivered', 'clean-up'];
    expect(stepLines(webhookRun.stdout)).toEqual(steps.map((step) => expect.stringMatching(new RegExp(`^ok   ${step} `))));
    const appointmentId = detailOf(webhookRun.stdout, 'book').split(' ')[0];
    const received = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { appointment_id?: string; status?: string } });
    expect(received[0]?.type).toBe('webhook.test');
    expect(received.filter((m) => m.data.appointment_id === appointmentId).map((m) => m.type)).toEqual(
      expect.arrayContaining(['AppointmentStatusChanged', 'LabResultsAvailable']),
    );
    expect(webhookRun.code).toBe(0);
  });

  it('cleans up after itself: its subscription deleted, its made-up profile erased', async () => {
    expect(detailOf(webhookRun.stdout, 'clean-up')).toMatch(/^subscription deleted, profile erased; /);
    const headers = { 'x-api-key': sandboxKey };
    const subscriptions = await fetch(`${stack.baseUrl}/api/v1/webhooks`, { headers }).then((res) => res.json());
    expect(subscriptions).toEqual([]);
    const profileId = detailOf(webhookRun.stdout, 'profile').split(' ')[0];
    const profile = await fetch(`${stack.baseUrl}/api/v1/profiles/${profileId}`, { headers }).then((res) => res.json());
    expect(profile).toMatchObject({ id: profileId, first_name: null, last_name: null, erased_at: expect.any(String) });
  });
});
