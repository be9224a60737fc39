/**
 * Sandbox data (docs/sandbox.md): what a sandbox key (`lab_test_…`) writes lives in partitions of its own,
 * every partition key prefixed `SANDBOX#`, so live and sandbox data never meet — a live key's request
 * cannot even name a sandbox item, and the other way round; a sandbox barcode, slot seat or shipment list
 * is a different item from the live one of the same name. Reference data (locations, groups, the catalog,
 * API keys) has no prefix: both read the same.
 *
 * Which side a piece of code works on is the "realm" of its asynchronous context, set once at its entry:
 * by the key check of a request (shared/http/api-key.ts), by the event a dispatcher reads, by the loop of a
 * scheduled job. The key builders of shared/store/keys.ts read it, so that no store function, use case or
 * handler has to pass it along (and none can forget to). Outside any entry the realm is live.
 *
 * Every item written under the prefix expires after SANDBOX_RETENTION_DAYS (DynamoDB TTL): the client's
 * middleware below adds the attribute, whoever wrote the item.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const REALMS = ['live', 'sandbox'] as const;
export type Realm = (typeof REALMS)[number];

export const SANDBOX_PARTITION_PREFIX = 'SANDBOX#';
/** How long a sandbox item lives after it was written (docs/sandbox.md "Retention"). */
export const SANDBOX_RETENTION_DAYS = 30;

const realmStorage = new AsyncLocalStorage<{ realm: Realm }>();

/** The realm of the code running now: live unless an entry said otherwise. */
export const currentRealm = (): Realm => realmStorage.getStore()?.realm ?? 'live';

/** Runs `work` in `realm` (a dispatcher's event, a scheduled job's loop). */
export function inRealm<T>(realm: Realm, work: () => T): T {
  return realmStorage.run({ realm }, work);
}

/**
 * Runs a scheduled job's `work` once in each realm (each has its own queue: the outbox, the due
 * deliveries) and answers the sum of what they counted. One realm's failure does not hold back the other:
 * both run, then the first failure is thrown.
 */
export async function sumOverRealms(work: () => Promise<number>): Promise<number> {
  let sum = 0;
  let failure: unknown;
  for (const realm of REALMS) {
    try {
      sum += await inRealm(realm, work);
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
  return sum;
}

/**
 * Runs a request in a realm its key check decides later (`enterRealmOfKey`): the middlewares before the
 * check, the handler and those after it all run inside `work`, while a realm entered in a middleware's own
 * async function would end with it.
 */
export function inRequestRealm<T>(work: () => T): T {
  return realmStorage.run({ realm: 'live' }, work);
}

/** The key check's say: this request works on the sandbox's data. Only inside inRequestRealm. */
export function enterRealmOfKey(realm: Realm): void {
  const store = realmStorage.getStore();
  if (!store) throw new Error('enterRealmOfKey runs inside inRequestRealm');
  store.realm = realm;
}

/** A partition key in the current realm: prefixed in the sandbox, as is in live. */
export const inCurrentRealm = (partition: string): string => (currentRealm() === 'sandbox' ? `${SANDBOX_PARTITION_PREFIX}${partition}` : partition);

/** The partition without its realm's prefix (a history partition is named after its resource's). */
export const withoutRealm = (partition: string): string =>
  partition.startsWith(SANDBOX_PARTITION_PREFIX) ? partition.slice(SANDBOX_PARTITION_PREFIX.length) : partition;
