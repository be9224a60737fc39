/**
 * `npm run keys -- <command>`: issue, rotate, list and revoke API keys.
 *
 *   create --scopes A,B --profile-groups g1,g2 --location-groups l1 [--name "..."] [--allow-unknown-groups]
 *          [--expires-in 90d | never --allow-no-expiry]   (default 365 days)
 *          [--rate-limit N [--burst N] [--daily-quota N]]   its own request limits (default: the stage's)
 *          [--sandbox]   a sandbox key, `lab_test_…`: it sees and writes sandbox data only (docs/sandbox.md)
 *          prints the key's details and expiry, then the plaintext key ALONE on the last line (shown once,
 *          never stored)
 *   rotate <key-id> [--grace 24h] [--expires-in …]   a new secret for the same key id, printed the same
 *          way; the old one works until the grace ends (default 24 h), then answers 401 "API key expired"
 *   list   one line per key id (status, created, expiry, last use, name, scopes, groups, limits, live or sandbox data) — never a plaintext
 *   revoke <key-id>   every secret of the key, those of a rotation racing it too (a key revoked already:
 *          says so, exit code 0)
 *   register <key-id> | --all   --table … --usage-plan …   a key issued before the stage had usage plans (or
 *          every key that may still be used) gets its place in them, with its own limits if it has some
 *          (registered already: says so; safe to run again)
 *   --help
 *
 * Against the running local stack by default (found through its stack file, or the same variables as
 * `npm start`); `--table NAME` targets a deployed table instead, with the region and credentials of the
 * usual AWS environment. There a new key also gets its place in the gateway's usage plans
 * (`--usage-plan`, the stack output KeyUsagePlanId: infra/cli/key-usage-plans.ts), and a revoked one
 * loses it. Bad arguments, an unknown scope or an unknown group (a profile group that does
 * not exist, a location group without an active location; --allow-unknown-groups for groups yet to be
 * created), or LAB_RESULTS_MATCH on a key lacking some profile group (or a sandbox key): a message on stderr
 * and exit code 2.
 */
// Pure (reads no configuration), so it may load before the environment is set.
import { isExpired } from '../../shared/auth/api-key-lifetime';
import { describeLimits } from '../../shared/domain/rate-limits';
import { SANDBOX_RETENTION_DAYS } from '../../shared/sandbox';
import { localFunctionEnvironment } from '../local/environment';
import { runningStackSettings } from '../local/stack-file';
import { describeExpiry, expiryOf, graceMsOf, limitsOf, list, parse, printNewKey, USAGE } from './keys-cli-options';
import { runCli, UsageError } from './usage';

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  const [command, ...rest] = positionals;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.grace !== undefined && command !== 'rotate') throw new UsageError('--grace applies to rotate only');
  if (command !== 'create' && values.sandbox) throw new UsageError('--sandbox applies to create only (a rotation keeps what the key is)');
  if (command !== 'create' && [values['rate-limit'], values.burst, values['daily-quota']].some((v) => v !== undefined))
    throw new UsageError("--rate-limit, --burst and --daily-quota apply to create only (a rotation keeps the key's limits)");
  const limits = limitsOf(values);
  const registers = command === 'create' || command === 'register';
  if (values['usage-plan'] !== undefined && (!registers || !values.table))
    throw new UsageError('--usage-plan applies to create and register with --table only');
  if (values.all && command !== 'register') throw new UsageError('--all applies to register only');
  if (command === 'register' && !(values.table && values['usage-plan'])) throw new UsageError('register needs --table and --usage-plan');
  if (command === 'create' && values.table && !values['usage-plan']) {
    throw new UsageError('create --table needs --usage-plan (the stack output KeyUsagePlanId): the gateway refuses a key that is in none of its usage plans');
  }
  if (values['expires-in'] !== undefined && command !== 'create' && command !== 'rotate')
    throw new UsageError('--expires-in applies to create and rotate only');
  const now = new Date();
  const expiresAt = expiryOf(values['expires-in'], values['allow-no-expiry'], now);

  if (values.table) {
    process.env.TABLE_NAME = values.table;
    delete process.env.DYNAMODB_ENDPOINT;
  } else {
    Object.assign(process.env, localFunctionEnvironment(runningStackSettings()));
  }
  // Loaded after the environment is set: shared/ reads its configuration once, at import.
  const { SCOPES, isScope } = await import('../../shared/domain/scopes');
  const { issueApiKey, isRevoked, lastUsedOn, MAX_GROUPS_PER_KEY, rotateApiKey } = await import('../../shared/auth/api-keys');
  const { listApiKeys } = await import('../../shared/store/api-keys/lookup');
  const { revokeApiKey } = await import('../../shared/store/api-keys/lifecycle');
  const { profileGroupExists } = await import('../../shared/store/profiles');
  const { listActiveLocations } = await import('../../shared/store/locations');

  switch (command) {
    case 'create': {
      if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);
      const scopes = list(values.scopes);
      if (scopes.length === 0) throw new UsageError('--scopes is required');
      for (const option of ['profile-groups', 'location-groups'] as const) {
        if (list(values[option]).length > MAX_GROUPS_PER_KEY) throw new UsageError(`--${option} takes at most ${MAX_GROUPS_PER_KEY} groups`);
      }
      const unknown = scopes.filter((scope) => !isScope(scope));
      if (unknown.length > 0) throw new UsageError(`unknown scope(s): ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
      const profileGroups = list(values['profile-groups']);
      const locationGroups = list(values['location-groups']);
      // A misspelt group would give a key that silently sees nothing there: refuse it by name.
      if (!values['allow-unknown-groups']) {
        const [profileGroupKnown, locationGroupKnown] = await Promise.all([
          Promise.all(profileGroups.map(profileGroupExists)),
          Promise.all(locationGroups.map(async (group) => (await listActiveLocations([group])).length > 0)),
        ]);
        const unknownProfileGroups = profileGroups.filter((_, i) => !profileGroupKnown[i]);
        const unknownLocationGroups = locationGroups.filter((_, i) => !locationGroupKnown[i]);
        if (unknownProfileGroups.length > 0 || unknownLocationGroups.length > 0) {
          // Say what exists, so that a typo is a one-look fix (the reference data's groups: no Scan).
          const known = await (await import('../data/apply')).knownGroups();
          const listed = (groups: string[]) => (groups.length > 0 ? groups.join(', ') : 'none yet: npm run data -- apply');
          throw new UsageError(
            unknownProfileGroups.length > 0
              ? `unknown profile group(s): ${unknownProfileGroups.join(', ')}; known: ${listed(known.profileGroups)}`
              : `unknown location group(s): ${unknownLocationGroups.join(', ')} (no active location in them); known: ${listed(known.locationGroups)}`,
          );
        }
      }
      // The lab's reports that matched no order belong to no tenant (issue #51): the scope that reads and matches them is
      // for the service's own lab-operations staff, on a key that holds every profile group there is (the reference
      // data's, as `npm run data` applied them) and works on live data.
      if (scopes.includes('LAB_RESULTS_MATCH')) {
        if (values.sandbox) throw new UsageError('LAB_RESULTS_MATCH is not issued on a sandbox key: the lab sends its unmatched results as live data');
        const every = (await (await import('../data/apply')).knownGroups()).profileGroups;
        const lacking = every.filter((group) => !profileGroups.includes(group));
        if (every.length === 0 || lacking.length > 0) {
          throw new UsageError(
            "LAB_RESULTS_MATCH is issued only on a key holding every profile group (the service's own lab-operations staff): " +
              (every.length === 0 ? 'no profile group exists yet: npm run data -- apply' : `--profile-groups lacks ${lacking.join(', ')}`),
          );
        }
      }
      const gateway = values.table ? await import('./key-usage-plans') : undefined;
      const key = await issueApiKey(
        {
          name: values.name ?? 'unnamed key',
          scopes: scopes.filter(isScope),
          profileGroups,
          locationGroups,
          expiresAt,
          limits: limits ?? null,
          sandbox: values.sandbox === true,
        },
        now,
      );
      if (gateway) {
        // Before the key is shown: a key the gateway cannot count is refused there, so it is revoked again,
        // and what the gateway took of it so far removed (best effort: the key is revoked either way).
        const client = gateway.apiGateway();
        try {
          await gateway.registerKeyUsage(client, { keyId: key.keyId, usagePlanId: values['usage-plan']!, limits: limits ?? null });
        } catch (error) {
          await revokeApiKey(key.keyId);
          await gateway.removeKeyUsage(client, key.keyId).catch(() => undefined);
          throw new Error(
            `the gateway did not take key ${key.keyId} into its usage plans, so it was revoked again: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      printNewKey(
        [
          `key id: ${key.keyId}`,
          `data: ${values.sandbox ? `sandbox (kept ${SANDBOX_RETENTION_DAYS} days; docs/sandbox.md)` : 'live'}`,
          `expires: ${describeExpiry(key.expiresAt)}`,
          `limits: ${limits ? describeLimits(limits) : 'the stage default'}`,
        ],
        key.plaintext,
      );
      return;
    }
    case 'rotate': {
      const [keyId, extra] = rest;
      if (!keyId || extra) throw new UsageError('rotate takes exactly one key id');
      const rotated = await rotateApiKey(keyId, { graceMs: graceMsOf(values.grace), expiresAt }, now);
      if (!rotated) {
        console.error(`No key with id ${keyId}`);
        process.exitCode = 1;
        return;
      }
      printNewKey(
        [
          `key id: ${keyId} (the same id: its webhooks and history stay)`,
          `expires: ${describeExpiry(rotated.expiresAt)}`,
          `previous key works until: ${rotated.replacedExpiresAt}, then answers 401 "API key expired" (cached lookups: up to 60 s later)`,
        ],
        rotated.plaintext,
      );
      return;
    }
    case 'list': {
      if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);
      for (const key of await listApiKeys()) {
        const { current } = key;
        // A replaced secret still in its grace: the client may not have switched yet.
        const previousUntil = key.replaced
          .filter((secret) => !secret.revoked && !isExpired(secret.key_expires_at, now.getTime()))
          .map((secret) => secret.key_expires_at)
          .sort()
          .at(-1);
        const status = isRevoked(key) ? 'REVOKED' : isExpired(current.key_expires_at, now.getTime()) ? 'EXPIRED' : 'active';
        console.log(
          [
            current.key_id,
            status,
            current.created_at,
            `expires=${describeExpiry(current.key_expires_at)}`,
            `last-used=${lastUsedOn(key) ?? 'never'}`,
            JSON.stringify(current.name),
            `scopes=${current.scopes.join(',')}`,
            `profile-groups=${current.profile_groups.join(',')}`,
            `location-groups=${current.location_groups.join(',')}`,
            `limits=${current.limits ? `${current.limits.rate_limit}/s,burst=${current.limits.burst},quota=${current.limits.daily_quota === null ? 'none' : `${current.limits.daily_quota}/day`}` : 'stage-default'}`,
            `data=${current.sandbox ? 'sandbox' : 'live'}`,
            ...(previousUntil ? [`previous-key-until=${previousUntil}`] : []),
          ].join('  '),
        );
      }
      return;
    }
    case 'revoke': {
      const [keyId, extra] = rest;
      if (!keyId || extra) throw new UsageError('revoke takes exactly one key id');
      const revocation = await revokeApiKey(keyId);
      if (!revocation) {
        console.error(`No key with id ${keyId}`);
        process.exitCode = 1;
        return;
      }
      // Its API Gateway key stays (infra/cli/key-usage-plans.ts removeKeyUsage says why): the authorizer refuses it.
      console.log(revocation === 'already revoked' ? `${keyId} was already revoked; nothing changed.` : `Revoked ${keyId}. Cached lookups expire within 60 s.`);
      return;
    }
    case 'register': {
      const [keyId, extra] = rest;
      if (values.all ? keyId : !keyId || extra) throw new UsageError('register takes one key id, or --all');
      const { findApiKeyById } = await import('../../shared/store/api-keys/lookup');
      const found = keyId ? await findApiKeyById(keyId) : undefined;
      // --all: every key that may still be used, the upgrade of a stage that had no usage plans yet.
      const keys = values.all
        ? (await listApiKeys()).filter((k) => !isRevoked(k) && !isExpired(k.current.key_expires_at, now.getTime()))
        : found
          ? [found]
          : [];
      if (keyId && (!found || isRevoked(found))) {
        console.error(found ? `${keyId} is revoked: nothing to register` : `No key with id ${keyId}`);
        process.exitCode = 1;
        return;
      }
      const gateway = await import('./key-usage-plans');
      const client = gateway.apiGateway();
      for (const { current } of keys) {
        const outcome = await gateway.registerKeyUsage(client, { keyId: current.key_id, usagePlanId: values['usage-plan']!, limits: current.limits });
        console.log(
          outcome === 'already'
            ? `${current.key_id} is registered with the gateway already; nothing changed.`
            : `Registered ${current.key_id} with ${current.limits ? 'a usage plan of its own' : "the stage's key plan"}.`,
        );
      }
      return;
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  }
}

runCli('keys', USAGE, () => main(process.argv.slice(2)));
