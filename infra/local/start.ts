/**
 * `npm start`: the whole API on this machine, real parts only. Starts DynamoDB Local and the S3
 * emulator, creates the table and bucket if missing, seeds demo data, registers a dev API key and
 * serves every route of shared/routes.ts over HTTP. Refuses busy ports before it starts anything.
 * SIGINT, SIGTERM, SIGHUP or the end of its parent process stops all of it (stop-signals.ts); DynamoDB
 * Local ends with this process even when it is killed outright (watchdog.sh). While it runs,
 * `<LAB_DATA_DIR>/stack.json` tells the CLIs where it is (stack-file.ts). A simulated lab listens for HL7 v2
 * over MLLP on LAB_MLLP_PORT (simulated-lab.ts), and each lab order is sent to it (lab-order-pipeline.ts). The
 * SES emulator (aws-ses-v2-local) on SES_PORT receives every patient email the stack sends and lists them on
 * its page (email-pipeline.ts sends them, from the events file and the reminder sweep).
 */
import { join } from 'node:path';
import { dev } from '../stages/dev';
import { LOCAL_BUCKET, LOCAL_TABLE, localFunctionEnvironment, localSettings } from './environment';
import { portInUse } from './free-port';
import { removeStackFile, writeStackFile } from './stack-file';
import { onStopRequest } from './stop-signals';

const settings = localSettings();
/**
 * `npm start -- --verbose` (or LAB_VERBOSE=1): every function's JSON log lines, as CloudWatch would hold
 * them, the ~500-character request line included. Without it: one short line per request, and the
 * functions' warnings and errors.
 */
const verbose = process.argv.includes('--verbose') || process.env.LAB_VERBOSE === '1';
// Before any shared/ module loads: they read their configuration once, at import.
Object.assign(process.env, localFunctionEnvironment(settings), verbose ? {} : { POWERTOOLS_LOG_LEVEL: 'WARN' });

const running: { stop(): Promise<void> }[] = [];
let stopping = false;

async function stopAll(exitCode: number): Promise<void> {
  // Ctrl-C in a terminal arrives twice (from the terminal, and forwarded by npm): stop once.
  if (stopping) return;
  stopping = true;
  removeStackFile(settings.dataDir);
  for (const part of running.reverse()) await part.stop().catch(() => undefined);
  process.exit(exitCode);
}

onStopRequest(() => void stopAll(0));

const track = <T extends { stop(): Promise<void> }>(part: T): T => {
  running.push(part);
  return part;
};

async function firstBusyPort(): Promise<{ variable: string; port: number } | undefined> {
  const ports = [
    { variable: 'PORT', port: settings.port, host: '127.0.0.1' },
    { variable: 'DYNAMODB_PORT', port: settings.dynamodbPort, host: '0.0.0.0' }, // DynamoDB Local binds every address
    { variable: 'S3_PORT', port: settings.s3Port, host: '127.0.0.1' },
    { variable: 'SES_PORT', port: settings.sesPort, host: '127.0.0.1' },
    // The simulated lab listens on every address (@medplum/hl7's server binds no host); none with LAB_MLLP_HOST.
    ...(settings.labMllpHost ? [] : [{ variable: 'LAB_MLLP_PORT', port: settings.labMllpPort, host: '0.0.0.0' }]),
  ].filter(({ port }) => port !== 0);
  const busy = await Promise.all(ports.map(({ port, host }) => portInUse(port, host)));
  return ports.find((_, i) => busy[i]);
}

async function main(): Promise<void> {
  const busy = await firstBusyPort();
  if (busy) {
    console.error(`Port ${busy.port} (${busy.variable}) is in use; stop the other process or set ${busy.variable} to a free port`);
    process.exit(1);
  }

  // The simulated lab and the SES emulator first, so that the ports they got (LAB_MLLP_PORT=0, SES_PORT=0: free
  // ones) are the lab order sender's and SES_ENDPOINT before shared/ loads.
  const emulators = import('./emulators');
  const [lab, ses] = await Promise.all([
    settings.labMllpHost
      ? undefined
      : import('./simulated-lab').then((simulated) => simulated.startSimulatedLab(settings.labMllpPort, settings.dataDir)).then(track),
    emulators.then(({ startSesEmulator }) => startSesEmulator({ port: settings.sesPort })).then(track),
  ]);
  if (lab) process.env.LAB_MLLP_PORT = String(lab.port);
  process.env.SES_ENDPOINT = ses.endpoint;
  const { startDynamoDbLocal, startS3Emulator } = await emulators;

  // DynamoDB Local's JVM takes longest to boot: start it first, and load the rest while it boots.
  const [dynamodb, s3, bootstrap, seed, devApiKey, server, relay, webhooks, labOrders, email] = await Promise.all([
    startDynamoDbLocal({ port: settings.dynamodbPort, dataDir: join(settings.dataDir, 'dynamodb') }).then(track),
    startS3Emulator({ port: settings.s3Port, dataDir: join(settings.dataDir, 's3') }).then(track),
    import('./bootstrap'),
    import('./seed'),
    import('./dev-api-key'),
    import('./server'),
    import('../../functions/events/relay-outbox'),
    import('./webhook-pipeline'),
    import('./lab-order-pipeline'),
    import('./email-pipeline'),
  ]);

  await Promise.all([bootstrap.ensureTable(dynamodb.endpoint, LOCAL_TABLE), bootstrap.ensureBucket(s3.endpoint, LOCAL_BUCKET)]);
  const [devKey] = await Promise.all([devApiKey.registerDevApiKey(settings.devApiKey), seed.seedDemoData()]);

  // Keys without limits of their own are held to the dev stage's default, as a deployed dev stage holds them.
  const { rateLimit, burstLimit, dailyQuota } = dev.keyLimits;
  const api = await server.startLocalApi(settings.port, {
    keyLimits: { stageDefault: { rate_limit: rateLimit, burst: burstLimit, daily_quota: dailyQuota } },
    requestLine: verbose ? undefined : (line) => console.log(line),
  });
  track({ stop: api.close });

  // The outbox relay runs every minute in AWS (an EventBridge schedule); here, a timer.
  const relayTimer = setInterval(() => void relay.handler().catch(() => undefined), 60_000);
  track({ stop: async () => clearInterval(relayTimer) });

  // Webhooks: the dispatcher on the events file and the retry sweep, in this process (docs/events-and-webhooks.md "Webhooks").
  track(await webhooks.startLocalWebhooks(process.env.LOCAL_EVENTS_FILE as string));
  // Lab orders: each LabOrderRequested sent over MLLP to the lab, retried on its schedule (docs/hl7.md "Orders").
  track(await labOrders.startLocalLabOrders(process.env.LOCAL_EVENTS_FILE as string));
  // Patient email: each event's messages to the SES emulator, and the reminder sweep (docs/messages.md).
  track(await email.startLocalEmail(process.env.LOCAL_EVENTS_FILE as string));

  writeStackFile(settings.dataDir, {
    pid: process.pid,
    api_url: api.url,
    port: settings.port,
    dynamodb_port: settings.dynamodbPort,
    s3_port: settings.s3Port,
    lab_mllp_port: Number(process.env.LAB_MLLP_PORT),
    ses_port: ses.port,
    started_at: new Date().toISOString(),
  });

  console.log(`DynamoDB Local: ${dynamodb.endpoint} (data in ${settings.dataDir})`);
  console.log(`S3 emulator:    ${s3.endpoint}`);
  console.log(`Events:         ${process.env.LOCAL_EVENTS_FILE} (one JSON line per event)`);
  console.log(`Email (SES):    ${ses.endpoint} (every email the stack sent)`);
  console.log(
    lab
      ? `Simulated lab:  MLLP on port ${lab.port}, answers AA (npm run lab -- orders; npm run lab -- refuse-next)`
      : `Lab orders:     sent to ${settings.labMllpHost}:${settings.labMllpPort} over MLLP (LAB_MLLP_HOST)`,
  );
  console.log(devKey.generated ? `Dev API key (shown once): ${devKey.plaintext}` : 'Dev API key: the value of DEV_API_KEY');
  // From the start of this process (npm's own start, about 0.3 s, comes before it).
  const seconds = process.uptime().toFixed(1);
  // The key itself, so the line runs as printed; a fixed key is the caller's own and is not printed.
  const key = devKey.generated ? devKey.plaintext : '$DEV_API_KEY';
  console.log(`Lab API ready at ${api.url} in ${seconds} s — try: curl -H "x-api-key: ${key}" ${api.url}/api/v1/locations`);
  if (!verbose) console.log('One line per request; npm start -- --verbose shows every function log line.');
}

main().catch(async (error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(1);
});
