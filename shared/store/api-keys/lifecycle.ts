/**
 * Issuing, rotating and revoking API keys (shared/store/api-keys/records.ts says what is stored): the
 * writes that serialise on a key id's own item.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../../errors';
import { dynamo, tableName } from '../client';
import { isConditionFailure, writtenIf } from '../conditions';
import * as keys from '../keys/items';
import { named, TransactionCancelled, transactWrite } from '../transactions';
import { keyIdItem, keyListedBy, secretsInIndex } from './lookup';
import { type ApiKey, type ApiKeyRecord, type KeyIdItem, toApiKeys, toItem } from './records';

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
