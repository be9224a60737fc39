/**
 * The one way test code reads the test file's whole table (a Scan: fine for a table of a few hundred items,
 * never done by the service), and the one way it compares what it read: `canonical()` of each item, with
 * nested map keys sorted (DynamoDB promises no order of map attributes) and sets, binaries and lists told
 * apart. The fault suites' digest, the fuzz digest and write watch, the races' item look-ups and the tenant
 * matrix's before/after all use it.
 *
 * Its own client, not the service's: a fault or a pause a test installs on the service's client must not
 * reach the scan that checks what the service left.
 *
 * An API-key item's `last_used_on` is left out of every comparison: the first use of a key on a new UTC day
 * writes it, even on a refused request (docs/api-keys.md "Last use"), so a run crossing midnight would otherwise see a
 * change no request made. Only that attribute of only those items: anything else a refused request wrote
 * to a key item still shows.
 *
 * A patient link's rate counters (`PATIENT_LINK_RATE#…`, docs/patient-page.md "The rate limit") are left out
 * of the whole-table comparisons and the fuzz's write watch for the same reason: every request of an existing
 * link counts, a refused one too, by design (a limit that refusals did not raise would not limit). Only those
 * items: an unknown token writes none, and the changes' daily counter of an appointment is given back by a
 * refused change, so it still shows.
 */
import { createHash } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { API_KEY_LAST_USE_ATTRIBUTE, API_KEY_PARTITION_PREFIX, PATIENT_LINK_RATE_PARTITION_PREFIX } from '../../shared/store/keys';

const client = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: process.env.AWS_REGION,
    endpoint: process.env.DYNAMODB_ENDPOINT,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
);

/** JSON with sorted object keys; a Set (a DynamoDB string or number set) and bytes tagged, so neither reads as a map or a list. */
export function canonical(value: unknown): string {
  if (value instanceof Set) return `{"$set":[${[...value].map(canonical).sort().join(',')}]}`;
  if (value instanceof Uint8Array) return `{"$bytes":${JSON.stringify(Buffer.from(value).toString('base64'))}}`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A key attribute's text, unmarshalled (`"x"`) or as the low-level client answers it (`{ S: "x" }`). */
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof (value as { S?: unknown } | undefined)?.S === 'string' ? (value as { S: string }).S : undefined;

/** A patient link's request counter: raised by every request of the link, refused ones too (see the header). */
export const isRequestCounter = (pk: string | undefined): boolean => pk?.startsWith(PATIENT_LINK_RATE_PARTITION_PREFIX) ?? false;

/** The item as compared: an API-key item without its day of last use (see the header), any other as it is. */
export function comparable<T extends Record<string, unknown>>(item: T): T {
  if (!text(item.PK)?.startsWith(API_KEY_PARTITION_PREFIX) || !(API_KEY_LAST_USE_ATTRIBUTE in item)) return item;
  const { [API_KEY_LAST_USE_ATTRIBUTE]: _lastUse, ...rest } = item;
  return rest as T;
}

export const itemHash = (item: Record<string, unknown>): string =>
  createHash('sha256')
    .update(canonical(comparable(item)))
    .digest('hex');

/** The key an item is filed under in the maps below. */
export const itemKey = (item: Record<string, unknown>): string => `${text(item.PK)} | ${text(item.SK)}`;

type Filter = Pick<ScanCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>;

/**
 * Every item of the table (that matches `filter`), as stored, read consistently; `segments` Scans in
 * parallel (DynamoDB Local answers them at once on several cores).
 */
export async function scanItems(filter: Filter = {}, segments = 2): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const segment = async (index: number) => {
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({ TableName: process.env.TABLE_NAME, ...filter, ExclusiveStartKey, ConsistentRead: true, Segment: index, TotalSegments: segments }),
      );
      items.push(...(page.Items ?? []));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  };
  await Promise.all(Array.from({ length: segments }, (_, index) => segment(index)));
  return items;
}

/** Every item of the table by its key (`PK | SK`). */
export async function tableItems(): Promise<Map<string, Record<string, unknown>>> {
  return new Map((await scanItems()).map((item) => [itemKey(item), item]));
}

/** Each item's hash by its key: two maps show which items changed without holding their values. */
export async function tableHashes(): Promise<Map<string, string>> {
  return new Map((await scanItems()).filter((item) => !isRequestCounter(text(item.PK))).map((item) => [itemKey(item), itemHash(item)]));
}

/** One hash of the whole table: equal before and after when nothing was written (the day of a key's last use aside). */
export async function tableDigest(): Promise<string> {
  const lines = [...(await tableHashes())].map(([key, hash]) => `${key}=${hash}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
