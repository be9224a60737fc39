/**
 * API keys that expire and rotate, and their last use. Through `authenticate` and `accessOfKeyId`, whose
 * clock is a parameter (a grace period or the next day needs no waiting), and through HTTP for the answer
 * a client sees.
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessOfKeyId, authenticate, hashApiKey, holdsLookupOf, issueApiKey, type NewApiKey, rotateApiKey } from '../../shared/auth/api-keys';
import { Conflict, NotAuthenticated } from '../../shared/errors';
import { findApiKeyByHash, findApiKeyById, listApiKeys } from '../../shared/store/api-keys/lookup';
import { replaceApiKeySecret, revokeApiKey } from '../../shared/store/api-keys/lifecycle';
import { dynamo, tableName } from '../../shared/store/client';
import { GSI1 } from '../../shared/store/keys';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { seedDemoData } from '../support/fixtures';

const api = useApi();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const expired = new NotAuthenticated('API key expired');
const invalid = new NotAuthenticated('Invalid or revoked API key');

beforeAll(async () => {
  await seedDemoData();
});

const issue = (now: number, expiresAt?: Date | null) => {
  const spec: NewApiKey = { name: 'lifetime test', scopes: ['LOCATIONS_VIEW'], profileGroups: [], locationGroups: ['berlin'], expiresAt };
  return issueApiKey(spec, new Date(now));
};

/** A key and its rotation at `now`, neither used yet (so no lookup of either is cached). */
async function rotated(now: number, graceMs: number, expiresAt?: Date | null) {
  const old = await issue(now, expiresAt);
  const next = await rotateApiKey(old.keyId, { graceMs }, new Date(now));
  if (!next) throw new Error('rotate found no key');
  return { keyId: old.keyId, oldKey: old.plaintext, newKey: next.plaintext, replacedExpiresAt: next.replacedExpiresAt };
}

describe("the container's lookup of a key", () => {
  it('is held while fresh and dropped by the first lookup that misses after its 60 s', async () => {
    const now = Date.now();
    const [shown, next] = await Promise.all([issue(now), issue(now)]);
    await authenticate(shown.plaintext, now);
    await authenticate(shown.plaintext, now + 59_999);
    expect(holdsLookupOf(shown.plaintext)).toBe(true);
    await authenticate(next.plaintext, now + 60_000);
    expect(holdsLookupOf(shown.plaintext)).toBe(false);
  });
});

describe('an expiring key', () => {
  it('answers 401 {"error":"API key expired"} once past its expiry', async () => {
    const { plaintext } = await issue(Date.now() - DAY, new Date(Date.now() - 1000));
    const res = await api.get('/api/v1/locations', plaintext);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'API key expired' });
  });

  it('works until its expiry instant and is refused from then on, though its lookup is cached', async () => {
    const now = Date.now();
    const expiresAt = new Date(now + HOUR);
    const { plaintext, keyId } = await issue(now, expiresAt);
    await expect(authenticate(plaintext, expiresAt.getTime() - 1)).resolves.toMatchObject({ keyId });
    await expect(authenticate(plaintext, expiresAt.getTime())).rejects.toEqual(expired);
  });

  it('never expires without an expiry, as the keys issued before keys expired', async () => {
    const now = Date.now();
    const { plaintext, keyId } = await issue(now);
    await dynamo.send(new UpdateCommand({ TableName: tableName, Key: keys.apiKey(hashApiKey(plaintext)), UpdateExpression: 'REMOVE key_expires_at' }));
    await expect(authenticate(plaintext, now + 20 * 365 * DAY)).resolves.toMatchObject({ keyId });
  });

  it('gets 365 days when its issuer names no expiry', async () => {
    const now = Date.now();
    const { plaintext } = await issue(now);
    expect((await findApiKeyByHash(hashApiKey(plaintext)))?.key_expires_at).toBe(new Date(now + 365 * DAY).toISOString());
  });

  it('has no access context for webhook deliveries once expired, as a revoked key', async () => {
    const now = Date.now();
    const { keyId } = await issue(now, new Date(now + HOUR));
    expect(await accessOfKeyId(keyId, now + HOUR)).toBeUndefined();
  });
});

describe('a rotation', () => {
  it('gives the same key id a new secret that works at once', async () => {
    const now = Date.now();
    const { keyId, newKey } = await rotated(now, DAY);
    await expect(authenticate(newKey, now)).resolves.toMatchObject({ keyId });
  });

  it('keeps the replaced secret working until the grace ends', async () => {
    const now = Date.now();
    const { keyId, oldKey } = await rotated(now, DAY);
    await expect(authenticate(oldKey, now + DAY - 1)).resolves.toMatchObject({ keyId });
  });

  it('answers the replaced secret "API key expired" once the grace has ended', async () => {
    const now = Date.now();
    const { oldKey } = await rotated(now, DAY);
    await expect(authenticate(oldKey, now + DAY)).rejects.toEqual(expired);
  });

  it('with no grace makes the old secret answer 401 "API key expired" over HTTP', async () => {
    const { oldKey } = await rotated(Date.now(), 0);
    const res = await api.get('/api/v1/locations', oldKey);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'API key expired' });
  });

  it('never lets the replaced secret outlive the expiry it had', async () => {
    const now = Date.now();
    const expiresAt = new Date(now + HOUR);
    const { replacedExpiresAt } = await rotated(now, 7 * DAY, expiresAt);
    expect(replacedExpiresAt).toBe(expiresAt.toISOString());
  });

  it('renews the key: the new secret gets a fresh expiry, 365 days by default', async () => {
    const now = Date.now();
    const { newKey } = await rotated(now, DAY, new Date(now + HOUR));
    expect((await findApiKeyByHash(hashApiKey(newKey)))?.key_expires_at).toBe(new Date(now + 365 * DAY).toISOString());
  });

  it('is refused for a revoked key', async () => {
    const now = Date.now();
    const { keyId } = await issue(now);
    await revokeApiKey(keyId);
    await expect(rotateApiKey(keyId, { graceMs: DAY }, new Date(now))).rejects.toBeInstanceOf(Conflict);
  });

  it('started from a state another rotation changed meanwhile is refused', async () => {
    const now = Date.now();
    const { keyId } = await issue(now);
    const before = await findApiKeyById(keyId);
    if (!before) throw new Error('no key');
    await rotateApiKey(keyId, { graceMs: DAY }, new Date(now));
    const late = { ...before.current, sha256: hashApiKey('lab_the-losing-rotation') };
    await expect(replaceApiKeySecret(before.current, late, new Date(now).toISOString(), new Date(now + DAY).toISOString())).rejects.toBeInstanceOf(Conflict);
  });

  it('leaves one key in the list, its current secret the new one', async () => {
    const now = Date.now();
    const { keyId, newKey } = await rotated(now, DAY);
    const listed = (await listApiKeys()).filter((key) => key.current.key_id === keyId);
    expect(listed.map((key) => key.current.sha256)).toEqual([hashApiKey(newKey)]);
  });

  it('is followed by a revocation that revokes the old and the new secret', async () => {
    const now = Date.now();
    const { keyId, oldKey, newKey } = await rotated(now, DAY);
    await revokeApiKey(keyId);
    await expect(authenticate(oldKey, now)).rejects.toEqual(invalid);
    await expect(authenticate(newKey, now)).rejects.toEqual(invalid);
  });
});

type Middleware = (next: (args: Args) => Promise<Output>) => (args: Args) => Promise<Output>;
interface Args {
  input: { Key?: { PK?: string }; UpdateExpression?: string; TransactItems?: unknown[]; IndexName?: string };
}
interface Output {
  output: { Items?: { sha256?: string }[] };
}

/** Runs `body` with a middleware on the shared DynamoDB client, the point where requests leave our code. */
async function intercepted<T>(middleware: Middleware, body: () => Promise<T>): Promise<T> {
  dynamo.middlewareStack.add(middleware as never, { step: 'initialize', name: 'interleave' });
  try {
    return await body();
  } finally {
    dynamo.middlewareStack.remove('interleave');
  }
}

/** A revocation's write of one secret's flag: by then it has read which secrets the key has. */
const isSecretRevocation = ({ input }: Args) => Boolean(input.Key?.PK?.startsWith('APIKEY#') && input.UpdateExpression?.includes('revoked'));

/** GSI1 as it may answer for a moment after a rotation: without the new secret, the old one already replaced. */
const withoutFromIndex =
  (sha256: string): Middleware =>
  (next) =>
  async (args) => {
    const result = await next(args);
    if (args.input.IndexName === GSI1 && result.output.Items) {
      result.output.Items = result.output.Items.filter((item) => item.sha256 !== sha256);
    }
    return result;
  };

/** Leaves a key as keys were stored before key ids had an item: its secrets only. */
const asIssuedBeforeKeyIdItems = (keyId: string) => dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.apiKeyId(keyId) }));

const newPlaintext = () => `lab_${randomBytes(32).toString('base64url')}`;

describe('a revocation and a rotation at once', () => {
  it('leave no working secret when the rotation commits after the revocation read the secrets', async () => {
    const now = Date.now();
    const { keyId } = await issue(now);
    const newKey = newPlaintext();
    let rotation: Promise<unknown> | undefined;
    const rotateFirst: Middleware = (next) => async (args) => {
      if (!rotation && isSecretRevocation(args)) {
        rotation = rotateApiKey(keyId, { graceMs: DAY }, new Date(now), newKey).catch(() => undefined);
        await rotation;
      }
      return next(args);
    };
    await intercepted(rotateFirst, () => revokeApiKey(keyId));
    await expect(authenticate(newKey, now)).rejects.toEqual(invalid);
  });

  it('refuse the rotation whose transaction meets a revocation begun after the rotation read the key', async () => {
    const now = Date.now();
    const { keyId } = await issue(now);
    let revocation: Promise<unknown> | undefined;
    let reached!: () => void;
    const revocationReachedSecrets = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const secretsHeld = new Promise<void>((resolve) => (release = resolve));
    // The revocation starts when the rotation is about to write, and is held before it revokes any secret.
    const revokeBetween: Middleware = (next) => async (args) => {
      if (isSecretRevocation(args)) {
        reached();
        await secretsHeld;
      } else if (args.input.TransactItems && !revocation) {
        revocation = revokeApiKey(keyId);
        await Promise.race([revocationReachedSecrets, revocation]);
      }
      return next(args);
    };
    await intercepted(revokeBetween, async () => {
      try {
        await expect(rotateApiKey(keyId, { graceMs: DAY }, new Date(now))).rejects.toBeInstanceOf(Conflict);
      } finally {
        release();
        await revocation;
      }
    });
  });
});

describe('right after a rotation, while the index does not show the new secret yet', () => {
  it('a revocation revokes the old and the new secret', async () => {
    const now = Date.now();
    const { keyId, oldKey, newKey } = await rotated(now, DAY);
    await intercepted(withoutFromIndex(hashApiKey(newKey)), () => revokeApiKey(keyId));
    const stored = await Promise.all([oldKey, newKey].map(async (plaintext) => (await findApiKeyByHash(hashApiKey(plaintext)))?.revoked));
    expect(stored).toEqual([true, true]);
  });

  it("the key's access for webhook deliveries is found", async () => {
    const now = Date.now();
    const { keyId, newKey } = await rotated(now, DAY);
    const access = await intercepted(withoutFromIndex(hashApiKey(newKey)), () => accessOfKeyId(keyId, now));
    expect(access?.keyId).toBe(keyId);
  });

  it('a revocation of a key issued before key ids had an item of their own revokes both secrets', async () => {
    const now = Date.now();
    const { keyId, plaintext: oldKey } = await issue(now);
    await asIssuedBeforeKeyIdItems(keyId);
    const newKey = (await rotateApiKey(keyId, { graceMs: DAY }, new Date(now)))?.plaintext as string;
    await intercepted(withoutFromIndex(hashApiKey(newKey)), () => revokeApiKey(keyId));
    const stored = await Promise.all([oldKey, newKey].map(async (plaintext) => (await findApiKeyByHash(hashApiKey(plaintext)))?.revoked));
    expect(stored).toEqual([true, true]);
  });
});

describe('a key issued before key ids had an item of their own', () => {
  it('keeps its access for webhook deliveries, read from the index', async () => {
    const now = Date.now();
    const { keyId } = await issue(now);
    await asIssuedBeforeKeyIdItems(keyId);
    expect((await accessOfKeyId(keyId, now))?.keyId).toBe(keyId);
  });
});

describe('last use', () => {
  it('is written once a day per key, and no other request pays a round trip for it', async () => {
    const commands: string[] = [];
    const counter = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => {
      commands.push(context.commandName ?? 'unknown');
      return next(args);
    };
    // The next day, 01:00 UTC: every instant below falls on that day, and the last on the one after.
    const day = (Math.floor(Date.now() / DAY) + 1) * DAY + HOUR;
    const { plaintext } = await issue(Date.now());
    const commandsAt = async (nowMs: number) => {
      commands.length = 0;
      await authenticate(plaintext, nowMs);
      return [...commands];
    };
    dynamo.middlewareStack.add(counter as never, { step: 'initialize', name: 'commandCounter' });
    try {
      expect([await commandsAt(day), await commandsAt(day + 1000), await commandsAt(day + 5 * 60_000), await commandsAt(day + DAY)]).toEqual([
        ['GetItemCommand', 'UpdateItemCommand'],
        [],
        ['GetItemCommand'],
        ['GetItemCommand', 'UpdateItemCommand'],
      ]);
    } finally {
      dynamo.middlewareStack.remove('commandCounter');
    }
    expect((await findApiKeyByHash(hashApiKey(plaintext)))?.last_used_on).toBe(new Date(day + DAY).toISOString().slice(0, 10));
  });
});
