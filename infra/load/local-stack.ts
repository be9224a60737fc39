/**
 * The local stack of a load run, as `npm start` composes it but split in two so that the run can take its parts
 * away: the emulators live in the load process — DynamoDB Local with a data folder (its JVM a child process,
 * started again on the same port and folder after a fault: it reads its SQLite files back, nothing is lost),
 * the S3 emulator (s3rver on its data folder, closed and opened again on the same port), the SES emulator and the
 * simulated lab — and the local server (routes, pipelines, relay) runs in a process of its own
 * (./server-process.ts), so that its memory is measured alone and it meets an outage as a Lambda would: its
 * SDK clients find the port closed. Everything on free ports, in a data folder of the run's own.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localFunctionEnvironment, localSettings } from '../local/environment';
import { type RunningEmulator, startDynamoDbLocal, startS3Emulator, startSesEmulator } from '../local/emulators';
import { freePort } from '../local/free-port';
import { startSimulatedLab } from '../local/simulated-lab';
import { type ServerControl, serverControl } from './server-control';

export interface LoadStack {
  baseUrl: string;
  eventsFile: string;
  control: ServerControl;
  /** The server process's pid (its memory is the soak's figure). */
  serverPid: number;
  stopDynamoDb(): Promise<void>;
  startDynamoDb(): Promise<void>;
  stopS3(): Promise<void>;
  startS3(): Promise<void>;
  close(): Promise<void>;
}

const here = fileURLToPath(new URL('.', import.meta.url));

export async function startLoadStack(dataDir: string): Promise<LoadStack> {
  const [port, dynamodbPort, s3Port] = [await freePort(), await freePort(), await freePort()];
  const dynamoDir = join(dataDir, 'dynamodb');
  const s3Dir = join(dataDir, 's3');
  const [lab, ses] = await Promise.all([startSimulatedLab(0, dataDir), startSesEmulator({ port: 0 })]);
  let dynamodb: RunningEmulator | undefined = await startDynamoDbLocal({ port: dynamodbPort, dataDir: dynamoDir });
  let s3: RunningEmulator | undefined = await startS3Emulator({ port: s3Port, dataDir: s3Dir });
  const settings = {
    ...localSettings({ ...process.env, LAB_DATA_DIR: dataDir }),
    port,
    dynamodbPort,
    s3Port,
    labMllpPort: lab.port,
    sesPort: ses.port,
    labMllpHost: undefined,
  };
  const functionEnv = localFunctionEnvironment(settings);
  const env = { ...process.env, ...functionEnv, PORT: String(port), POWERTOOLS_LOG_LEVEL: 'WARN', LAB_MLLP_HOST: '127.0.0.1' };
  const child = fork(join(here, 'server-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env,
    // Its warnings and errors (a function's, during an outage) go to a log file rather than over the table.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let serverLog = '';
  child.stderr?.on('data', (chunk: Buffer) => (serverLog = (serverLog + chunk.toString()).slice(-20_000)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: { ready?: string }) => message.ready && resolve(message.ready));
    child.once('exit', (code) => reject(new Error(`the local server exited with code ${code}:\n${serverLog.slice(-2_000)}`)));
  });
  return {
    baseUrl,
    eventsFile: functionEnv.LOCAL_EVENTS_FILE as string,
    control: serverControl(child),
    serverPid: child.pid as number,
    async stopDynamoDb() {
      await dynamodb?.stop();
      dynamodb = undefined;
    },
    async startDynamoDb() {
      dynamodb ??= await startDynamoDbLocal({ port: dynamodbPort, dataDir: dynamoDir });
    },
    async stopS3() {
      await s3?.stop();
      s3 = undefined;
    },
    async startS3() {
      s3 ??= await startS3Emulator({ port: s3Port, dataDir: s3Dir });
    },
    async close() {
      const exited = new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
      child.disconnect();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      await Promise.all([dynamodb?.stop(), s3?.stop(), ses.stop(), lab.stop()]);
    },
  };
}
