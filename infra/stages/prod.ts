/**
 * The prod stage: the one people's health data lives in. Edit this file before the first deploy; a synth
 * refuses a stage file whose settings contradict each other or what patient data needs (infra/settings.ts),
 * and warns while alarmEmail still holds the example address below. Changes here are reviewed like code, because they are the deploy.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { StageFile } from './stage-file';

export const prod: StageFile = {
  // Stage-wide API Gateway limit, requests per second and burst: the ceiling over every client together.
  throttle: { rateLimit: 100, burstLimit: 200 },
  // Each API key without limits of its own: a quarter of the stage, so one runaway client cannot take it
  // all; 50,000 requests a day is ten times the busiest clinic's day.
  keyLimits: { rateLimit: 25, burstLimit: 50, dailyQuota: 50_000 },
  // API Gateway's logging role of the account and region, set once by the LabApi-account stack that every
  // stage's stack depends on; false where the account has one already (a landing zone's).
  apiGatewayCloudWatchRole: true,
  // Required: the alarm topic's subscriber. Replace with the on-call team's address (a list, not a person).
  alarmEmail: 'lab-api-oncall@example.org',
  // The lab's AWS account, when its systems run outside ours: may put results and upload reports, poll
  // orders. Unset: the lab integration runs in this account. Example: labAccountId: '123456789012',
  // Browser apps that may call the API, exact origins (docs/deploy.md "CORS"). Empty: no browser access.
  corsAllowOrigins: [],
  // §630f (3) BGB: a German practice keeps patient records 10 years after the treatment.
  documentRetentionYears: 10,
  // Two years of who read a person's data.
  auditRetentionDays: 730,
  // A critical value (a potassium of 6.8) must reach a clinician within the hour, or on-call hears of it.
  criticalAckMinutes: 60,
  // A lab report that matched no order (a mislabelled tube) is a real person's result: someone matches or discards
  // it within 4 hours, or on-call hears of it (docs/runbook.md).
  unmatchedWaitMinutes: 240,
  // The version of LabOrderRequested the lab orders queue receives: 1, what the lab's consumer was written
  // against, until the lab dispatches on schema_version; then 2 (docs/events-and-webhooks.md).
  labOrdersQueueVersion: 1,
  // Patient email (docs/deploy.md "Patient email"): the address patients hear from, and the domain SES verifies for it
  // (Easy DKIM: add its three CNAME records to the domain's DNS). Replace the example: SES never verifies it, and the
  // synth warns until it names your domain. A profile group's sender name and reply-to are reference data (infra/data).
  email: { fromAddress: 'no-reply@lab.example.org', domain: 'lab.example.org' },
  // The reminder email, this many hours before the appointment (bookings made later than that get it at once).
  reminderHoursBefore: 24,
  // The public origin of the patient's appointment page (docs/patient-page.md): a custom domain mapped to this
  // stage that serves its /p/{token} routes. Set, the booking, rescheduled and reminder emails carry the page's
  // link; unset, they carry none, and the link route's URLs use the API's own address. https, no path:
  // patientPageOrigin: 'https://patients.lab.example.org',
  // A WAF in front of the API (infra/waf.ts), off until the API faces the open internet beyond its clients:
  // wafRequestsPerIp: 30_000, (requests per source IP in 5 minutes, then 429: above one key's 7,500; $7/month + $0.60 per million)
  // The lab's interface engine, to send each order as HL7 v2 over MLLP (docs/deploy.md "Connecting a lab over MLLP"):
  // DevOps fill in the VPC routed to the lab (with a DynamoDB gateway endpoint and SQS and EventBridge interface
  // endpoints, or a NAT gateway), two private subnets, and the lab's addresses. Unset: no sender, lab_order stays null.
  // labInterface: {
  //   host: 'mllp.lab.example.net', port: 2575, tls: true,
  //   sendingFacility: 'LABAPI-PROD', receivingApplication: 'LIS', receivingFacility: 'CENTRAL-LAB',
  //   vpcId: 'vpc-0123456789abcdef0', subnetIds: ['subnet-0123456789abcdef0', 'subnet-0fedcba9876543210'],
  //   labCidr: '10.20.0.0/16',
  // },
  // `cdk destroy` and a console delete are refused until someone turns this off on purpose.
  terminationProtection: true,
  // The table (deletion protection on), queues and logs outlive the stack: delete them by hand, deliberately.
  retainData: true,
  // A year of logs: a failure's context, and who called what (the API access log), long after the fact.
  logRetention: RetentionDays.ONE_YEAR,
  // Every function, queue, rule and the service levels watched; the alarm topic notifies alarmEmail.
  alarms: true,
  // People's health data: the HIPAA checks run on every synth, logs are encrypted with the stack's own KMS
  // key, AWS Backup keeps daily and monthly copies. Cannot be turned off here, and requires retainData and
  // alarms (infra/settings.ts).
  hipaaControls: true,
};
