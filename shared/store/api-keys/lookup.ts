/**
 * Reading API keys (shared/store/api-keys/records.ts says what is stored): a request's secret by its hash,
 * a key by its public id, every key for the keys CLI; and the one write a request makes, its day of use.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../client';
import { writtenIf } from '../conditions';
import { API_KEY_LAST_USE_ATTRIBUTE, GSI1 } from '../keys';
import * as keys from '../keys/items';
import * as index from '../keys/index-entries';
import { batchGetAll, listByIndexPrefix, queryAll } from '../query';
import { type ApiKey, type ApiKeyItem, type ApiKeyRecord, type KeyIdItem, newestReplacedFirst, toApiKeys, toRecord } from './records';

/** `consistent`: a read that sees a key issued a moment ago (the authorizer: its denial is cached 60 s). */
export async function findApiKeyByHash(sha256: string, options: { consistent?: boolean } = {}): Promise<ApiKeyRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(sha256), ConsistentRead: options.consistent }));
  return Item ? toRecord(Item as ApiKeyItem) : undefined;
}

/** Every key, one entry per key id (GSI1: a rotation or revocation shows within a second). */
export async function listApiKeys(): Promise<ApiKey[]> {
  return toApiKeys((await listByIndexPrefix<ApiKeyItem>(index.apiKeys)).map(toRecord));
}

export async function keyIdItem(keyId: string): Promise<KeyIdItem | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.apiKeyId(keyId), ConsistentRead: true }));
  return Item as KeyIdItem | undefined;
}

/** The secrets a key id's item lists, read consistently; a hash re-issued under another key id is not its. */
export async function keyListedBy(item: KeyIdItem): Promise<ApiKey | undefined> {
  const secrets = (await batchGetAll(item.sha256s.map(keys.apiKey)))
    .map((found) => toRecord(found as unknown as ApiKeyItem))
    .filter((secret) => secret.key_id === item.key_id);
  const current = secrets.find((secret) => secret.sha256 === item.current_sha256);
  if (!current) return undefined;
  return { revoked: item.revoked, current, replaced: secrets.filter((secret) => secret !== current).sort(newestReplacedFirst) };
}

/** The secrets of a key id as GSI1 shows them: for keys issued before key ids had an item. */
export async function secretsInIndex(keyId: string): Promise<ApiKeyRecord[]> {
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
