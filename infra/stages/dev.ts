/**
 * The dev stage: a team's shared test deployment. No lab account (the lab CLI plays the lab), no alarms,
 * CORS off; its table, queues and logs go with the stack. `cdk deploy` reads this file; `-c key=value`
 * still overrides a value for one run (not the ones marked file-only in infra/settings.ts).
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { StageFile } from './stage-file';

export const dev: StageFile = {
  throttle: { rateLimit: 100, burstLimit: 200 },
  // Also what `npm start` holds keys without their own limits to.
  keyLimits: { rateLimit: 25, burstLimit: 50, dailyQuota: 50_000 },
  apiGatewayCloudWatchRole: true,
  corsAllowOrigins: [],
  documentRetentionYears: 10,
  auditRetentionDays: 730,
  criticalAckMinutes: 60,
  unmatchedWaitMinutes: 240,
  // The version of LabOrderRequested the lab orders queue receives: 2 (no lab of its own polls dev's queue).
  labOrdersQueueVersion: 2,
  // Patient email (docs/deploy.md "Patient email"): the sender, in a domain SES verifies (its DKIM records in your
  // DNS). The example reaches nobody: SES never verifies it. Reminders go 24 hours before the appointment.
  email: { fromAddress: 'no-reply@dev.lab.example.org' },
  reminderHoursBefore: 24,
  terminationProtection: false,
  // Test data: `cdk destroy` takes the table, queues and log groups with the stack.
  retainData: false,
  logRetention: RetentionDays.ONE_MONTH,
  // Nobody is on call for dev.
  alarms: false,
  // A sandbox without patient data: no HIPAA checks, no KMS key ($1/month) and no backups of test data.
  hipaaControls: false,
};
