/**
 * The dev stage: a team's shared test deployment. No lab account (the lab CLI plays the lab), no alarms,
 * CORS off; data goes with the stack (decided by the stage's name, not here: see infra/settings.ts).
 * `cdk deploy` reads this file; `-c key=value` still overrides any value for one run.
 */
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
  terminationProtection: false,
  // A sandbox without patient data: no HIPAA checks, no KMS key ($1/month) and no backups of test data.
  hipaaControls: false,
};
