/**
 * `npm run keys -- <command>`: issue, list and revoke API keys.
 *
 *   create --scopes A,B --profile-groups g1,g2 --location-groups l1 [--name "..."] [--allow-unknown-groups]
 *          prints the key's details, then the plaintext key ALONE on the last line (shown once, never stored)
 *   list   prints every key (id, name, scopes, groups, created, revoked) — never a plaintext
 *   revoke <key-id>   (a key revoked already: says so, exit code 0 — the key is revoked, as asked)
 *   --help
 *
 * Against the running local stack by default (found through its stack file, or the same variables as
 * `npm start`); `--table NAME` targets a deployed table instead, with the region and credentials of the
 * usual AWS environment. Bad arguments, an unknown scope or an unknown group (a profile group that does
 * not exist, a location group without an active location; --allow-unknown-groups for groups yet to be
 * created): a message on stderr and exit code 2.
 */
import { parseArgs } from 'node:util';
import { localFunctionEnvironment } from './environment';
import { runningStackSettings } from './stack-file';

const USAGE = `usage:
  npm run keys -- create --scopes SCOPE[,SCOPE…] [--profile-groups g1,g2] [--location-groups l1,l2] [--name NAME]
                         [--allow-unknown-groups] [--table TABLE]
  npm run keys -- list [--table TABLE]
  npm run keys -- revoke KEY_ID [--table TABLE]
  npm run keys -- --help

create prints the new key alone on the last line; it is shown once. It refuses a group that does not
exist (--allow-unknown-groups: a key for groups yet to be created). Without --table: the running
npm start stack; --table: a deployed table, with your usual AWS credentials and region.`;

class UsageError extends Error {}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        scopes: { type: 'string' },
        'profile-groups': { type: 'string' },
        'location-groups': { type: 'string' },
        name: { type: 'string' },
        table: { type: 'string' },
        'allow-unknown-groups': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  const [command, ...rest] = positionals;
  if (values.help) {
    console.log(USAGE);
    return;
  }

  if (values.table) {
    process.env.TABLE_NAME = values.table;
    delete process.env.DYNAMODB_ENDPOINT;
  } else {
    Object.assign(process.env, localFunctionEnvironment(runningStackSettings()));
  }
  // Loaded after the environment is set: shared/ reads its configuration once, at import.
  const { SCOPES, isScope } = await import('../../shared/auth/scopes');
  const { issueApiKey, MAX_GROUPS_PER_KEY } = await import('../../shared/auth/api-keys');
  const { findApiKeyById, listApiKeys, revokeApiKey } = await import('../../shared/store/api-keys');
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
        if (unknownProfileGroups.length > 0) throw new UsageError(`unknown profile group(s): ${unknownProfileGroups.join(', ')}`);
        const unknownLocationGroups = locationGroups.filter((_, i) => !locationGroupKnown[i]);
        if (unknownLocationGroups.length > 0) {
          throw new UsageError(`unknown location group(s): ${unknownLocationGroups.join(', ')} (no active location in them)`);
        }
      }
      const key = await issueApiKey(
        {
          name: values.name ?? 'unnamed key',
          scopes: scopes.filter(isScope),
          profileGroups,
          locationGroups,
        },
        new Date(),
      );
      console.log(`key id: ${key.keyId}`);
      console.log('The key follows on the next line. It is shown once and cannot be recovered:');
      console.log(key.plaintext);
      return;
    }
    case 'list': {
      if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);
      for (const key of await listApiKeys()) {
        console.log(
          [
            key.key_id,
            key.revoked ? 'REVOKED' : 'active',
            key.created_at,
            JSON.stringify(key.name),
            `scopes=${key.scopes.join(',')}`,
            `profile-groups=${key.profile_groups.join(',')}`,
            `location-groups=${key.location_groups.join(',')}`,
          ].join('  '),
        );
      }
      return;
    }
    case 'revoke': {
      const [keyId, extra] = rest;
      if (!keyId || extra) throw new UsageError('revoke takes exactly one key id');
      const key = await findApiKeyById(keyId);
      if (!key) {
        console.error(`No key with id ${keyId}`);
        process.exitCode = 1;
        return;
      }
      if (key.revoked) {
        console.log(`${keyId} was already revoked; nothing changed.`);
        return;
      }
      await revokeApiKey(keyId);
      console.log(`Revoked ${keyId}. Cached lookups expire within 60 s.`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(`keys: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
