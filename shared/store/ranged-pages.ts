/**
 * Pages of a list merged from many GSI1 partitions whose sort keys are one global order (each unique and of
 * one fixed-width format: `<WORD>#<UTC instant>#<id>`), read in a range of them and optionally filtered:
 * the event log (shared/store/event-log.ts), where a key may read a partition per group and kind, up to
 * 200. Unlike pageByIndexPrefix (shared/store/pages.ts), the cursor is one position whatever the number of
 * partitions: the sort key below which nothing was answered yet, signed for the list and the reader.
 *
 * A page reads at most `limit` items per partition. Every item at or above the highest key where a
 * partition still had more was read in every partition, so only those are answered: newest first across
 * all partitions, even where a filter dropped most of one partition's items (such a page may answer fewer
 * than `limit` and still name a next one).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { InvalidInput } from '../errors';
import { dynamo, tableName } from './client';
import { GSI1 } from './keys';
import { INVALID_CURSOR, type Page, type PageRequest, seal, unseal } from './pages';
import { withoutKeys } from './query';

export interface RangedList {
  /** The partitions (GSI1PK) to merge. */
  partitions: readonly string[];
  /** The sort keys to read, both inclusive. */
  from: string;
  to: string;
  /** Only items whose `attribute` is one of `anyOf` (a FilterExpression: what it drops is read all the same). */
  filter?: { attribute: string; anyOf: readonly string[] };
}

/** The greatest sort key below `key` that a key of the same width can be: the inclusive bound under it. */
const justBelow = (key: string) => `${key.slice(0, -1)}${String.fromCharCode(key.charCodeAt(key.length - 1) - 1)}`;

async function readPartition(partition: string, from: string, to: string, list: RangedList, limit: number) {
  const values: Record<string, unknown> = { ':pk': partition, ':from': from, ':to': to };
  list.filter?.anyOf.forEach((value, i) => (values[`:f${i}`] = value));
  const result = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
      ...(list.filter
        ? {
            FilterExpression: `#filtered IN (${list.filter.anyOf.map((_, i) => `:f${i}`).join(', ')})`,
            ExpressionAttributeNames: { '#filtered': list.filter.attribute },
          }
        : {}),
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  // Where this partition stopped: below it, it has more to read.
  const stoppedAt = result.LastEvaluatedKey?.GSI1SK as string | undefined;
  return { items: result.Items ?? [], stoppedAt };
}

export async function pageByRange<T>(list: RangedList, page: PageRequest): Promise<Page<T>> {
  const identity = JSON.stringify([GSI1, 'range', [...list.partitions].sort(), list.from, list.to, list.filter ?? null]);
  let to = list.to;
  if (page.cursor) {
    const position = unseal(page.cursor, identity, page.binding);
    if (typeof position !== 'string' || position < list.from || position > list.to) throw new InvalidInput(INVALID_CURSOR);
    to = justBelow(position);
  }
  if (to < list.from) return { items: [] };
  const reads = await Promise.all(list.partitions.map((partition) => readPartition(partition, list.from, to, list, page.limit)));
  // Below the highest key where a partition stopped, that partition may hold items not read yet.
  const floor = reads.reduce<string | undefined>(
    (highest, read) => (read.stoppedAt && (!highest || read.stoppedAt > highest) ? read.stoppedAt : highest),
    undefined,
  );
  const answered = reads
    .flatMap((read) => read.items)
    .filter((item) => floor === undefined || (item.GSI1SK as string) >= floor)
    .sort((a, b) => (b.GSI1SK as string).localeCompare(a.GSI1SK as string))
    .slice(0, page.limit);
  const read = reads.reduce((count, partition) => count + partition.items.length, 0);
  const finished = floor === undefined && answered.length === read;
  // More to come: below the last item answered when the page is full, else below the floor (everything at
  // or above it was answered).
  const next = finished ? undefined : answered.length === page.limit ? (answered.at(-1)?.GSI1SK as string) : floor;
  return { items: answered.map((item) => withoutKeys<T>(item)), ...(next === undefined ? {} : { next: seal(next, identity, page.binding) }) };
}
