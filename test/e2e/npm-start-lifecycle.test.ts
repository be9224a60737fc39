/**
 * `npm start` behaves like a service: whichever way it is told to stop — Ctrl-C, a supervisor's or an
 * IDE's signal to the npm process alone, a closed terminal, its own process killed outright — nothing it
 * started keeps running; and it refuses busy ports before it starts anything. Each test runs its own
 * stack on free ports and its own data directory, and stops it the way the test names.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, portAnswers } from '../../infra/local/free-port';
import { groupGone, npmStart, spawnNpmStart, startScriptPid } from '../support/npm-start';

const dataDirs: string[] = [];

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function stackSettings() {
  const dataDir = mkdtempSync(join(tmpdir(), 'lab-lifecycle-'));
  dataDirs.push(dataDir);
  const [PORT, DYNAMODB_PORT, S3_PORT, LAB_MLLP_PORT, SES_PORT] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  return {
    PORT: String(PORT),
    DYNAMODB_PORT: String(DYNAMODB_PORT),
    S3_PORT: String(S3_PORT),
    LAB_MLLP_PORT: String(LAB_MLLP_PORT),
    SES_PORT: String(SES_PORT),
    LAB_DATA_DIR: dataDir,
    DEV_API_KEY: 'lab_lifecycle_test',
  };
}

async function openPorts(settings: { PORT: string; DYNAMODB_PORT: string; S3_PORT: string; LAB_MLLP_PORT: string; SES_PORT: string }): Promise<string[]> {
  const names = ['PORT', 'DYNAMODB_PORT', 'S3_PORT', 'LAB_MLLP_PORT', 'SES_PORT'] as const;
  const open = await Promise.all(names.map((name) => portAnswers(Number(settings[name]))));
  return names.filter((_, i) => open[i]);
}

function javaProcessesOnPort(port: string): string[] {
  const table = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return table.split('\n').filter((line) => line.includes('DynamoDBLocal') && line.includes(`-port ${port}`));
}

describe('npm start, told to stop', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('stops every process it started when the npm process alone receives %s', async (signal) => {
    const settings = await stackSettings();
    const stack = await npmStart(settings);
    process.kill(stack.process.pid as number, signal);
    await groupGone(stack, `${signal} to npm`);
    expect(await openPorts(settings)).toEqual([]);
  });

  it('stops DynamoDB Local when the start.ts process is killed outright (SIGKILL, no handler runs)', async () => {
    const settings = await stackSettings();
    const stack = await npmStart(settings);
    process.kill(startScriptPid(stack), 'SIGKILL');
    await groupGone(stack, 'SIGKILL to start.ts');
    expect(await portAnswers(Number(settings.DYNAMODB_PORT))).toBe(false);
    expect(javaProcessesOnPort(settings.DYNAMODB_PORT)).toEqual([]);
  });
});

describe('npm start, while it runs', () => {
  it('keeps its pid and ports in LAB_DATA_DIR/stack.json for the CLIs, and removes the file when it stops', async () => {
    const settings = await stackSettings();
    const stack = await npmStart(settings);
    const stackFile = join(settings.LAB_DATA_DIR, 'stack.json');
    expect(JSON.parse(readFileSync(stackFile, 'utf8'))).toMatchObject({
      pid: startScriptPid(stack),
      api_url: stack.baseUrl,
      port: Number(settings.PORT),
      dynamodb_port: Number(settings.DYNAMODB_PORT),
      s3_port: Number(settings.S3_PORT),
      ses_port: Number(settings.SES_PORT),
    });
    process.kill(stack.process.pid as number, 'SIGTERM');
    await groupGone(stack, 'SIGTERM to npm');
    expect(existsSync(stackFile)).toBe(false);
  });
});

describe('npm start on a busy port', () => {
  const occupy = (port: string): Promise<Server> =>
    new Promise((resolve) => {
      const server = createServer();
      server.listen(Number(port), '127.0.0.1', () => resolve(server));
    });

  it.each(['PORT', 'DYNAMODB_PORT', 'S3_PORT', 'LAB_MLLP_PORT', 'SES_PORT'] as const)(
    'exits with code 1 and one line naming the port and %s, leaving nothing running',
    async (variable) => {
      const settings = await stackSettings();
      const other = await occupy(settings[variable]);
      try {
        const started = spawnNpmStart(settings);
        const code = await new Promise<number | null>((resolve) => started.process.once('exit', resolve));
        await groupGone(started, 'its exit');
        expect(code).toBe(1);
        const line = `Port ${settings[variable]} (${variable}) is in use; stop the other process or set ${variable} to a free port`;
        expect(started.output().split('\n')).toContain(line);
        expect(started.output()).not.toMatch(/npm start failed|\n\s+at /);
        expect(await openPorts(settings)).toEqual([variable]);
      } finally {
        other.close();
      }
    },
  );
});
