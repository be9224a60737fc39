/**
 * Pages of the lists that grow without bound (a profile's appointments and kit orders, a tenant's
 * shipments). A list may merge several GSI1 partitions (one per location group of a key), newest
 * first; each page reads at most `limit` items per partition, so a page costs what it returns.
 *
 * The cursor is opaque to clients and compact (a key may hold 50 groups): per partition, in GSI1PK
 * order, null (not started), true (done) or the GSI1SK of the last item answered from it. It is checked
 * before use, so a forged cursor can only ask for a 400, never another partition or a 500.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { InvalidInput } from '../errors';
import { dynamo, tableName } from './client';
import { GSI1, type ItemKey } from './keys';
import { withoutKeys } from './query';

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** Present when more items follow: pass it as `cursor` for the next page. */
  next?: string;
}

export interface PagedList {
  GSI1PK: string;
  skPrefix: string;
  /** The base-table key of the item listed under a GSI1SK (DynamoDB needs it to resume a Query). */
  baseKey: (gsi1sk: string) => ItemKey;
}

type Position = null | true | string;

const INVALID_CURSOR = 'cursor is invalid; use the X-Next-Cursor value of the previous page';
const MAX_KEY_LENGTH = 1024; // DynamoDB's limit for a sort key

function decodeCursor(cursor: string, lists: PagedList[]): Position[] {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidInput(INVALID_CURSOR);
  }
  const valid =
    Array.isArray(decoded) &&
    decoded.length === lists.length &&
    decoded.every((position: unknown, i) => {
      if (position === null || position === true) return true;
      const list = lists[i] as PagedList;
      return (
        typeof position === 'string' &&
        position.length <= MAX_KEY_LENGTH &&
        position.startsWith(list.skPrefix) &&
        !position.endsWith('#') &&
        position.lastIndexOf('#') >= list.skPrefix.length
      );
    });
  if (!valid) throw new InvalidInput(INVALID_CURSOR);
  return decoded as Position[];
}

const encodeCursor = (positions: Position[]) => Buffer.from(JSON.stringify(positions)).toString('base64url');

/** One page, newest first (descending GSI1SK), merged from the given partitions. */
export async function pageByIndexPrefix<T>(partitions: PagedList[], page: PageRequest): Promise<Page<T>> {
  // A fixed order, whatever order the key lists its groups in: the cursor's positions follow it.
  const lists = [...partitions].sort((a, b) => a.GSI1PK.localeCompare(b.GSI1PK));
  const positions = page.cursor ? decodeCursor(page.cursor, lists) : lists.map((): Position => null);
  const reads = await Promise.all(
    lists.map(async (list, i) => {
      const position = positions[i];
      if (position === true) return { items: [], more: false };
      const result = await dynamo
        .send(
          new QueryCommand({
            TableName: tableName,
            IndexName: GSI1,
            KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
            ExpressionAttributeValues: { ':pk': list.GSI1PK, ':prefix': list.skPrefix },
            ScanIndexForward: false,
            Limit: page.limit,
            ...(typeof position === 'string' ? { ExclusiveStartKey: { ...list.baseKey(position), GSI1PK: list.GSI1PK, GSI1SK: position } } : {}),
          }),
        )
        .catch((error: unknown) => {
          // A start key DynamoDB will not take can only come from a cursor we did not issue.
          if (typeof position === 'string' && (error as { name?: string }).name === 'ValidationException') {
            throw new InvalidInput(INVALID_CURSOR);
          }
          throw error;
        });
      return { items: result.Items ?? [], more: result.LastEvaluatedKey !== undefined };
    }),
  );
  const merged = reads
    .flatMap((read) => read.items)
    .sort((a, b) => (b.GSI1SK as string).localeCompare(a.GSI1SK as string))
    .slice(0, page.limit);

  const next = lists.map((list, i): Position => {
    const read = reads[i] as { items: Record<string, unknown>[]; more: boolean };
    const answered = merged.filter((item) => item.GSI1PK === list.GSI1PK);
    if (answered.length === read.items.length && !read.more) return true;
    return (answered.at(-1)?.GSI1SK as string | undefined) ?? (positions[i] as Position);
  });
  const finished = next.every((position) => position === true);
  return { items: merged.map((item) => withoutKeys<T>(item)), ...(finished ? {} : { next: encodeCursor(next) }) };
}

/** A list that is one base-table partition, oldest first (a resource's history). */
export interface PartitionList {
  PK: string;
  skPrefix: string;
}

/**
 * One page of a partition, ascending SK (or descending with `newestFirst`): one Query of at most `limit`
 * items. The cursor is the last SK answered.
 */
export async function pageOfPartition<T>(list: PartitionList, page: PageRequest, options: { newestFirst?: boolean } = {}): Promise<Page<T>> {
  let after: string | undefined;
  if (page.cursor) {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(page.cursor, 'base64url').toString('utf8'));
    } catch {
      throw new InvalidInput(INVALID_CURSOR);
    }
    if (typeof decoded !== 'string' || !decoded.startsWith(list.skPrefix) || decoded.length > MAX_KEY_LENGTH) {
      throw new InvalidInput(INVALID_CURSOR);
    }
    after = decoded;
  }
  const result = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': list.PK, ':prefix': list.skPrefix },
      Limit: page.limit,
      ScanIndexForward: !options.newestFirst,
      ...(after ? { ExclusiveStartKey: { PK: list.PK, SK: after } } : {}),
    }),
  );
  const items = result.Items ?? [];
  const last = items.at(-1)?.SK as string | undefined;
  return {
    items: items.map((item) => withoutKeys<T>(item)),
    ...(result.LastEvaluatedKey && last ? { next: Buffer.from(JSON.stringify(last)).toString('base64url') } : {}),
  };
}
