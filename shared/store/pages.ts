/**
 * Pages of the lists that grow without bound (a profile's appointments and kit orders, a tenant's
 * shipments). A list may merge several GSI1 partitions (one per location group of a key), newest
 * first; each page reads at most `limit` items per partition, so a page costs what it returns.
 *
 * The cursor is opaque to clients: per partition, the index key of the last item answered from it, or
 * "done". It is checked before use, so a forged cursor can only ask for a 400, never another partition.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { BadRequest } from '../http/errors';
import { dynamo, tableName } from './client';
import { GSI1 } from './keys';
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

interface IndexKey {
  PK: string;
  SK: string;
  GSI1PK: string;
  GSI1SK: string;
}
type Position = IndexKey | 'done';

const INVALID_CURSOR = 'cursor is invalid; use the X-Next-Cursor value of the previous page';

function decodeCursor(cursor: string, lists: { GSI1PK: string; skPrefix: string }[]): Map<string, Position> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequest(INVALID_CURSOR);
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) throw new BadRequest(INVALID_CURSOR);
  const positions = new Map<string, Position>();
  for (const [partition, position] of Object.entries(decoded)) {
    const list = lists.find((l) => l.GSI1PK === partition);
    const valid =
      list !== undefined &&
      (position === 'done' ||
        (typeof position === 'object' &&
          position !== null &&
          Object.keys(position).sort().join() === 'GSI1PK,GSI1SK,PK,SK' &&
          Object.values(position).every((value) => typeof value === 'string') &&
          (position as IndexKey).GSI1PK === partition &&
          (position as IndexKey).GSI1SK.startsWith(list.skPrefix)));
    if (!valid) throw new BadRequest(INVALID_CURSOR);
    positions.set(partition, position as Position);
  }
  return positions;
}

const encodeCursor = (positions: Map<string, Position>) => Buffer.from(JSON.stringify(Object.fromEntries(positions))).toString('base64url');

const indexKey = (item: Record<string, unknown>): IndexKey => ({
  PK: item.PK as string,
  SK: item.SK as string,
  GSI1PK: item.GSI1PK as string,
  GSI1SK: item.GSI1SK as string,
});

/** One page, newest first (descending GSI1SK), merged from the given partitions. */
export async function pageByIndexPrefix<T>(lists: { GSI1PK: string; skPrefix: string }[], page: PageRequest): Promise<Page<T>> {
  const positions = page.cursor ? decodeCursor(page.cursor, lists) : new Map<string, Position>();
  const reads = await Promise.all(
    lists
      .filter((list) => positions.get(list.GSI1PK) !== 'done')
      .map(async (list) => {
        const start = positions.get(list.GSI1PK);
        const result = await dynamo.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: GSI1,
            KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
            ExpressionAttributeValues: { ':pk': list.GSI1PK, ':prefix': list.skPrefix },
            ScanIndexForward: false,
            Limit: page.limit,
            ...(start && start !== 'done' ? { ExclusiveStartKey: start } : {}),
          }),
        );
        return { partition: list.GSI1PK, items: result.Items ?? [], more: result.LastEvaluatedKey !== undefined };
      }),
  );
  const merged = reads
    .flatMap((read) => read.items)
    .sort((a, b) => (b.GSI1SK as string).localeCompare(a.GSI1SK as string))
    .slice(0, page.limit);

  const next = new Map(positions);
  for (const read of reads) {
    const answered = merged.filter((item) => item.GSI1PK === read.partition);
    const last = answered.at(-1);
    if (last) next.set(read.partition, indexKey(last));
    if (answered.length === read.items.length && !read.more) next.set(read.partition, 'done');
  }
  const finished = lists.every((list) => next.get(list.GSI1PK) === 'done');
  return { items: merged.map((item) => withoutKeys<T>(item)), ...(finished ? {} : { next: encodeCursor(next) }) };
}
