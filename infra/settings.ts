/**
 * A stage's settings: the committed stage file (infra/stages/<stage>.ts) with any `cdk synth|deploy
 * -c key=value` on top, checked in one place. A malformed value, or a stage without one its other settings
 * require, fails the synth with its name: nothing deploys a surprise. Values given on the command line arrive as
 * strings, those from cdk.json or a test as their JSON types: both are accepted. `-c key=` (empty) unsets
 * an optional value for that run.
 *
 * | context key                 | stage file field        | meaning                                                   |
 * |-----------------------------|-------------------------|-----------------------------------------------------------|
 * | `stage`                     | —                       | `dev` (default), or any stage of STAGE_FILES (a file in infra/stages/) |
 * | `apiThrottleRate`           | `throttle.rateLimit`    | API stage steady-state limit, requests per second         |
 * | `apiThrottleBurst`          | `throttle.burstLimit`   | API stage burst limit, requests                           |
 * | —                           | `keyLimits`             | requests per second, burst and daily quota of a key without its own |
 * | `apiGatewayCloudWatchRole`  | same                    | set the region's API Gateway logging role (false: already set) |
 * | `labAccountId`              | same                    | AWS account of the lab: may put results, upload, read orders |
 * | `alarmEmail`                | same (alarms: required) | subscribe this address to the alarm topic                 |
 * | `corsAllowOrigins`          | same                    | browser apps that may call the API: exact origins, comma-separated (docs/deploy.md "CORS"); empty: no CORS |
 * | `documentRetentionYears`    | same                    | lab report files under documents/ are deleted this many years after they were stored (docs/privacy.md "Privacy") |
 * | `auditRetentionDays`        | same                    | access-log entries are deleted (DynamoDB TTL) this many days after the read (docs/privacy.md "Privacy") |
 * | `criticalAckMinutes`        | same                    | a critical result unacknowledged this long is counted by the check, and alarms (alarms) |
 * | `unmatchedWaitMinutes`      | same                    | a lab report that matched no order, waiting this long to be matched or discarded, is counted by the same check, and alarms (alarms) |
 * | `terminationProtection`     | same                    | CloudFormation refuses to delete the stack                |
 * | `wafRequestsPerIp`          | same                    | a WAF in front of the stage: AWS's common rule set, and at most this many requests per IP in 5 minutes; unset: no WAF |
 * | —                           | `labOrdersQueueVersion` | the LabOrderRequested version the lab orders queue receives: 1 (rendered from 2 by its rule) until the lab reads schema_version, then 2 |
 * | —                           | `email`                 | patient email: `fromAddress`, the sender, and `domain` (default: the address's), the SES identity verified for it; the address must be in that domain |
 * | `reminderHoursBefore`       | same                    | whole hours before an appointment its reminder email goes (1–999; 24 in every stage file) |
 * | —                           | `patientPageOrigin`     | the public https origin of the patient's appointment page (no path); the emails carry its link only when set; unset: the link route's URLs use the API's own address |
 * | —                           | `labInterface`          | the lab's engine the lab order sender delivers orders to over MLLP (over TLS: its private CA in caCertificate, if any), and the VPC it is reached from; unset: no sender |
 * | —                           | `retainData`            | the table (deletion protection on), queues and log groups outlive the stack |
 * | —                           | `logRetention`          | how long CloudWatch Logs keeps the functions' and the API's logs |
 * | —                           | `alarms`                | alarms, dashboard and alarm topic (infra/monitoring.ts); requires alarmEmail |
 * | —                           | `hipaaControls`         | HIPAA checks on synth, logs under the stack's KMS key, AWS Backup (infra/hipaa-controls.ts); requires retainData and alarms; prod: must be true |
 *
 * Production-grade behaviour follows from these settings, never from the stage's name: a stage file decides
 * it, reviewed like code. The settings marked "—" in the first column are the file's only (no `-c`): what
 * happens to patient data is never one flag away. And a stage that deletes patient data with its stack is
 * never one edited line away from prod: prod's file must say hipaaControls, which requires retainData and
 * alarms.
 */
import type { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';
import * as v from 'valibot';
import { MAX_BURST, MAX_DAILY_QUOTA, MAX_RATE_LIMIT } from '../shared/domain/rate-limits';
import { AllowedOrigins } from '../shared/http/cors-policy';
import { ACCOUNT_STACK_ID } from './account-stack';
import { dev } from './stages/dev';
import type { EmailSettings, StackSettings, StageFile } from './stages/stage-file';
import { prod } from './stages/prod';
import { staging } from './stages/staging';

export type { EmailSettings, StackSettings, StageFile } from './stages/stage-file';

/**
 * Every stage, by name: its file is infra/stages/<name>.ts, exporting the const <name>. A new stage is a new
 * file there and its line here (test/infra/stage-settings.test.ts fails on a file that is not listed).
 */
export const STAGE_FILES = { dev, staging, prod } as const satisfies Readonly<Record<string, StageFile>>;

export type StageName = keyof typeof STAGE_FILES;
export const STAGES = Object.keys(STAGE_FILES) as readonly StageName[];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ACCOUNT_ID = /^\d{12}$/;
/** RFC 2606's reserved domains: an address there reaches nobody. */
const EXAMPLE_DOMAIN = /@(.+\.)?example\.(com|org|net)$/i;

/** The periods CloudWatch Logs can keep a log group's events, in days: every one but forever. */
const LOG_RETENTIONS = Object.values(RetentionDays).filter((days): days is RetentionDays => typeof days === 'number' && days !== RetentionDays.INFINITE);

const wholeNumber = (min: number, max: number, unit: string) =>
  v.pipe(v.number(), v.integer(`must be a whole number of ${unit}`), v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));

/** A name HL7 v2 carries in an HD component unescaped: printable, none of its delimiters. */
const HL7_NAME = /^[^|^~\\&\r\n]{1,180}$/;
const HL7_NAME_MESSAGE = 'must be 1 to 180 characters without | ^ ~ \\ & or line breaks';

/** A DNS domain SES can verify: labels of letters, digits and hyphens, a top-level label of letters. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** The domain of the stage's SES identity: `email.domain`, or the sender address's own. */
export const senderDomain = (email: EmailSettings): string => (email.domain ?? email.fromAddress.slice(email.fromAddress.lastIndexOf('@') + 1)).toLowerCase();

/** Whether SES may send `fromAddress` through the identity of `domain`: the address is in it or in a subdomain of it. */
const inDomain = (fromAddress: string, domain: string) => {
  const addressDomain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  return addressDomain === domain.toLowerCase() || addressDomain.endsWith(`.${domain.toLowerCase()}`);
};

/**
 * An https origin exactly as a browser names it in `Origin`: scheme, lower-case host, a port only if not 443; no
 * path (not even `/`), query, fragment or user info. The patient's page checks its posts' Origin against it.
 */
const isHttpsOrigin = (text: string): boolean => URL.canParse(text) && new URL(text).protocol === 'https:' && new URL(text).origin === text;

/** What AWS WAF accepts as a rate-based rule's limit. */
const WAF_MIN_RATE = 10;
const WAF_MAX_RATE = 2_000_000_000;

/** The same rules as the `-c` parsers below, for the values of a stage file. */
const StageFileSchema = v.strictObject({
  throttle: v.strictObject({
    rateLimit: v.pipe(v.number(), v.gtValue(0, 'must be a positive number')),
    burstLimit: wholeNumber(1, 5000, 'requests'),
  }),
  keyLimits: v.strictObject({
    rateLimit: wholeNumber(1, MAX_RATE_LIMIT, 'requests per second'),
    burstLimit: wholeNumber(1, MAX_BURST, 'requests'),
    dailyQuota: v.nullable(wholeNumber(1, MAX_DAILY_QUOTA, 'requests')),
  }),
  apiGatewayCloudWatchRole: v.boolean(),
  labAccountId: v.optional(v.pipe(v.string(), v.regex(ACCOUNT_ID, 'must be a 12-digit AWS account id'))),
  alarmEmail: v.optional(v.pipe(v.string(), v.regex(EMAIL, 'must be an email address'))),
  corsAllowOrigins: v.array(v.string()),
  documentRetentionYears: wholeNumber(1, 100, 'years'),
  // The functions' own check (shared/config.ts) would refuse anything else at cold start: refuse it at synth.
  auditRetentionDays: wholeNumber(1, 99_999, 'days'),
  criticalAckMinutes: wholeNumber(1, 9999, 'minutes'),
  // The functions' own check (shared/config.ts UNMATCHED_WAIT_MINUTES) takes 1 to 99999.
  unmatchedWaitMinutes: wholeNumber(1, 99_999, 'minutes'),
  labOrdersQueueVersion: v.picklist([1, 2], 'must be 1 or 2'),
  terminationProtection: v.boolean(),
  retainData: v.boolean(),
  logRetention: v.picklist(LOG_RETENTIONS, `must be a RetentionDays period CloudWatch Logs keeps logs for, never INFINITE (${LOG_RETENTIONS.join(', ')} days)`),
  alarms: v.boolean(),
  hipaaControls: v.boolean(),
  wafRequestsPerIp: v.optional(wholeNumber(WAF_MIN_RATE, WAF_MAX_RATE, 'requests')),
  labInterface: v.optional(
    v.pipe(
      v.strictObject({
        host: v.pipe(v.string(), v.regex(/^[A-Za-z0-9.-]{1,253}$/, 'must be a host name or an IPv4 address')),
        port: wholeNumber(1, 65_535, 'a port'),
        tls: v.boolean(),
        // The lab's private CA in PEM; the message never quotes the value. Lambda's environment holds 4 KB in all.
        caCertificate: v.optional(
          v.pipe(
            v.string(),
            v.regex(
              /^(?:-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*)+$/,
              'must be PEM certificates (-----BEGIN CERTIFICATE-----…-----END CERTIFICATE-----)',
            ),
            v.maxLength(3072, "must be at most 3072 characters (Lambda's environment holds 4 KB in all)"),
          ),
        ),
        // What HL7's HD (MSH-4 to MSH-6) holds: no delimiter of ours (| ^ ~ \ &), at most 180 characters.
        sendingFacility: v.pipe(v.string(), v.regex(HL7_NAME, HL7_NAME_MESSAGE)),
        receivingApplication: v.pipe(v.string(), v.regex(HL7_NAME, HL7_NAME_MESSAGE)),
        receivingFacility: v.pipe(v.string(), v.regex(HL7_NAME, HL7_NAME_MESSAGE)),
        vpcId: v.pipe(v.string(), v.regex(/^vpc-[0-9a-f]{8,17}$/, 'must be a VPC id (vpc-…)')),
        subnetIds: v.pipe(
          v.array(v.pipe(v.string(), v.regex(/^subnet-[0-9a-f]{8,17}$/, 'must be subnet ids (subnet-…)'))),
          v.minLength(1, 'must name a subnet'),
        ),
        labCidr: v.pipe(v.string(), v.regex(/^(?:\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/, 'must be an IPv4 CIDR block, e.g. 10.20.0.0/16 or 10.20.1.5/32')),
        securityGroupId: v.optional(v.pipe(v.string(), v.regex(/^sg-[0-9a-f]{8,17}$/, 'must be a security group id (sg-…)'))),
      }),
      v.forward(
        v.check((lab) => lab.caCertificate === undefined || lab.tls, 'is read over TLS only: set tls: true'),
        ['caCertificate'],
      ),
    ),
  ),
  email: v.pipe(
    v.strictObject({
      fromAddress: v.pipe(v.string(), v.regex(EMAIL, 'must be an email address, e.g. no-reply@lab.example.org')),
      domain: v.optional(v.pipe(v.string(), v.regex(DOMAIN, 'must be a DNS domain, e.g. lab.example.org'))),
    }),
    v.forward(
      v.check(
        (email) => email.domain === undefined || inDomain(email.fromAddress, email.domain),
        'must be an address in email.domain or a subdomain of it: SES sends only from a verified identity',
      ),
      ['fromAddress'],
    ),
  ),
  // The functions' own check (shared/config.ts REMINDER_HOURS_BEFORE) takes 1 to 999.
  reminderHoursBefore: wholeNumber(1, 999, 'hours'),
  patientPageOrigin: v.optional(
    v.pipe(
      v.string(),
      v.check(isHttpsOrigin, 'must be an https origin as a browser names it, e.g. https://patients.lab.example.org: no path, not even a trailing /'),
    ),
  ),
});

export function stageOf(app: App): StageName {
  const value: unknown = app.node.tryGetContext('stage') ?? 'dev';
  const stage = STAGES.find((candidate) => candidate === value);
  if (!stage) {
    throw new Error(
      `Unknown stage ${JSON.stringify(value)}: use -c stage=${STAGES.join(', -c stage=')}; a new stage is a file in infra/stages/ (docs/deploy.md "Adding a stage")`,
    );
  }
  return stage;
}

/** A `-c` value, or `null` for `-c key=` (unset), or undefined when not given. */
function given(scope: IConstruct, key: string): unknown {
  const raw: unknown = scope.node.tryGetContext(key);
  return raw === '' ? null : raw;
}

function positiveNumber(scope: IConstruct, key: string, fallback: number): number {
  const raw = given(scope, key);
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`Context ${key} must be a positive number, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function flag(scope: IConstruct, key: string, fallback: boolean): boolean {
  const raw = given(scope, key);
  if (raw === undefined) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`Context ${key} must be true or false, got ${JSON.stringify(raw)}`);
}

function matching(scope: IConstruct, key: string, fallback: string | undefined, pattern: RegExp, what: string): string | undefined {
  const raw = given(scope, key);
  if (raw === undefined) return fallback;
  if (raw === null) return undefined;
  if (typeof raw !== 'string' || !pattern.test(raw)) throw new Error(`Context ${key} must be ${what}, got ${JSON.stringify(raw)}`);
  return raw;
}

/** A list of origins (the stage file's, or `-c corsAllowOrigins=https://a.example,https://b.example`), canonical. */
function origins(scope: IConstruct, key: string, fallback: readonly string[], file: string): readonly string[] {
  const raw = given(scope, key);
  const value = raw === undefined ? fallback : raw === null ? [] : raw;
  if (Array.isArray(value) && value.length === 0) return [];
  const parsed = v.safeParse(AllowedOrigins, Array.isArray(value) ? value.join(',') : value);
  if (!parsed.success) throw new Error(`${raw === undefined ? file : 'Context'} ${key}: ${parsed.issues[0].message}`);
  return parsed.output;
}

function wholeNumberOf(scope: IConstruct, key: string, fallback: number, unit: string, max: number): number {
  const value = positiveNumber(scope, key, fallback);
  if (!Number.isInteger(value) || value > max) throw new Error(`Context ${key} must be a whole number of ${unit} from 1 to ${max}, got ${value}`);
  return value;
}

/** An optional whole number: the stage file's, a `-c` value on top, `-c key=` to unset it for one run. */
function optionalWholeNumber(scope: IConstruct, key: string, fallback: number | undefined, unit: string, min: number, max: number): number | undefined {
  const raw = given(scope, key);
  if (raw === undefined) return fallback;
  if (raw === null) return undefined;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`Context ${key} must be a whole number of ${unit} from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Where a stage's file lives, as error messages name it. */
export const stageFilePath = (stage: StageName) => `infra/stages/${stage}.ts`;

/** The stage file checked on its own: a bad committed value is the file's fault, whatever `-c` says. */
function checkedFile(stage: StageName, file: StageFile): StageFile {
  // Its stack would be LabApi-account, the name of the account's own stack (infra/account-stack.ts).
  if (`LabApi-${stage as string}` === ACCOUNT_STACK_ID) throw new Error(`${stageFilePath(stage)}: the stage name "${stage}" is taken by ${ACCOUNT_STACK_ID}`);
  const parsed = v.safeParse(StageFileSchema, file);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new Error(`${stageFilePath(stage)}: ${v.getDotPath(issue) ?? '(the file)'} ${issue.message}`);
  }
  // Prod holds people's health data: the stage that does must never be one edited line away from no controls.
  if (stage === 'prod' && !file.hipaaControls) {
    throw new Error(`${stageFilePath(stage)}: hipaaControls must be true: the prod stage holds patient data`);
  }
  // Patient data is never deleted with a stack, nor left unwatched.
  for (const key of ['retainData', 'alarms'] as const) {
    if (file.hipaaControls && !file[key]) throw new Error(`${stageFilePath(stage)}: ${key} must be true: hipaaControls says the stage holds patient data`);
  }
  return file;
}

/**
 * The settings of `stage`: its stage file, then any `-c` value on top. Throws, naming the value and where it
 * came from, on anything malformed, and when a value the stage requires is missing.
 */
export function readSettings(scope: IConstruct, stage: StageName, stageFile: StageFile = STAGE_FILES[stage]): StackSettings {
  const file = checkedFile(stage, stageFile);
  const path = stageFilePath(stage);
  const settings: StackSettings = {
    throttle: {
      rateLimit: positiveNumber(scope, 'apiThrottleRate', file.throttle.rateLimit),
      burstLimit: Math.round(positiveNumber(scope, 'apiThrottleBurst', file.throttle.burstLimit)),
    },
    // The stage file's only (no -c): a default every client is held to is reviewed like code.
    keyLimits: file.keyLimits,
    apiGatewayCloudWatchRole: flag(scope, 'apiGatewayCloudWatchRole', file.apiGatewayCloudWatchRole),
    labAccountId: matching(scope, 'labAccountId', file.labAccountId, ACCOUNT_ID, 'a 12-digit AWS account id'),
    alarmEmail: matching(scope, 'alarmEmail', file.alarmEmail, EMAIL, 'an email address'),
    corsAllowOrigins: origins(scope, 'corsAllowOrigins', file.corsAllowOrigins, path),
    documentRetentionYears: wholeNumberOf(scope, 'documentRetentionYears', file.documentRetentionYears, 'years', 100),
    auditRetentionDays: wholeNumberOf(scope, 'auditRetentionDays', file.auditRetentionDays, 'days', 99_999),
    criticalAckMinutes: wholeNumberOf(scope, 'criticalAckMinutes', file.criticalAckMinutes, 'minutes', 9999),
    unmatchedWaitMinutes: wholeNumberOf(scope, 'unmatchedWaitMinutes', file.unmatchedWaitMinutes, 'minutes', 99_999),
    // The stage file's only (no -c): which version the lab's consumer reads is agreed with the lab, like code.
    labOrdersQueueVersion: file.labOrdersQueueVersion,
    terminationProtection: flag(scope, 'terminationProtection', file.terminationProtection),
    // The stage file's only (no -c): what happens to data and who is alarmed is reviewed like code, never one flag away.
    retainData: file.retainData,
    logRetention: file.logRetention,
    alarms: file.alarms,
    hipaaControls: file.hipaaControls,
    wafRequestsPerIp: optionalWholeNumber(scope, 'wafRequestsPerIp', file.wafRequestsPerIp, 'requests', WAF_MIN_RATE, WAF_MAX_RATE),
    // The stage file's only (no -c): where patient data is sent, and through which network, is reviewed like code.
    ...(file.labInterface && { labInterface: file.labInterface }),
    // The stage file's only (no -c): who patients hear from, and through which verified domain, is reviewed like code.
    email: file.email,
    reminderHoursBefore: wholeNumberOf(scope, 'reminderHoursBefore', file.reminderHoursBefore, 'hours', 999),
    // The stage file's only (no -c): where patients' emails send them is reviewed like code.
    ...(file.patientPageOrigin && { patientPageOrigin: file.patientPageOrigin }),
  };
  // Alarms nobody receives are no alarms.
  if (settings.alarms && settings.alarmEmail === undefined) {
    throw new Error(`The ${stage} stage requires alarmEmail: set it in ${path} (or pass -c alarmEmail=…): its alarms notify that address`);
  }
  return settings;
}

/** Why a stage's settings may not be what its operators want, said at synth without stopping it. */
export function settingsWarnings(stage: StageName, settings: StackSettings): string[] {
  // Only where someone is on call (alarms), like the alarm address: a team's dev stage may keep the example.
  if (!settings.alarms) return [];
  return [
    ...(settings.alarmEmail && EXAMPLE_DOMAIN.test(settings.alarmEmail)
      ? [`alarmEmail is the example address of ${stageFilePath(stage)}: alarms reach nobody until it names the on-call team's address`]
      : []),
    ...(EXAMPLE_DOMAIN.test(settings.email.fromAddress)
      ? [
          `email.fromAddress is the example address of ${stageFilePath(stage)}: SES never verifies an example domain, so no ` +
            'patient email leaves until it names an address of your own domain',
        ]
      : []),
  ];
}
