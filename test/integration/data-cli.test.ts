/**
 * `npm run data` against a deployed table (`--table`) on a machine without the AWS region or credentials to
 * reach it: one line that says which, and exit code 1, as the keys CLI answers (infra/cli/usage.ts), never
 * the SDK's stack trace. Run as the npm script runs it, with an empty home (no ~/.aws) and no instance
 * metadata to ask.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'lab-no-aws-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Nothing of the AWS environment: no region, no credentials, no profile, no instance metadata. */
const NO_AWS = { PATH: process.env.PATH!, HOME: home, AWS_EC2_METADATA_DISABLED: 'true' };

/** `npm run <cli> -- …` as package.json runs it: Node 24 with tsx. */
async function cli(name: 'data' | 'keys', env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node_modules/.bin/node', ['--import', 'tsx', `infra/cli/${name}-cli.ts`, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run data -- plan|apply --table, without what AWS needs', () => {
  it('answers a missing region with one line and exit code 1, as the keys CLI does', async () => {
    const [data, keys] = await Promise.all([cli('data', NO_AWS, 'plan', '--table', 'lab-api-prod'), cli('keys', NO_AWS, 'list', '--table', 'lab-api-prod')]);
    expect(data).toEqual({ code: 1, stdout: '', stderr: 'data: Region is missing\n' });
    expect(keys).toEqual({ code: 1, stdout: '', stderr: 'keys: Region is missing\n' });
  });

  it('answers missing credentials with one line and exit code 1, writing nothing', async () => {
    const data = await cli('data', { ...NO_AWS, AWS_REGION: 'eu-central-1' }, 'apply', '--table', 'lab-api-prod');
    expect(data).toEqual({ code: 1, stdout: '', stderr: 'data: Could not load credentials from any providers\n' });
  });

  it('answers a bad argument with the message and the usage, exit code 2', async () => {
    const data = await cli('data', NO_AWS, 'plna', '--table', 'lab-api-prod');
    expect(data).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^unknown command: plna\nusage:\n {2}npm run data -- plan/) });
  });
});
