/** The shape of a stage file (infra/stages/<stage>.ts); infra/settings.ts checks the values. */
export interface StackSettings {
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * The request limits of an API key that has none of its own (`npm run keys -- create --rate-limit …`):
   * requests per second, burst, requests per UTC day (null: no quota). Issue #31.
   */
  readonly keyLimits: { readonly rateLimit: number; readonly burstLimit: number; readonly dailyQuota: number | null };
  readonly apiGatewayCloudWatchRole: boolean;
  readonly labAccountId?: string;
  readonly alarmEmail?: string;
  /** Exact origins, in the form browsers send them; empty: CORS off. */
  readonly corsAllowOrigins: readonly string[];
  /** Whole years a lab report file is kept before the bucket's lifecycle rule deletes it. */
  readonly documentRetentionYears: number;
  /** Whole days an access-log entry is kept (AUDIT_RETENTION_DAYS of the reading functions). */
  readonly auditRetentionDays: number;
  /**
   * Minutes a critical result may wait for a clinician's acknowledgement before the critical results check
   * counts it (CRITICAL_ACK_MINUTES) and, in prod, the alarm fires.
   */
  readonly criticalAckMinutes: number;
  readonly terminationProtection: boolean;
  /**
   * The stage holds patient data and is held to HIPAA's Security Rule: cdk-nag's HIPAASecurityChecks run on
   * its synth (infra/app.ts), its logs are encrypted with a customer-managed KMS key, and AWS Backup copies
   * its table and report files (infra/hipaa-controls.ts). Prod must say true.
   */
  readonly hipaaControls: boolean;
  /**
   * A web application firewall in front of the stage (infra/waf.ts): AWS's managed common rule set, and at
   * most this many requests per source IP in 5 minutes (then 429). Unset: no WAF ($5/month plus $1 per
   * rule and $0.60 per million requests when on).
   */
  readonly wafRequestsPerIp?: number;
}

/** What a stage file holds: every setting, the optional ones optional. */
export type StageFile = StackSettings;
