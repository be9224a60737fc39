/** Reads: every page of a Query (lists are bounded by tenant, so a list costs what it returns), batches of keys. */
import { BatchGetCommand, type BatchGetCommandOutput, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { Unavailable } from '../errors';
import { GSI1, GSI2, type ItemKey } from './keys';

export async function queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: QueryCommandInput['ExclusiveStartKey'];
  do {
    const page = await dynamo.send(new QueryCommand({ ...input, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/**
 * Up to `limit` items of a GSI2 partition whose sort key is below `cutoff`, oldest first: what a scheduled
 * function finds due (deliveries to retry, reminders to send). One Query of one page.
 */
export async function dueOnGsi2<T>({ GSI2PK, GSI2SKBefore }: { GSI2PK: string; GSI2SKBefore: string }, limit: number): Promise<T[]> {
  const result = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :cutoff',
      ExpressionAttributeValues: { ':pk': GSI2PK, ':cutoff': GSI2SKBefore },
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map((item) => withoutKeys<T>(item));
}

/** Strips the table's key attributes from an item, leaving the record the rest of the code uses. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  const { PK: _pk, SK: _sk, GSI1PK: _gpk, GSI1SK: _gsk, GSI2PK: _g2pk, GSI2SK: _g2sk, ...record } = item;
  return record as T;
}

/**
 * Calls of one BatchGetItem page before its unprocessed keys give up: DynamoDB leaves keys unprocessed
 * when throttled, and a throttling that lasts must end the request (503), not loop until Lambda's timeout.
 * With the backoff below the last try starts about 1.5 s after the first.
 */
const BATCH_GET_ATTEMPTS = 6;

/** What a batch read that DynamoDB kept throttling throws (the HTTP edge answers Unavailable with 503). */
export const ITEMS_NOT_READ = 'The database is busy and did not return every item; retry the request';

/**
 * BatchGetItem of up to any number of keys (100 per call, DynamoDB's limit), retrying unprocessed keys
 * with backoff, at most BATCH_GET_ATTEMPTS calls per page. Answers the items found, in no particular order.
 */
export async function batchGetAll(keyList: ItemKey[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keyList.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = keyList.slice(i, i + 100).map((key) => ({ ...key }));
    for (let attempt = 0; pending && pending.length > 0; attempt += 1) {
      if (attempt >= BATCH_GET_ATTEMPTS) throw new Unavailable(ITEMS_NOT_READ);
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
      const result: BatchGetCommandOutput = await dynamo.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }));
      found.push(...(result.Responses?.[tableName] ?? []));
      pending = result.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return found;
}

/** Every record under one GSI1 partition whose sort key starts with `prefix` (a list of a tenant or kind). */
export async function listByIndexPrefix<T>(list: { GSI1PK: string; skPrefix: string }, options: { newestFirst?: boolean } = {}): Promise<T[]> {
  const items = await queryAll({
    TableName: tableName,
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
    ExpressionAttributeValues: { ':pk': list.GSI1PK, ':prefix': list.skPrefix },
    ScanIndexForward: !options.newestFirst,
  });
  return items.map((item) => withoutKeys<T>(item));
}
