/**
 * Pages of the lists that grow without bound (a profile's appointments and kit orders, a tenant's
 * shipments). A list may merge several GSI1 partitions (one per location group of a key), newest
 * first; each page reads at most `limit` items per partition, so a page costs what it returns.
 *
 * The cursor is opaque to clients and compact (a key may hold 50 groups): per partition, in GSI1PK
 * order, null (not started), true (done) or the GSI1SK of the last item answered from it.
 *
 * A cursor answers only to the list and the reader it was issued to: `<positions>.<tag>`, the tag being
 * HMAC-SHA256 (truncated to 128 bits) over the positions, the list (its partitions and prefixes, as
 * queried here, so no caller can mislabel it) and the id of the API key reading it, with the secret of
 * the binding (CURSOR_SECRET). Profile A's cursor on profile B's list, another key's cursor, an edited
 * or made-up one: all fail the tag, 400, before any read. Nothing in it is secret (a reader sees its
 * own positions); it only cannot be moved or changed.
 */
import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { InvalidInput } from '../errors';
import { dynamo, tableName } from './client';
import { GSI1, type ItemKey } from './keys';
import { withoutKeys } from './query';

/** Whom a list's cursors are issued to, and the key that signs them (shared/usecases/paging.ts makes it). */
export interface CursorBinding {
  /** The id of the API key reading the list. */
  readonly reader: string;
  readonly secret: KeyObject;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
  binding: CursorBinding;
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

export const INVALID_CURSOR = 'cursor is invalid; use the X-Next-Cursor value of the previous page';
const MAX_KEY_LENGTH = 1024; // DynamoDB's limit for a sort key
/** Names the tag's input layout: a cursor of another layout can never verify. */
const CURSOR_FORMAT = 'lab-api cursor v1';
const TAG_BYTES = 16;

function tag(payload: string, list: string, binding: CursorBinding): Buffer {
  return createHmac('sha256', binding.secret)
    .update(JSON.stringify([CURSOR_FORMAT, binding.reader, list, payload]))
    .digest()
    .subarray(0, TAG_BYTES);
}

/** The cursor of `value` on `list` (the identity of what is queried), for the binding's reader only. */
export function seal(value: unknown, list: string, binding: CursorBinding): string {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${tag(payload, list, binding).toString('base64url')}`;
}

/** The value of a cursor issued by `seal` for this list and reader; anything else is a 400. */
export function unseal(cursor: string, list: string, binding: CursorBinding): unknown {
  const [payload, received, ...extra] = cursor.split('.');
  const given = Buffer.from(received ?? '', 'base64url');
  const expected = tag(payload ?? '', list, binding);
  if (!payload || extra.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new InvalidInput(INVALID_CURSOR);
  }
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidInput(INVALID_CURSOR);
  }
}

/** Only cursors issued for this list and reader get past `unseal`; a position must still fit its partition. */
function decodeCursor(cursor: string, lists: PagedList[], binding: CursorBinding): Position[] {
  const decoded = unseal(cursor, indexListIdentity(lists), binding);
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

/** What a merged GSI1 list is: its partitions and prefixes, in the cursor's order. */
const indexListIdentity = (lists: PagedList[]) => JSON.stringify([GSI1, ...lists.map((list) => [list.GSI1PK, list.skPrefix])]);

/** One page, newest first (descending GSI1SK), merged from the given partitions. */
export async function pageByIndexPrefix<T>(partitions: PagedList[], page: PageRequest): Promise<Page<T>> {
  // A fixed order, whatever order the key lists its groups in: the cursor's positions follow it.
  const lists = [...partitions].sort((a, b) => a.GSI1PK.localeCompare(b.GSI1PK));
  const positions = page.cursor ? decodeCursor(page.cursor, lists, page.binding) : lists.map((): Position => null);
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
  return {
    items: merged.map((item) => withoutKeys<T>(item)),
    ...(finished ? {} : { next: seal(next, indexListIdentity(lists), page.binding) }),
  };
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
  const identity = JSON.stringify(['PK', list.PK, list.skPrefix, options.newestFirst ? 'descending' : 'ascending']);
  let after: string | undefined;
  if (page.cursor) {
    const decoded = unseal(page.cursor, identity, page.binding);
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
    ...(result.LastEvaluatedKey && last ? { next: seal(last, identity, page.binding) } : {}),
  };
}
