/**
 * The local server of a load run, alone in a process of its own (forked by ./local-stack.ts): what `npm start`
 * runs in its process — every route behind the gateway's key check and per-key limits, the webhook, lab order
 * and email pipelines on the events file, the outbox relay every minute — and nothing else, so that its memory
 * and CPU are its own (the soak's figures) and not the load generator's or the emulators'. The emulators run in
 * the load process, which stops and starts them for the faults; this one only sees them go and come back.
 *
 * It answers the load process over IPC (./server-control.ts): a partner's key, a lab report ingested as
 * `npm run lab` ingests it, the relay run now, the webhook retries due by a later clock, its memory after a GC,
 * and the checks that read the table and the events file (./table-checks.ts). The environment (table, bucket,
 * events file, emulator endpoints) comes from the load process, set before any shared/ module loads.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { dev } from '../stages/dev';
import { labReport } from '../bench/api-client';
import { labResultsReportedEvent } from '../cli/lab-event';
import { startLocalApi } from '../local/server';
import { ensureBucket, ensureTable } from '../local/bootstrap';
import { seedDemoData } from '../local/seed';
import type { ControlRequest, ControlAnswer } from './server-control';

const eventsFile = process.env.LOCAL_EVENTS_FILE as string;
const port = Number(process.env.PORT);

await Promise.all([
  ensureTable(process.env.DYNAMODB_ENDPOINT as string, process.env.TABLE_NAME as string),
  ensureBucket(process.env.S3_ENDPOINT as string, process.env.DOCUMENTS_BUCKET as string),
]);
await seedDemoData();
const [{ relayOutbox, RELAY_AFTER_MS }, { attemptDueDeliveries }, webhooks, labOrders, email, relay] = await Promise.all([
  import('../../shared/usecases/publish-events'),
  import('../../shared/usecases/deliver-webhooks'),
  import('../local/webhook-pipeline'),
  import('../local/lab-order-pipeline'),
  import('../local/email-pipeline'),
  import('../../functions/events/relay-outbox'),
]);

const { rateLimit, burstLimit, dailyQuota } = dev.keyLimits;
const api = await startLocalApi(port, { keyLimits: { stageDefault: { rate_limit: rateLimit, burst: burstLimit, daily_quota: dailyQuota } } });
const relayTimer = setInterval(() => void relay.handler().catch(() => undefined), 60_000);
const parts = [await webhooks.startLocalWebhooks(eventsFile), await labOrders.startLocalLabOrders(eventsFile), await email.startLocalEmail(eventsFile)];

/** A report PDF as the lab uploads one (`npm run lab` renders a real one; its bytes do not matter here). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

const commands: { [K in ControlRequest['command']]: (request: Extract<ControlRequest, { command: K }>) => Promise<unknown> } = {
  async issueKey({ name }) {
    const [{ issueApiKey }, { SCOPES }, seed] = await Promise.all([
      import('../../shared/auth/api-keys'),
      import('../../shared/domain/scopes'),
      import('../local/seed-data'),
    ]);
    const issued = await issueApiKey(
      {
        name,
        scopes: [...SCOPES],
        profileGroups: seed.PROFILE_GROUPS.map((group) => group.slug),
        locationGroups: [...seed.LOCATION_GROUPS],
        expiresAt: null,
      },
      new Date(),
    );
    return { keyId: issued.keyId, plaintext: issued.plaintext };
  },
  // As `npm run lab -- report <id>` does it (infra/cli/lab-cli.ts): the PDF uploaded to incoming/, then the
  // LabResultsReported event handed to the results-ingest function. A failure (S3 or DynamoDB down) throws,
  // and the load process hands the report again later, as the lab's EventBridge retry would.
  // The same report handed again keeps its event_id and upload: the ingest acknowledges a duplicate.
  async ingest({ appointmentId, reportId }) {
    const [{ s3 }, { handler: ingest }] = await Promise.all([import('../../shared/documents/s3'), import('../../functions/events/results-ingest')]);
    const key = `incoming/${reportId}.pdf`;
    await s3.send(new PutObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: key, Body: PDF, ContentType: 'application/pdf' }));
    const detail = { ...labReport(appointmentId, [{ s3_key: key, file_name: 'report.pdf', content_type: 'application/pdf' }]), event_id: reportId };
    return ingest(labResultsReportedEvent(detail, detail.reported_at) as Parameters<typeof ingest>[0]);
  },
  // Every entry, however young: the run is over, no request is writing one now.
  relay: () => relayOutbox(new Date(Date.now() + RELAY_AFTER_MS + 1_000)),
  async sweepAhead({ aheadMs }) {
    let attempted = 0;
    for (let round = 0; round < 50; round++) {
      const count = await attemptDueDeliveries(new Date(Date.now() + aheadMs), 100);
      attempted += count;
      if (count === 0) break;
    }
    return attempted;
  },
  async memory() {
    globalThis.gc?.();
    const { rss, heapUsed, heapTotal } = process.memoryUsage();
    return { rss, heapUsed, heapTotal };
  },
  async check(request) {
    const { tableChecks } = await import('./table-checks');
    return tableChecks(request);
  },
};

process.on('message', (message: ControlRequest & { id: number }) => {
  const run = commands[message.command] as (request: ControlRequest) => Promise<unknown>;
  run(message)
    .then(
      (result): ControlAnswer => ({ id: message.id, ok: true, result }),
      (error: unknown): ControlAnswer => ({ id: message.id, ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
    )
    .then((answer) => process.send?.(answer));
});

process.on('disconnect', () => {
  clearInterval(relayTimer);
  void Promise.all(parts.map((part) => part.stop()))
    .then(api.close)
    .finally(() => process.exit(0));
});

process.send?.({ ready: api.url });
