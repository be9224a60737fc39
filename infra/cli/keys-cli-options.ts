/** The keys CLI's usage, and its options read into values (infra/cli/keys-cli.ts runs the commands). */
import { parseArgs } from 'node:util';
// Pure (reads no configuration), so it may load before the environment is set.
import { DAY_MS, DEFAULT_KEY_LIFETIME_DAYS, DEFAULT_ROTATION_GRACE_HOURS, HOUR_MS } from '../../shared/auth/api-key-lifetime';
import { type KeyLimits, MAX_BURST, MAX_DAILY_QUOTA, MAX_RATE_LIMIT } from '../../shared/domain/rate-limits';
import { SANDBOX_RETENTION_DAYS } from '../../shared/sandbox';
import { asUsage, UsageError } from './usage';

export const MAX_LIFETIME_DAYS = 3650;
export const MAX_GRACE_DAYS = 30;

export const USAGE = `usage:
  npm run keys -- create --scopes SCOPE[,SCOPE…] [--profile-groups g1,g2] [--location-groups l1,l2] [--name NAME]
                         [--expires-in DAYSd | never --allow-no-expiry] [--allow-unknown-groups]
                         [--table TABLE --usage-plan KEY_USAGE_PLAN_ID]
                         [--rate-limit PER_SECOND [--burst REQUESTS] [--daily-quota REQUESTS]] [--sandbox]
  npm run keys -- rotate KEY_ID [--grace HOURSh | DAYSd] [--expires-in DAYSd | never --allow-no-expiry] [--table TABLE]
  npm run keys -- list [--table TABLE]
  npm run keys -- revoke KEY_ID [--table TABLE]
  npm run keys -- register KEY_ID | --all --table TABLE --usage-plan KEY_USAGE_PLAN_ID
  npm run keys -- --help

create prints the new key alone on the last line; it is shown once. --sandbox issues a sandbox key
(lab_test_…): it sees and writes sandbox data only, kept ${SANDBOX_RETENTION_DAYS} days (docs/sandbox.md).
It refuses a group that does not exist (--allow-unknown-groups: a key for groups yet to be created), and
LAB_RESULTS_MATCH (the lab-operations staff's) on a key that lacks some profile group. A key expires after
${DEFAULT_KEY_LIFETIME_DAYS} days unless --expires-in says otherwise (1d to ${MAX_LIFETIME_DAYS}d); never needs --allow-no-expiry.
rotate prints a new key for the same key id, expiring as create's would; the old one keeps working
for the grace (default ${DEFAULT_ROTATION_GRACE_HOURS}h, 0h to ${MAX_GRACE_DAYS}d, never past its own expiry).
--rate-limit gives the key its own limits instead of the stage's default (infra/stages/<stage>.ts keyLimits):
requests per second (1 to ${MAX_RATE_LIMIT}), a burst (default twice the rate, at most ${MAX_BURST}) and
requests per UTC day (default none). Over them, a request is answered 429 with Retry-After.
Without --table: the running npm start stack; --table: a deployed table, with your usual AWS credentials
and region. create there also needs --usage-plan (the stack output KeyUsagePlanId): the gateway counts the
key's requests in it, or in a plan of the key's own when it has --rate-limit.`;

/** `--expires-in`: whole days, or never (a deliberate choice: --allow-no-expiry). Undefined: the default lifetime. */
export function expiryOf(value: string | undefined, allowNoExpiry: boolean | undefined, now: Date): Date | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'never') {
    if (!allowNoExpiry) throw new UsageError('--expires-in never needs --allow-no-expiry: a key that never expires must be a deliberate choice');
    return null;
  }
  const days = /^\d{1,4}d$/.test(value) ? Number.parseInt(value, 10) : Number.NaN;
  if (!(days >= 1 && days <= MAX_LIFETIME_DAYS)) throw new UsageError(`--expires-in takes whole days from 1d to ${MAX_LIFETIME_DAYS}d (e.g. 90d), or never`);
  return new Date(now.getTime() + days * DAY_MS);
}

/** `--rate-limit`, `--burst`, `--daily-quota`: a key's own limits, or undefined for the stage's default. */
export function limitsOf(values: { 'rate-limit'?: string; burst?: string; 'daily-quota'?: string }): KeyLimits | undefined {
  const whole = (option: string, text: string | undefined, max: number) => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < 1 || n > max) throw new UsageError(`--${option} takes a whole number from 1 to ${max}: ${text}`);
    return n;
  };
  const rate = whole('rate-limit', values['rate-limit'], MAX_RATE_LIMIT);
  const burst = whole('burst', values.burst, MAX_BURST);
  const quota = whole('daily-quota', values['daily-quota'], MAX_DAILY_QUOTA);
  if (rate === undefined) {
    if (burst !== undefined || quota !== undefined)
      throw new UsageError('--burst and --daily-quota come with --rate-limit: a key has its own limits whole, or the stage default');
    return undefined;
  }
  return { rate_limit: rate, burst: burst ?? Math.min(MAX_BURST, 2 * rate), daily_quota: quota ?? null };
}

/** `--grace`: hours or days, 0 allowed (a leaked secret: stop it now). */
export function graceMsOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_ROTATION_GRACE_HOURS * HOUR_MS;
  const match = /^(\d{1,3})([hd])$/.exec(value);
  const ms = match ? Number(match[1]) * (match[2] === 'd' ? DAY_MS : HOUR_MS) : Number.NaN;
  if (!(ms >= 0 && ms <= MAX_GRACE_DAYS * DAY_MS)) throw new UsageError(`--grace takes hours or days from 0h to ${MAX_GRACE_DAYS}d (e.g. 24h, 7d)`);
  return ms;
}

export const describeExpiry = (expiresAt: string | null) => expiresAt ?? 'never';

export function printNewKey(lines: string[], plaintext: string): void {
  for (const line of lines) console.log(line);
  console.log('The key follows on the next line. It is shown once and cannot be recovered:');
  console.log(plaintext);
}

export const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function parse(argv: string[]) {
  return asUsage(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        scopes: { type: 'string' },
        'profile-groups': { type: 'string' },
        'location-groups': { type: 'string' },
        name: { type: 'string' },
        table: { type: 'string' },
        'expires-in': { type: 'string' },
        'allow-no-expiry': { type: 'boolean' },
        grace: { type: 'string' },
        'allow-unknown-groups': { type: 'boolean' },
        'rate-limit': { type: 'string' },
        burst: { type: 'string' },
        'daily-quota': { type: 'string' },
        'usage-plan': { type: 'string' },
        all: { type: 'boolean' },
        sandbox: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
}
