/**
 * `npm run keys -- <command>`: issue, list and revoke API keys.
 *
 *   create --scopes A,B --profile-groups g1,g2 --location-groups l1 [--name "..."]
 *          prints the key's details, then the plaintext key ALONE on the last line (shown once, never stored)
 *   list   prints every key (id, name, scopes, groups, created, revoked) — never a plaintext
 *   revoke <key-id>
 *
 * Against the running local stack by default (same variables as `npm start`); `--table NAME` targets a
 * deployed table instead, with the region and credentials of the usual AWS environment.
 * Bad arguments: a message on stderr and exit code 2.
 */
import { parseArgs } from 'node:util';
import { localFunctionEnvironment, localSettings } from './environment';

const USAGE = `usage:
  npm run keys -- create --scopes SCOPE[,SCOPE…] [--profile-groups g1,g2] [--location-groups l1,l2] [--name NAME] [--table TABLE]
  npm run keys -- list [--table TABLE]
  npm run keys -- revoke KEY_ID [--table TABLE]`;

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
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  const [command, ...rest] = positionals;

  if (values.table) {
    process.env.TABLE_NAME = values.table;
    delete process.env.DYNAMODB_ENDPOINT;
  } else {
    Object.assign(process.env, localFunctionEnvironment(localSettings()));
  }
  // Loaded after the environment is set: shared/ reads its configuration once, at import.
  const { SCOPES, isScope } = await import('../../shared/auth/scopes');
  const { issueApiKey, MAX_GROUPS_PER_KEY } = await import('../../shared/auth/api-keys');
  const { listApiKeys, revokeApiKey } = await import('../../shared/store/api-keys');

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
      const key = await issueApiKey(
        {
          name: values.name ?? 'unnamed key',
          scopes: scopes.filter(isScope),
          profileGroups: list(values['profile-groups']),
          locationGroups: list(values['location-groups']),
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
      if (!(await revokeApiKey(keyId))) {
        console.error(`No key with id ${keyId}`);
        process.exitCode = 1;
        return;
      }
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
