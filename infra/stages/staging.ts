/**
 * The staging stage: the pipeline's test stage between dev and prod (docs/delivery.md). Every commit of
 * main deploys here first and the smoke test runs against it (with a sandbox key), before anyone approves
 * prod. So it answers clients as prod does and deploys what prod deploys where a deploy can break, but it
 * holds test data only and costs less:
 *
 * - as prod: the key limits (a client testing here sees prod's 429s), the retention of documents and the
 *   access log, criticalAckMinutes, and the alarms with their dashboard and topic: the Monitoring stack
 *   changes with every new function and route, and a change CloudWatch refuses fails here, not in prod.
 * - cheaper: no patient data, so no HIPAA controls (no KMS key, no AWS Backup copies; the HIPAA checks still
 *   run on every synth of prod, in the pipeline's tests), a month of logs instead of a year, data deleted
 *   with the stack (no deletion protection, no termination protection: staging may be rebuilt), and half
 *   prod's stage-wide throttle, still above any one key's limits.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { StageFile } from './stage-file';

export const staging: StageFile = {
  // Half of prod's ceiling bounds what a runaway test can cost; each key's own limits below are prod's.
  throttle: { rateLimit: 50, burstLimit: 100 },
  keyLimits: { rateLimit: 25, burstLimit: 50, dailyQuota: 50_000 },
  // The account's logging role from LabApi-account, shared with any stage of the same account (never prod's
  // when the pipeline deploys: prod has an account of its own, docs/delivery.md).
  apiGatewayCloudWatchRole: true,
  // Required by the alarms: the team's address (not the one that pages on-call). Replace the example.
  alarmEmail: 'lab-api-staging@example.org',
  // No lab account: no lab consumes staging's orders (the smoke test's sandbox orders never reach the lab
  // orders queue; a live key's draw here would, and its age alarm fires an hour later: docs/deploy.md).
  corsAllowOrigins: [],
  documentRetentionYears: 10,
  auditRetentionDays: 730,
  criticalAckMinutes: 60,
  unmatchedWaitMinutes: 240,
  // The version of LabOrderRequested the lab orders queue receives: 1, what the lab's consumer was written
  // against, until the lab dispatches on schema_version; then 2 (docs/events-and-webhooks.md).
  labOrdersQueueVersion: 1,
  // Patient email: as prod, from the stage's own sender domain (replace the example; SES never verifies it).
  email: { fromAddress: 'no-reply@staging.lab.example.org' },
  reminderHoursBefore: 24,
  terminationProtection: false,
  // Test data: the table, queues and logs go with the stack.
  retainData: false,
  logRetention: RetentionDays.ONE_MONTH,
  alarms: true,
  // No patient data here: sandbox and test keys only.
  hipaaControls: false,
};
