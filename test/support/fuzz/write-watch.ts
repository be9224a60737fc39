/**
 * Which items a request tried to write, and what they held before: a middleware at the SDK edge of the
 * service's DynamoDB client (as the fault tests inject theirs) that, before each write call, reads the
 * items it names with a client of its own. A refused request must leave each of them as it was: compared
 * after the request, item by item. DynamoDB changes only the items a write names, so this is exact for the
 * table, and cheap beside a digest of everything; the digest of the whole table and bucket
 * (test/support/fuzz/digest.ts) still brackets every run of requests the schemas refuse.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../../../shared/store/client';
import { isRequestCounter, itemHash } from '../table';

type Key = { PK: string; SK: string };
const text = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null && typeof (value as { S?: unknown }).S === 'string'
      ? (value as { S: string }).S
      : undefined;

function keyOf(item: unknown): Key | undefined {
  const record = item as Record<string, unknown> | undefined;
  const PK = text(record?.PK);
  const SK = text(record?.SK);
  return PK !== undefined && SK !== undefined ? { PK, SK } : undefined;
}

/** The keys a write command names: Put, Update, Delete, a transaction's and a batch's. */
function writtenKeys(command: string, input: Record<string, unknown>): Key[] {
  const keys: (Key | undefined)[] = [];
  if (command === 'PutCommand' || command === 'PutItemCommand') keys.push(keyOf(input.Item));
  if (['UpdateCommand', 'UpdateItemCommand', 'DeleteCommand', 'DeleteItemCommand'].includes(command)) keys.push(keyOf(input.Key));
  if (command === 'TransactWriteCommand' || command === 'TransactWriteItemsCommand') {
    for (const entry of (input.TransactItems ?? []) as Record<string, { Item?: unknown; Key?: unknown }>[]) {
      keys.push(keyOf(entry.Put?.Item), keyOf(entry.Update?.Key), keyOf(entry.Delete?.Key));
    }
  }
  if (command === 'BatchWriteCommand' || command === 'BatchWriteItemCommand') {
    for (const requests of Object.values(
      (input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: unknown }; DeleteRequest?: { Key: unknown } }[]>,
    )) {
      for (const request of requests) keys.push(keyOf(request.PutRequest?.Item), keyOf(request.DeleteRequest?.Key));
    }
  }
  // A patient link's request counter counts refused requests too, by design (test/support/table.ts).
  return keys.filter((key): key is Key => key !== undefined && !isRequestCounter(key.PK));
}

export function watchWrites(options: { endpoint: string; region: string; tableName: string }) {
  const reader = new DynamoDBClient({ region: options.region, endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const read = async (key: Key): Promise<string> => {
    const { Item } = await reader.send(
      new GetItemCommand({ TableName: options.tableName, Key: { PK: { S: key.PK }, SK: { S: key.SK } }, ConsistentRead: true }),
    );
    // As every comparison of items: an API key's day of last use left out (test/support/table.ts).
    return Item ? itemHash(Item) : 'absent';
  };
  /** Item key → its hash before the first write of the current request. */
  let before = new Map<string, { key: Key; hash: string }>();
  const name = 'fuzzWriteWatch';
  dynamo.middlewareStack.add(
    ((next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: { input: Record<string, unknown> }) => {
      for (const key of writtenKeys(context.commandName ?? '', args.input)) {
        const id = `${key.PK} ${key.SK}`;
        if (!before.has(id)) before.set(id, { key, hash: await read(key) });
      }
      return next(args);
    }) as never,
    { step: 'initialize', name },
  );
  return {
    /** Forget the last request's writes. */
    reset(): void {
      before = new Map();
    },
    /** How many items the current request tried to write. */
    count: () => before.size,
    /** The items the current request changed (their keys only: values may be personal data). */
    async changed(): Promise<string[]> {
      const changed: string[] = [];
      for (const [id, { key, hash }] of before) if ((await read(key)) !== hash) changed.push(id);
      return changed;
    },
    stop(): void {
      dynamo.middlewareStack.remove(name);
      reader.destroy();
    },
  };
}
