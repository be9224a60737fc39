/**
 * What `cdk synth|deploy -c key=value` may change, read and checked in one place. Values given on the
 * command line arrive as strings, those from cdk.json or a test as their JSON types: both are accepted.
 * A malformed value fails the synth with its name, never deploys a surprise.
 *
 * | context key                 | default  | meaning                                                      |
 * |-----------------------------|----------|--------------------------------------------------------------|
 * | `stage`                     | `dev`    | `dev` or `prod` (prod: data retained, alarms on)             |
 * | `apiThrottleRate`           | 100      | API stage steady-state limit, requests per second            |
 * | `apiThrottleBurst`          | 200      | API stage burst limit, requests                              |
 * | `apiGatewayCloudWatchRole`  | `true`   | set the region's API Gateway logging role (false: already set) |
 * | `labAccountId`              | —        | AWS account of the lab: may put results, upload, read orders |
 * | `alarmEmail`                | —        | prod: subscribe this address to the alarm topic              |
 * | `relayReservedConcurrency`  | `true`   | reserve 1 execution each for the outbox relay and the webhook retry sweep (false: the account's concurrency quota is still the new-account 10, where any reservation fails the deploy) |
 * | `corsAllowOrigins`          | —        | browser apps that may call the API: exact origins, comma-separated (README "CORS"); unset: no CORS |
 * | `documentRetentionYears`    | 10       | lab report files under documents/ are deleted this many years after they were stored (README "Privacy") |
 * | `auditRetentionDays`        | 730      | access-log entries are deleted (DynamoDB TTL) this many days after the read (README "Privacy") |
 */
import type { App } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import * as v from 'valibot';
import { AllowedOrigins } from '../shared/http/cors-policy';

export type StageName = 'dev' | 'prod';
export const STAGES: readonly StageName[] = ['dev', 'prod'];

export const DEFAULT_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;

export interface StackSettings {
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  readonly apiGatewayCloudWatchRole: boolean;
  readonly labAccountId?: string;
  readonly alarmEmail?: string;
  readonly relayReservedConcurrency: boolean;
  /** Exact origins, in the form browsers send them; empty: CORS off. */
  readonly corsAllowOrigins: readonly string[];
  /** Whole years a lab report file is kept before the bucket's lifecycle rule deletes it. */
  readonly documentRetentionYears: number;
  /** Whole days an access-log entry is kept (AUDIT_RETENTION_DAYS of the reading functions). */
  readonly auditRetentionDays: number;
}

/** Two years of who read a person's data (issue #18's default; README "Privacy"). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 730;

/** §630f (3) BGB: a German practice keeps patient records 10 years after the treatment (README "Privacy"). */
export const DEFAULT_DOCUMENT_RETENTION_YEARS = 10;

export function stageOf(app: App): StageName {
  const value: unknown = app.node.tryGetContext('stage') ?? 'dev';
  const stage = STAGES.find((candidate) => candidate === value);
  if (!stage) throw new Error(`Unknown stage ${JSON.stringify(value)}: use -c stage=dev or -c stage=prod`);
  return stage;
}

function positiveNumber(scope: IConstruct, key: string, fallback: number): number {
  const raw: unknown = scope.node.tryGetContext(key);
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`Context ${key} must be a positive number, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function flag(scope: IConstruct, key: string, fallback: boolean): boolean {
  const raw: unknown = scope.node.tryGetContext(key);
  if (raw === undefined) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`Context ${key} must be true or false, got ${JSON.stringify(raw)}`);
}

function matching(scope: IConstruct, key: string, pattern: RegExp, what: string): string | undefined {
  const raw: unknown = scope.node.tryGetContext(key);
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !pattern.test(raw)) throw new Error(`Context ${key} must be ${what}, got ${JSON.stringify(raw)}`);
  return raw;
}

/** `-c corsAllowOrigins=https://a.example,https://b.example`, or a list in cdk.json: the same rule as CORS_ALLOW_ORIGINS. */
function origins(scope: IConstruct, key: string): readonly string[] {
  const raw: unknown = scope.node.tryGetContext(key);
  if (raw === undefined) return [];
  const parsed = v.safeParse(AllowedOrigins, Array.isArray(raw) ? raw.join(',') : raw);
  if (!parsed.success) throw new Error(`Context ${key}: ${parsed.issues[0].message}`);
  return parsed.output;
}

function wholeYears(scope: IConstruct, key: string, fallback: number): number {
  const years = positiveNumber(scope, key, fallback);
  if (!Number.isInteger(years)) throw new Error(`Context ${key} must be a whole number of years, got ${years}`);
  return years;
}

function wholeDays(scope: IConstruct, key: string, fallback: number): number {
  const days = positiveNumber(scope, key, fallback);
  // The functions' own check (shared/config.ts) would refuse anything else at cold start: refuse it at synth.
  if (!Number.isInteger(days) || days > 99_999) throw new Error(`Context ${key} must be a whole number of days from 1 to 99999, got ${days}`);
  return days;
}

export function readSettings(scope: IConstruct): StackSettings {
  const rateLimit = positiveNumber(scope, 'apiThrottleRate', DEFAULT_THROTTLE.rateLimit);
  const burstLimit = Math.round(positiveNumber(scope, 'apiThrottleBurst', DEFAULT_THROTTLE.burstLimit));
  return {
    throttle: { rateLimit, burstLimit },
    apiGatewayCloudWatchRole: flag(scope, 'apiGatewayCloudWatchRole', true),
    labAccountId: matching(scope, 'labAccountId', /^\d{12}$/, 'a 12-digit AWS account id'),
    alarmEmail: matching(scope, 'alarmEmail', /^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'an email address'),
    relayReservedConcurrency: flag(scope, 'relayReservedConcurrency', true),
    corsAllowOrigins: origins(scope, 'corsAllowOrigins'),
    documentRetentionYears: wholeYears(scope, 'documentRetentionYears', DEFAULT_DOCUMENT_RETENTION_YEARS),
    auditRetentionDays: wholeDays(scope, 'auditRetentionDays', DEFAULT_AUDIT_RETENTION_DAYS),
  };
}
