/**
 * `npm start`: the whole API on this machine, real parts only. Starts DynamoDB Local and the S3
 * emulator, creates the table and bucket if missing, seeds demo data, registers a dev API key and
 * serves every route of shared/routes.ts over HTTP. Ctrl-C (SIGINT) or SIGTERM stops all of it.
 */
import { join } from 'node:path';
import { ensureBucket, ensureTable } from './bootstrap';
import { type RunningEmulator, startDynamoDbLocal, startS3Emulator } from './emulators';
import { LOCAL_BUCKET, LOCAL_TABLE, localFunctionEnvironment, localSettings } from './environment';

const settings = localSettings();
// Before any shared/ module loads: they read their configuration once, at import.
Object.assign(process.env, localFunctionEnvironment(settings));

const running: { stop(): Promise<void> }[] = [];
let stopping = false;

async function stopAll(exitCode: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const part of running.reverse()) await part.stop().catch(() => undefined);
  }
  process.exit(exitCode);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

async function main(): Promise<void> {
  const startedAt = Date.now();
  const dynamodb: RunningEmulator = await startDynamoDbLocal({
    port: settings.dynamodbPort,
    dataDir: join(settings.dataDir, 'dynamodb'),
  });
  running.push(dynamodb);
  const s3 = await startS3Emulator({ port: settings.s3Port, dataDir: join(settings.dataDir, 's3') });
  running.push(s3);

  await ensureTable(dynamodb.endpoint, LOCAL_TABLE);
  await ensureBucket(s3.endpoint, LOCAL_BUCKET);
  const { seedDemoData } = await import('./seed');
  await seedDemoData();
  const { registerDevApiKey } = await import('./dev-api-key');
  const devKey = await registerDevApiKey(settings.devApiKey);

  const { startLocalApi } = await import('./server');
  const api = await startLocalApi(settings.port);
  running.push({ stop: api.close });

  // The outbox relay runs every minute in AWS (an EventBridge schedule); here, a timer.
  const { handler: relayOutbox } = await import('../../functions/events/relay-outbox');
  const relay = setInterval(() => void relayOutbox().catch(() => undefined), 60_000);
  running.push({ stop: async () => clearInterval(relay) });

  // Webhooks: the dispatcher on the events file and the retry sweep, in this process (README "Webhooks").
  const { startLocalWebhooks } = await import('./webhook-pipeline');
  running.push(await startLocalWebhooks(process.env.LOCAL_EVENTS_FILE as string));

  console.log(`DynamoDB Local: ${dynamodb.endpoint} (data in ${settings.dataDir})`);
  console.log(`S3 emulator:    ${s3.endpoint}`);
  console.log(`Events:         ${process.env.LOCAL_EVENTS_FILE} (one JSON line per event)`);
  console.log(devKey.generated ? `Dev API key (shown once): ${devKey.plaintext}` : 'Dev API key: the value of DEV_API_KEY');
  console.log(`Lab API ready at ${api.url} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s — try: curl -H "x-api-key: <key>" ${api.url}/api/v1/locations`);
}

main().catch(async (error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(1);
});
