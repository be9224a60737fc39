/**
 * API keys. Only the SHA-256 of a key's secret is stored; the plaintext is shown once when it is issued.
 * A key id has one item per secret: a rotation adds the new secret's item and marks the current one
 * `replaced_at`, with an expiry that ends its grace period. Revoking a key revokes every secret of its id.
 *
 * Access patterns:
 * - the secret of a request, by its hash ...... GetItem     PK=APIKEY#<sha256>
 * - its last use, at most once a day .......... UpdateItem  PK=APIKEY#<sha256>, conditional on the day
 * - all keys, for the keys CLI ................ Query       GSI1 APIKEYS / begins_with APIKEY#
 * - one key's secrets by its public id ........ Query       GSI1 APIKEYS / APIKEY#<key id>
 * - rotate .................................... TransactWrite: Put the new secret, Update the current one
 * - revoke .................................... UpdateItem of each secret of the key id
 *
 * The expiry is `key_expires_at`, an ISO instant, and not `expires_at`: that is the table's TTL attribute,
 * and an expired key must stay (to answer "API key expired" and to be listed), not be deleted.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../auth/scopes';
import { Conflict } from '../errors';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import { API_KEY_LAST_USE_ATTRIBUTE, GSI1, index, keys } from './keys';
import { listByIndexPrefix, queryAll } from './query';
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
}

/** A key id with its secrets: the current one and those rotations replaced, newest first. */
export interface ApiKey {
  current: ApiKeyRecord;
  replaced: ApiKeyRecord[];
}

/** Keys issued before keys expired have no `key_expires_at`; the two optional ones are written once set. */
interface ApiKeyItem extends Omit<ApiKeyRecord, 'key_expires_at' | 'last_used_on' | 'replaced_at'> {
  PK: string;
  SK: string;
  key_expires_at?: string | null;
  last_used_on?: string;
  replaced_at?: string;
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
  };
}

/**
 * The item of a secret. `last_used_on` and `replaced_at` are written only once they have a value: the
 * conditions on them test whether the attribute exists.
 */
function toItem(record: ApiKeyRecord): Record<string, unknown> {
  const { last_used_on, replaced_at, ...always } = record;
  return {
    ...keys.apiKey(record.sha256),
    ...index.apiKey(record.key_id),
    ...always,
    ...(last_used_on === null ? {} : { last_used_on }),
    ...(replaced_at === null ? {} : { replaced_at }),
  };
}

/**
 * Groups the secrets of each key id, in the order the ids came. A key id has exactly one current secret:
 * a rotation adds the new one and marks the old one replaced in one transaction.
 */
function toApiKeys(records: ApiKeyRecord[]): ApiKey[] {
  const byId = new Map<string, ApiKeyRecord[]>();
  for (const record of records) byId.set(record.key_id, [...(byId.get(record.key_id) ?? []), record]);
  return [...byId.values()].flatMap((secrets) => {
    const current = secrets.find((secret) => secret.replaced_at === null);
    const replaced = secrets.filter((secret) => secret !== current).sort((a, b) => (b.replaced_at ?? '').localeCompare(a.replaced_at ?? ''));
    return current ? [{ current, replaced }] : [];
  });
}

export async function findApiKeyByHash(sha256: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(sha256) }));
  return Item ? toRecord(Item as ApiKeyItem) : undefined;
}

/** Stores a secret; storing the same hash again replaces it (the local stack re-registers DEV_API_KEY). */
export async function putApiKey(record: ApiKeyRecord): Promise<void> {
  await dynamo.send(new PutCommand({ TableName: tableName, Item: toItem(record) }));
}

/** Every key, one entry per key id. */
export async function listApiKeys(): Promise<ApiKey[]> {
  return toApiKeys((await listByIndexPrefix<ApiKeyItem>(index.apiKeys)).map(toRecord));
}

/** A key by its public id (GSI1: eventually consistent, a revocation or rotation shows within a second). */
export async function findApiKeyById(keyId: string): Promise<ApiKey | undefined> {
  return toApiKeys(await secretsOf(keyId))[0];
}

async function secretsOf(keyId: string): Promise<ApiKeyRecord[]> {
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
 * Marks every secret of a key revoked. Returns false when no key has that id. Each update is idempotent:
 * after a failure midway, revoking again completes it.
 */
export async function revokeApiKey(keyId: string): Promise<boolean> {
  const secrets = await secretsOf(keyId);
  if (secrets.length === 0) return false;
  await Promise.all(
    secrets
      .filter((secret) => !secret.revoked)
      .map((secret) =>
        dynamo.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.apiKey(secret.sha256),
            UpdateExpression: 'SET revoked = :true',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':true': true },
          }),
        ),
      ),
  );
  return true;
}

/**
 * Puts a key's new secret and ends the current one's life at `replacedExpiresAt`, in one transaction, on
 * condition that the current secret is neither revoked nor replaced already: of two concurrent
 * rotations one wins and the other is a Conflict, and a key revoked meanwhile gets no new secret.
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
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.failed('current')) {
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
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.apiKey(sha256),
        UpdateExpression: 'SET #lastUse = :day',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#lastUse) OR #lastUse < :day)',
        ExpressionAttributeNames: { '#lastUse': LAST_USE },
        ExpressionAttributeValues: { ':day': day },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
