/**
 * The shape of a stage file (infra/stages/<stage>.ts); infra/settings.ts checks the values. What a stage's
 * stack does follows from these values alone, never from the stage's name: retainData, logRetention,
 * alarms, terminationProtection and hipaaControls are what makes a stage production-grade.
 */
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';

export interface StackSettings {
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * The request limits of an API key that has none of its own (`npm run keys -- create --rate-limit …`):
   * requests per second, burst, requests per UTC day (null: no quota). Issue #31.
   */
  readonly keyLimits: { readonly rateLimit: number; readonly burstLimit: number; readonly dailyQuota: number | null };
  /**
   * API Gateway's logging role of the stage's account and region is set by the app's `LabApi-account` stack
   * (infra/account-stack.ts), which this stage's stack then depends on; false: the account has one already
   * (a landing zone's), and the app leaves it alone.
   */
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
   * counts it (CRITICAL_ACK_MINUTES) and, with alarms, the alarm fires.
   */
  readonly criticalAckMinutes: number;
  /**
   * Minutes a lab report whose barcode matched no drawn order may wait to be matched or discarded (issue #51)
   * before the same check counts it (UNMATCHED_WAIT_MINUTES) and, with alarms, its alarm fires. 240 (4 hours)
   * in every stage file: the default the issue asks for.
   */
  readonly unmatchedWaitMinutes: number;
  /**
   * The version of LabOrderRequested the lab orders queue (the one the lab polls) receives: 1, what the lab's
   * consumer was written against, rendered from the bus's version 2 by the queue's rule; 2 once the lab reads
   * schema_version (docs/events-and-webhooks.md). Other consumers of the bus get version 2.
   */
  readonly labOrdersQueueVersion: 1 | 2;
  readonly terminationProtection: boolean;
  /**
   * The table (with its deletion protection on), the queues and dead-letter queues and every log group
   * outlive the stack: deleting it leaves them, to be deleted by hand, deliberately. false: they go with the
   * stack (a stage of test data). The buckets outlive every stack either way (S3 cannot delete a full one).
   */
  readonly retainData: boolean;
  /** How long CloudWatch Logs keeps the functions' and the API's logs (a finite period). */
  readonly logRetention: RetentionDays;
  /**
   * Alarms on every function, queue, rule and the service levels, the dashboard, and the SNS topic they
   * notify (infra/monitoring.ts): alarmEmail is then required. false: none of them, nothing watched.
   */
  readonly alarms: boolean;
  /**
   * The stage holds patient data and is held to HIPAA's Security Rule: cdk-nag's HIPAASecurityChecks run on
   * its synth (infra/app.ts), its logs are encrypted with a customer-managed KMS key, and AWS Backup copies
   * its table and report files (infra/hipaa-controls.ts). Requires retainData and alarms: patient data is
   * never deleted with a stack, nor left unwatched. Prod must say true.
   */
  readonly hipaaControls: boolean;
  /**
   * A web application firewall in front of the stage (infra/waf.ts): AWS's managed common rule set, and at
   * most this many requests per source IP in 5 minutes (then 429). Unset: no WAF ($5/month plus $1 per
   * rule and $0.60 per million requests when on).
   */
  readonly wafRequestsPerIp?: number;
  /**
   * The lab's interface engine, to which the lab order sender delivers each order as HL7 v2 over MLLP (issue
   * #51, infra/lab-order-sender.ts, docs/deploy.md "Connecting a lab over MLLP"). Unset: no sender, and the
   * appointments' lab_order stays null (the lab may still poll the lab orders queue).
   */
  readonly labInterface?: LabInterfaceSettings;
  /**
   * Patient email (issue #52, infra/patient-email.ts): the address every message is sent from, and the domain
   * SES verifies for it (an SES identity with Easy DKIM: its three CNAME records go into the domain's DNS,
   * docs/deploy.md "Patient email"). Unset domain: the address's own.
   */
  readonly email: EmailSettings;
  /**
   * Whole hours before an appointment its reminder is sent (REMINDER_HOURS_BEFORE of the email functions);
   * 24 in every stage file, the default the issue asks for.
   */
  readonly reminderHoursBefore: number;
  /**
   * The public origin of the patient's appointment page (issue #53, docs/patient-page.md), e.g.
   * `https://patients.lab.example.org`: an https origin, no path, that serves this stage's `/p/{token}` routes
   * (a custom domain mapped to the API's stage). Links are `${origin}/p/{token}` (PATIENT_PAGE_ORIGIN of the
   * email functions and the link's routes), and the booking, rescheduled and reminder emails carry one only when
   * it is set. Unset: no link in the emails, and the link route's URLs use the API's own address.
   */
  readonly patientPageOrigin?: string;
}

/** Who patients hear from: the sender address, and the SES domain identity it is sent through. */
export interface EmailSettings {
  /** The From address of every patient email, e.g. `no-reply@lab.example.org`: in `domain`, or a subdomain of it. */
  readonly fromAddress: string;
  /** The domain SES verifies (DKIM) and sends from; default: the address's domain. */
  readonly domain?: string;
}

/** Where the lab's engine listens and how our function reaches it: DevOps fill in the network the lab is routed from. */
export interface LabInterfaceSettings {
  /** Its host name or IP address, as reached from the subnets below (over a VPN or Direct Connect, typically). */
  readonly host: string;
  readonly port: number;
  /** MLLP over TLS (the engine's certificate checked against Node's bundled Mozilla CAs, or caCertificate, and the host name). */
  readonly tls: boolean;
  /**
   * The lab's private CA (PEM, -----BEGIN CERTIFICATE-----…), trusted instead of the public CAs when its engine's
   * certificate is signed by it; TLS only. It reaches the function's environment (4 KB in all): at most 3072 characters.
   */
  readonly caCertificate?: string;
  /** MSH-4: our facility, as the lab knows it. */
  readonly sendingFacility: string;
  /** MSH-5 and MSH-6: the lab's application and facility, as its engine routes on them. */
  readonly receivingApplication: string;
  readonly receivingFacility: string;
  /** The VPC with the route to the lab; it needs a DynamoDB gateway endpoint and SQS and EventBridge interface endpoints, or a NAT gateway. */
  readonly vpcId: string;
  /** Private subnets of that VPC for the function, in at least two availability zones. */
  readonly subnetIds: readonly string[];
  /** The addresses of the lab's engine: the security group allows MLLP there only. */
  readonly labCidr: string;
  /** An existing security group to use instead of the one the stack makes (egress to labCidr:port and HTTPS). */
  readonly securityGroupId?: string;
}

/** What a stage file holds: every setting, the optional ones optional. */
export type StageFile = StackSettings;
