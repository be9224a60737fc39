/**
 * Every item written into a sandbox partition (shared/sandbox.ts) expires: a middleware of the
 * DynamoDB client adds the TTL attribute to each Put, and to each Update (which may create its item), whose
 * partition key starts with `SANDBOX#` — whichever store module wrote it, so a new one cannot forget. An
 * item that carries an earlier expiry of its own (an access-log entry, an event-log entry, a record read and
 * written again) keeps it, and an Update that sets its own (a slot's seats) has it capped at the retention;
 * an Update never moves an item's expiry. So a sandbox record lives at most SANDBOX_RETENTION_DAYS from its
 * creation.
 *
 * It reads the command's input as the document client hands it on (plain values), and also as AttributeValues
 * (a command sent on the plain client), so that no path around it exists.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TTL_ATTRIBUTE } from './table';
import { SANDBOX_PARTITION_PREFIX, SANDBOX_RETENTION_DAYS } from '../sandbox';

type Item = Record<string, unknown>;
interface UpdateInput {
  Key?: Item;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
}

const NAME = '#sandbox_expiry';
const VALUE = ':sandbox_expiry';

/** A PK of either form: a plain string, or the AttributeValue `{ S }`. */
function partitionOf(item: Item | undefined): string | undefined {
  const pk = item?.PK;
  if (typeof pk === 'string') return pk;
  if (pk && typeof pk === 'object' && typeof (pk as { S?: unknown }).S === 'string') return (pk as { S: string }).S;
  return undefined;
}

const isSandbox = (item: Item | undefined) => partitionOf(item)?.startsWith(SANDBOX_PARTITION_PREFIX) === true;
/** The TTL value in the form of the item's own PK. */
const expiryLike = (item: Item, epochSeconds: number) => (typeof item.PK === 'string' ? epochSeconds : { N: String(epochSeconds) });
const numberOf = (value: unknown) => (typeof value === 'number' ? value : Number((value as { N?: string } | undefined)?.N ?? Number.NaN));

function expirePut(item: Item, epochSeconds: number): Item {
  if (!isSandbox(item)) return item;
  const own = numberOf(item[TTL_ATTRIBUTE]);
  return Number.isFinite(own) && own <= epochSeconds ? item : { ...item, [TTL_ATTRIBUTE]: expiryLike(item, epochSeconds) };
}

/** The value placeholder an Update assigns the expiry from (`#e = :v`, `#e = if_not_exists(#e, :v)`), if it does. */
function ownExpiryValue(update: UpdateInput): string | undefined {
  const names = Object.entries(update.ExpressionAttributeNames ?? {})
    .filter(([, attribute]) => attribute === TTL_ATTRIBUTE)
    .map(([name]) => name);
  for (const name of [...names, TTL_ATTRIBUTE]) {
    // Names are `#` and word characters: nothing to escape in a pattern.
    const match = new RegExp(`(?:^|[\\s,])${name}\\s*=\\s*(?:if_not_exists\\(\\s*${name}\\s*,\\s*)?(:\\w+)`).exec(update.UpdateExpression ?? '');
    if (match) return match[1];
  }
  return undefined;
}

/**
 * `SET expires_at = if_not_exists(expires_at, :t)` joined to the expression's SET clause (or a SET clause of
 * its own in front of the others): an Update that creates the item gives it an expiry, one that changes it
 * keeps the expiry it had.
 */
function expireUpdate<U extends UpdateInput>(update: U, epochSeconds: number): U {
  if (!isSandbox(update.Key) || !update.UpdateExpression || !update.Key) return update;
  // An Update that sets the expiry itself (a slot's seats, which go with their slot) keeps its own, no later
  // than the retention: DynamoDB refuses two assignments of one attribute.
  const own = ownExpiryValue(update);
  if (own !== undefined) {
    const values = update.ExpressionAttributeValues ?? {};
    const capped = Math.min(numberOf(values[own]), epochSeconds);
    return { ...update, ExpressionAttributeValues: { ...values, [own]: expiryLike(update.Key, capped) } };
  }
  const assignment = `${NAME} = if_not_exists(${NAME}, ${VALUE})`;
  const expression = /(^|\s)SET\s/.test(update.UpdateExpression)
    ? update.UpdateExpression.replace(/(^|\s)SET\s/, `$1SET ${assignment}, `)
    : `SET ${assignment} ${update.UpdateExpression}`;
  return {
    ...update,
    UpdateExpression: expression,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, [NAME]: TTL_ATTRIBUTE },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, [VALUE]: expiryLike(update.Key, epochSeconds) },
  };
}

interface WriteInput extends UpdateInput {
  Item?: Item;
  TransactItems?: { Put?: { Item: Item }; Update?: UpdateInput }[];
  RequestItems?: Record<string, { PutRequest?: { Item: Item } }[]>;
}

/** Per command that writes items: its input with an expiry on every sandbox item it writes. */
const EXPIRE: Readonly<Record<string, (input: WriteInput, epochSeconds: number) => WriteInput>> = {
  PutItemCommand: (input, epochSeconds) => {
    const item = input.Item && expirePut(input.Item, epochSeconds);
    return item === input.Item ? input : { ...input, Item: item };
  },
  UpdateItemCommand: (input, epochSeconds) => expireUpdate(input, epochSeconds),
  TransactWriteItemsCommand: (input, epochSeconds) => ({
    ...input,
    TransactItems: input.TransactItems?.map((entry) => {
      if (entry.Put) return { ...entry, Put: { ...entry.Put, Item: expirePut(entry.Put.Item, epochSeconds) } };
      if (entry.Update) return { ...entry, Update: expireUpdate(entry.Update, epochSeconds) };
      return entry;
    }),
  }),
  BatchWriteItemCommand: (input, epochSeconds) => ({
    ...input,
    RequestItems: Object.fromEntries(
      Object.entries(input.RequestItems ?? {}).map(([table, requests]) => [
        table,
        requests.map((request) => (request.PutRequest ? { PutRequest: { Item: expirePut(request.PutRequest.Item, epochSeconds) } } : request)),
      ]),
    ),
  }),
};

/** The input with an expiry on every sandbox item it writes; other inputs (reads) unchanged. */
export function withSandboxExpiry(commandName: string | undefined, input: WriteInput, nowMs: number): WriteInput {
  const expire = commandName !== undefined && Object.hasOwn(EXPIRE, commandName) ? EXPIRE[commandName] : undefined;
  return expire ? expire(input, Math.floor(nowMs / 1000) + SANDBOX_RETENTION_DAYS * 86_400) : input;
}

/** Adds the middleware to a client; every command sent through it, or a document client on it, passes. */
export function expireSandboxItems(client: DynamoDBClient): DynamoDBClient {
  client.middlewareStack.add(
    (next, context) => (args) => {
      // A read (most commands) passes as it came: no copy of its arguments, no promise of our own.
      const input = withSandboxExpiry(context.commandName, args.input as WriteInput, Date.now());
      return next(input === args.input ? args : { ...args, input });
    },
    { step: 'initialize', priority: 'high', name: 'sandboxExpiry' },
  );
  return client;
}
