/**
 * Runs before each integration test file, before it imports anything from shared/: points the
 * configuration at the emulators and at a table (and bucket) of its own, created here.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureBucket, ensureTable } from '../../infra/local/bootstrap';

const suffix = randomUUID().slice(0, 8);
Object.assign(process.env, {
  TABLE_NAME: `test-${suffix}`,
  DOCUMENTS_BUCKET: `test-documents-${suffix}`,
  EVENT_BUS_NAME: 'test-bus',
  AWS_REGION: 'eu-central-1',
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  S3_ENDPOINT: inject('s3Endpoint'),
  // Patient email goes to the suite's SES emulator, never to AWS (test/support/ses.ts points a file at its own).
  SES_ENDPOINT: inject('sesEndpoint'),
  // The tests' webhook receivers listen on 127.0.0.1, as a developer's would on the local stack.
  WEBHOOKS_ALLOW_LOOPBACK: 'true',
  // Request lines are noise in test output; errors still print.
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  // A metrics line per request is noise too (test/integration/metrics.test.ts turns them on to read them).
  POWERTOOLS_METRICS_DISABLED: 'true',
  // The paged lists sign their cursors with it (docs/endpoints.md "Pagination"); a new one per file, as per deployment.
  CURSOR_SECRET: randomBytes(32).toString('base64url'),
});

await Promise.all([
  ensureTable(inject('dynamodbEndpoint'), process.env.TABLE_NAME as string),
  ensureBucket(inject('s3Endpoint'), process.env.DOCUMENTS_BUCKET as string),
]);
