/**
 * API keys. Only the SHA-256 of a key is stored; the plaintext is shown once when it is issued.
 *
 * Access patterns:
 * - the key of a request, by its hash ........ GetItem  PK=APIKEY#<sha256>
 * - all keys, for the keys CLI ................ Query    GSI1 APIKEYS / APIKEY#<key id>
 * - one key by its public key id (revoke) ..... Query    GSI1 APIKEYS / APIKEY#<key id>
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../auth/scopes';
import { dynamo, tableName } from './client';
import { GSI1, index, keys } from './keys';
import { listByIndexPrefix } from './query';

export interface ApiKeyRecord {
  key_id: string;
  name: string;
  scopes: Scope[];
  profile_groups: string[];
  location_groups: string[];
  created_at: string;
  revoked: boolean;
}

interface ApiKeyItem extends ApiKeyRecord {
  PK: string;
  SK: string;
  sha256: string;
}

function toRecord(item: ApiKeyItem): ApiKeyRecord {
  const { key_id, name, scopes, profile_groups, location_groups, created_at, revoked } = item;
  return { key_id, name, scopes, profile_groups, location_groups, created_at, revoked };
}

export async function findApiKeyByHash(sha256: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(sha256) }));
  return Item ? toRecord(Item as ApiKeyItem) : undefined;
}

/** Stores a key; storing the same hash again replaces it (the local stack re-registers DEV_API_KEY). */
export async function putApiKey(sha256: string, record: ApiKeyRecord): Promise<void> {
  const item: ApiKeyItem = { ...keys.apiKey(sha256), ...index.apiKey(record.key_id), sha256, ...record };
  await dynamo.send(new PutCommand({ TableName: tableName, Item: item }));
}

export async function listApiKeys(): Promise<ApiKeyRecord[]> {
  return (await listByIndexPrefix<ApiKeyItem>(index.apiKeys)).map(toRecord);
}

/** A key by its public id (GSI1: eventually consistent, a revocation shows within a second). */
export async function findApiKeyById(keyId: string): Promise<ApiKeyRecord | undefined> {
  const item = await findItemById(keyId);
  return item ? toRecord(item) : undefined;
}

async function findItemById(keyId: string): Promise<ApiKeyItem | undefined> {
  const { GSI1PK, GSI1SK } = index.apiKey(keyId);
  const { Items } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :sk',
      ExpressionAttributeValues: { ':pk': GSI1PK, ':sk': GSI1SK },
    }),
  );
  return Items?.[0] as ApiKeyItem | undefined;
}

/** Marks a key revoked. Returns false when no key has that id. */
export async function revokeApiKey(keyId: string): Promise<boolean> {
  const item = await findItemById(keyId);
  if (!item) return false;
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.apiKey(item.sha256),
      UpdateExpression: 'SET revoked = :true',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
  return true;
}
