/**
 * API keys. Only the SHA-256 of a key's secret is stored; the plaintext is shown once when it is issued.
 * A key id has one item per secret: a rotation adds the new secret's item and marks the current one
 * `replaced_at`, with an expiry that ends its grace period. Beside them, the key id has an item of its own
 * (KEYID#<key id>) holding `revoked` and the hashes of all its secrets: GSI1 is eventually consistent, so
 * it cannot say which secrets a key has right after a rotation, nor order a rotation and a revocation.
 * A rotation appends to that item on condition it is not revoked; a revocation marks it revoked first and
 * then revokes every secret it lists, so no secret added by a rotation escapes a revocation.
 *
 * Access patterns:
 * - the secret of a request, by its hash ...... GetItem     PK=APIKEY#<sha256>
 * - its last use, at most once a day .......... UpdateItem  PK=APIKEY#<sha256>, conditional on the day
 * - all keys, for the keys CLI ................ Query       GSI1 APIKEYS / begins_with APIKEY#
 * - one key by its public id .................. GetItem     PK=KEYID#<key id>, then BatchGetItem of the
 *                                                           secrets it lists, both consistent
 * - issue ..................................... TransactWrite: Put the secret, Put the key id's item
 * - rotate .................................... TransactWrite: Put the new secret, Update the current one,
 *                                                           append to the key id's item if not revoked
 * - revoke .................................... UpdateItem of the key id's item, then of each secret it lists
 *
 * Keys issued before key ids had an item have their secrets only. Reading one by its id falls back to
 * GSI1 (nothing changed them for long, so the index shows them whole); the first rotate or revoke of one
 * writes its item from the index first, and from then on it is a key like any other.
 *
 * The expiry is `key_expires_at`, an ISO instant, and not `expires_at`: that is the table's TTL attribute,
 * and an expired key must stay (to answer "API key expired" and to be listed), not be deleted.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../auth/scopes';
import type { KeyLimits } from '../domain/rate-limits';
import { Conflict } from '../errors';
import { dynamo, tableName } from './client';
import { isConditionFailure, writtenIf } from './conditions';
import { API_KEY_LAST_USE_ATTRIBUTE, GSI1, index, keys } from './keys';
import { batchGetAll, listByIndexPrefix, queryAll } from './query';
import { named, TransactionCancelled, transactWrite } from './transactions';

/** One secret of a key: the key's name, scopes and groups are copied onto each of its secrets. */
export interface ApiKeyRecord {
  key_id: string;
  /** The secret's hash: its item's key, never the secret. */
  sha256: string;
  name: string;
  scopes: Scope[];
  profile_groups: string[];
  location_groups: string[];
  /** When the key was created (its first secret); a rotation keeps it. */
  created_at: string;
  revoked: boolean;
  /** When this secret stops working; null: never (so do the keys issued before keys expired). */
  key_expires_at: string | null;
  /** The UTC day (YYYY-MM-DD) of this secret's last authenticated request; null: none recorded. */
  last_used_on: string | null;
  /** When a rotation replaced this secret; null for a key's current secret. */
  replaced_at: string | null;
  /** Its own request limits (issue #31); null: the stage's default. A rotation keeps them. */
  limits: KeyLimits | null;
  /** A sandbox key (docs/sandbox.md): its requests see and write sandbox data only. A rotation keeps it. */
  sandbox: boolean;
}

/** A key id with its secrets: the current one and those rotations replaced, newest first. */
export interface ApiKey {
  /**
   * A revocation of the key has begun: it cannot be rotated and sends no webhooks, even while a
   * revocation cut short has left a secret to revoke. Its own item says so; a key read from the index
   * (a list, or a key issued before key ids had an item) is revoked when its current secret is.
   */
  revoked: boolean;
  current: ApiKeyRecord;
  replaced: ApiKeyRecord[];
}

/** Keys issued before keys expired have no `key_expires_at`; the two optional ones are written once set. */
interface ApiKeyItem extends Omit<ApiKeyRecord, 'key_expires_at' | 'last_used_on' | 'replaced_at' | 'limits' | 'sandbox'> {
  PK: string;
  SK: string;
  key_expires_at?: string | null;
  last_used_on?: string;
  replaced_at?: string;
  limits?: KeyLimits;
  /** Written only for a sandbox key: every key issued before sandbox keys existed is live. */
  sandbox?: true;
}

/** The key id's own item: the one place that says, read consistently, which secrets a key has. */
interface KeyIdItem {
  key_id: string;
  revoked: boolean;
  current_sha256: string;
  /** Every secret the key id ever had, oldest first; appended to by rotations, never shortened. */
  sha256s: string[];
}

function toRecord(item: ApiKeyItem): ApiKeyRecord {
  const { key_id, sha256, name, scopes, profile_groups, location_groups, created_at, revoked } = item;
  return {
    key_id,
    sha256,
    name,
    scopes,
    profile_groups,
    location_groups,
    created_at,
    revoked,
    key_expires_at: item.key_expires_at ?? null,
    last_used_on: item.last_used_on ?? null,
    replaced_at: item.replaced_at ?? null,
    limits: item.limits ?? null,
    sandbox: item.sandbox === true,
  };
}

/**
 * The item of a secret. `last_used_on` and `replaced_at` are written only once they have a value: the
 * conditions on them test whether the attribute exists.
 */
function toItem(record: ApiKeyRecord): Record<string, unknown> {
  const { last_used_on, replaced_at, limits, sandbox, ...always } = record;
  return {
    ...keys.apiKey(record.sha256),
    ...index.apiKey(record.key_id),
    ...always,
    ...(last_used_on === null ? {} : { last_used_on }),
    ...(replaced_at === null ? {} : { replaced_at }),
    ...(limits === null ? {} : { limits }),
    ...(sandbox ? { sandbox: true } : {}),
  };
}

const newestReplacedFirst = (a: ApiKeyRecord, b: ApiKeyRecord) => (b.replaced_at ?? '').localeCompare(a.replaced_at ?? '');

/**
 * Groups the secrets of each key id, in the order the ids came. A key id has exactly one current secret:
 * a rotation adds the new one and marks the old one replaced in one transaction.
 */
function toApiKeys(records: ApiKeyRecord[]): ApiKey[] {
  const byId = new Map<string, ApiKeyRecord[]>();
  for (const record of records) byId.set(record.key_id, [...(byId.get(record.key_id) ?? []), record]);
  return [...byId.values()].flatMap((secrets) => {
    const current = secrets.find((secret) => secret.replaced_at === null);
    const replaced = secrets.filter((secret) => secret !== current).sort(newestReplacedFirst);
    return current ? [{ revoked: current.revoked, current, replaced }] : [];
  });
}

/** `consistent`: a read that sees a key issued a moment ago (the authorizer: its denial is cached 60 s). */
export async function findApiKeyByHash(sha256: string, options: { consistent?: boolean } = {}): Promise<ApiKeyRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(sha256), ConsistentRead: options.consistent }));
  return Item ? toRecord(Item as ApiKeyItem) : undefined;
}

/**
 * Stores a new key: its first secret and its key id's item, together. Storing the same hash again replaces
 * the secret (the local stack re-registers DEV_API_KEY under a new key id); the earlier key id's item then
 * lists a hash that is no longer its own, which every reader of it skips.
 */
export async function putApiKey(record: ApiKeyRecord): Promise<void> {
  const item: KeyIdItem = { key_id: record.key_id, revoked: record.revoked, current_sha256: record.sha256, sha256s: [record.sha256] };
  await transactWrite([
    named('secret', { Put: { TableName: tableName, Item: toItem(record) } }),
    named('key', { Put: { TableName: tableName, Item: { ...keys.apiKeyId(record.key_id), ...item }, ConditionExpression: 'attribute_not_exists(PK)' } }),
  ]);
}

/** Every key, one entry per key id (GSI1: a rotation or revocation shows within a second). */
export async function listApiKeys(): Promise<ApiKey[]> {
  return toApiKeys((await listByIndexPrefix<ApiKeyItem>(index.apiKeys)).map(toRecord));
}

async function keyIdItem(keyId: string): Promise<KeyIdItem | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.apiKeyId(keyId), ConsistentRead: true }));
  return Item as KeyIdItem | undefined;
}

/** The secrets a key id's item lists, read consistently; a hash re-issued under another key id is not its. */
async function keyListedBy(item: KeyIdItem): Promise<ApiKey | undefined> {
  const secrets = (await batchGetAll(item.sha256s.map(keys.apiKey)))
    .map((found) => toRecord(found as unknown as ApiKeyItem))
    .filter((secret) => secret.key_id === item.key_id);
  const current = secrets.find((secret) => secret.sha256 === item.current_sha256);
  if (!current) return undefined;
  return { revoked: item.revoked, current, replaced: secrets.filter((secret) => secret !== current).sort(newestReplacedFirst) };
}

/** The secrets of a key id as GSI1 shows them: for keys issued before key ids had an item. */
async function secretsInIndex(keyId: string): Promise<ApiKeyRecord[]> {
  const { GSI1PK, GSI1SK } = index.apiKey(keyId);
  const items = await queryAll({
    TableName: tableName,
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :sk',
    ExpressionAttributeValues: { ':pk': GSI1PK, ':sk': GSI1SK },
  });
  return items.map((item) => toRecord(item as unknown as ApiKeyItem));
}

/**
 * A key by its public id, read consistently: a rotation or revocation a moment ago shows. Undefined when
 * no key has that id. Reads only, so the webhook functions need no write for it (a key issued before key
 * ids had an item is read from the index).
 */
export async function findApiKeyById(keyId: string): Promise<ApiKey | undefined> {
  const item = await keyIdItem(keyId);
  return item ? keyListedBy(item) : toApiKeys(await secretsInIndex(keyId))[0];
}

/**
 * The key id's item, written first from the index for a key issued before key ids had one: rotate and
 * revoke serialise on it. Undefined when no key has that id. Two callers at once write it once: the loser
 * of the conditional put reads the winner's.
 */
async function writableKeyIdItem(keyId: string): Promise<KeyIdItem | undefined> {
  const existing = await keyIdItem(keyId);
  if (existing) return existing;
  const key = toApiKeys(await secretsInIndex(keyId))[0];
  if (!key) return undefined;
  const item: KeyIdItem = {
    key_id: keyId,
    // Only a revocation sets the flag: one cut short may have revoked some secrets and not the others.
    revoked: [key.current, ...key.replaced].some((secret) => secret.revoked),
    current_sha256: key.current.sha256,
    sha256s: [...key.replaced.map((secret) => secret.sha256).reverse(), key.current.sha256],
  };
  try {
    await dynamo.send(new PutCommand({ TableName: tableName, Item: { ...keys.apiKeyId(keyId), ...item }, ConditionExpression: 'attribute_not_exists(PK)' }));
    return item;
  } catch (error) {
    if (isConditionFailure(error)) return keyIdItem(keyId);
    throw error;
  }
}

/** A key by its public id, as rotate reads it: like findApiKeyById, its item written first if missing. */
export async function findApiKeyToRotate(keyId: string): Promise<ApiKey | undefined> {
  const item = await writableKeyIdItem(keyId);
  return item && keyListedBy(item);
}

/** Revoking a key: undefined when no key has that id; "already revoked" when nothing was left to revoke. */
export type Revocation = 'revoked' | 'already revoked';

/**
 * Marks the key id revoked, then every secret its item lists. The item's list, read in the same write
 * that set the flag, is final: a rotation appends only while the key is not revoked. Idempotent: after a
 * failure midway, revoking again completes it.
 */
export async function revokeApiKey(keyId: string): Promise<Revocation | undefined> {
  if (!(await writableKeyIdItem(keyId))) return undefined;
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.apiKeyId(keyId),
      UpdateExpression: 'SET revoked = :true',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':true': true },
      ReturnValues: 'ALL_OLD',
    }),
  );
  const before = Attributes as KeyIdItem;
  const revokedNow = await Promise.all(before.sha256s.map((sha256) => revokeSecret(keyId, sha256)));
  return !before.revoked || revokedNow.some(Boolean) ? 'revoked' : 'already revoked';
}

/** Revokes one secret of the key; false when it was revoked already or is no longer the key's (re-issued). */
async function revokeSecret(keyId: string, sha256: string): Promise<boolean> {
  return writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.apiKey(sha256),
        UpdateExpression: 'SET revoked = :true',
        ConditionExpression: 'key_id = :keyId AND revoked = :false',
        ExpressionAttributeValues: { ':true': true, ':false': false, ':keyId': keyId },
      }),
    ),
  );
}

/**
 * Puts a key's new secret, ends the current one's life at `replacedExpiresAt` and appends the new hash to
 * the key id's item, in one transaction, on condition that the key id is not revoked and `current` is still
 * its current secret: of two concurrent rotations one wins and the other is a Conflict, and a key whose
 * revocation began meanwhile gets no new secret. The key id's item must exist (findApiKeyToRotate).
 */
export async function replaceApiKeySecret(current: ApiKeyRecord, next: ApiKeyRecord, replacedAt: string, replacedExpiresAt: string): Promise<void> {
  try {
    await transactWrite([
      named('next', {
        Put: { TableName: tableName, Item: toItem(next), ConditionExpression: 'attribute_not_exists(PK)' },
      }),
      named('current', {
        Update: {
          TableName: tableName,
          Key: keys.apiKey(current.sha256),
          UpdateExpression: 'SET replaced_at = :at, key_expires_at = :expires',
          ConditionExpression: 'attribute_exists(PK) AND revoked = :false AND attribute_not_exists(replaced_at)',
          ExpressionAttributeValues: { ':at': replacedAt, ':expires': replacedExpiresAt, ':false': false },
        },
      }),
      named('key', {
        Update: {
          TableName: tableName,
          Key: keys.apiKeyId(current.key_id),
          UpdateExpression: 'SET current_sha256 = :next, sha256s = list_append(sha256s, :appended)',
          ConditionExpression: 'revoked = :false AND current_sha256 = :current',
          ExpressionAttributeValues: { ':next': next.sha256, ':appended': [next.sha256], ':current': current.sha256, ':false': false },
        },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && (error.failed('key') || error.failed('current'))) {
      throw new Conflict(`${current.key_id} was revoked or rotated meanwhile; list the keys and try again`);
    }
    throw error;
  }
}

/** Named once for the IAM grant of the read functions, which may update this attribute only. */
const LAST_USE: typeof API_KEY_LAST_USE_ATTRIBUTE & keyof ApiKeyRecord = API_KEY_LAST_USE_ATTRIBUTE;

/**
 * Records that a secret authenticated a request on `day`, unless a later or equal day is recorded
 * already (another container got there first). Answers whether this call wrote it.
 */
export async function recordApiKeyUse(sha256: string, day: string): Promise<boolean> {
  return writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.apiKey(sha256),
        UpdateExpression: 'SET #lastUse = :day',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#lastUse) OR #lastUse < :day)',
        ExpressionAttributeNames: { '#lastUse': LAST_USE },
        ExpressionAttributeValues: { ':day': day },
      }),
    ),
  );
}
