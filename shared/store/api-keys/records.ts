/**
 * API keys. Only the SHA-256 of a key's secret is stored; the plaintext is shown once when it is issued.
 * A key id has one item per secret: a rotation adds the new secret's item and marks the current one
 * `replaced_at`, with an expiry that ends its grace period. Beside them, the key id has an item of its own
 * (KEYID#<key id>) holding `revoked` and the hashes of all its secrets: GSI1 is eventually consistent, so
 * it cannot say which secrets a key has right after a rotation, nor order a rotation and a revocation.
 * A rotation appends to that item on condition it is not revoked; a revocation marks it revoked first and
 * then revokes every secret it lists, so no secret added by a rotation escapes a revocation.
 *
 * Access patterns:
 * - the secret of a request, by its hash ...... GetItem     PK=APIKEY#<sha256>
 * - its last use, at most once a day .......... UpdateItem  PK=APIKEY#<sha256>, conditional on the day
 * - all keys, for the keys CLI ................ Query       GSI1 APIKEYS / begins_with APIKEY#
 * - one key by its public id .................. GetItem     PK=KEYID#<key id>, then BatchGetItem of the
 *                                                           secrets it lists, both consistent
 * - issue ..................................... TransactWrite: Put the secret, Put the key id's item
 * - rotate .................................... TransactWrite: Put the new secret, Update the current one,
 *                                                           append to the key id's item if not revoked
 * - revoke .................................... UpdateItem of the key id's item, then of each secret it lists
 *
 * Keys issued before key ids had an item have their secrets only. Reading one by its id falls back to
 * GSI1 (nothing changed them for long, so the index shows them whole); the first rotate or revoke of one
 * writes its item from the index first, and from then on it is a key like any other.
 *
 * The expiry is `key_expires_at`, an ISO instant, and not `expires_at`: that is the table's TTL attribute,
 * and an expired key must stay (to answer "API key expired" and to be listed), not be deleted.
 */
import type { Scope } from '../../domain/scopes';
import type { KeyLimits } from '../../domain/rate-limits';
import * as keys from '../keys/items';
import * as index from '../keys/index-entries';

/** One secret of a key: the key's name, scopes and groups are copied onto each of its secrets. */
export interface ApiKeyRecord {
  key_id: string;
  /** The secret's hash: its item's key, never the secret. */
  sha256: string;
  name: string;
  scopes: Scope[];
  profile_groups: string[];
  location_groups: string[];
  /** When the key was created (its first secret); a rotation keeps it. */
  created_at: string;
  revoked: boolean;
  /** When this secret stops working; null: never (so do the keys issued before keys expired). */
  key_expires_at: string | null;
  /** The UTC day (YYYY-MM-DD) of this secret's last authenticated request; null: none recorded. */
  last_used_on: string | null;
  /** When a rotation replaced this secret; null for a key's current secret. */
  replaced_at: string | null;
  /** Its own request limits (issue #31); null: the stage's default. A rotation keeps them. */
  limits: KeyLimits | null;
  /** A sandbox key (docs/sandbox.md): its requests see and write sandbox data only. A rotation keeps it. */
  sandbox: boolean;
}

/** A key id with its secrets: the current one and those rotations replaced, newest first. */
export interface ApiKey {
  /**
   * A revocation of the key has begun: it cannot be rotated and sends no webhooks, even while a
   * revocation cut short has left a secret to revoke. Its own item says so; a key read from the index
   * (a list, or a key issued before key ids had an item) is revoked when its current secret is.
   */
  revoked: boolean;
  current: ApiKeyRecord;
  replaced: ApiKeyRecord[];
}

/** Keys issued before keys expired have no `key_expires_at`; the two optional ones are written once set. */
export interface ApiKeyItem extends Omit<ApiKeyRecord, 'key_expires_at' | 'last_used_on' | 'replaced_at' | 'limits' | 'sandbox'> {
  PK: string;
  SK: string;
  key_expires_at?: string | null;
  last_used_on?: string;
  replaced_at?: string;
  limits?: KeyLimits;
  /** Written only for a sandbox key: every key issued before sandbox keys existed is live. */
  sandbox?: true;
}

/** The key id's own item: the one place that says, read consistently, which secrets a key has. */
export interface KeyIdItem {
  key_id: string;
  revoked: boolean;
  current_sha256: string;
  /** Every secret the key id ever had, oldest first; appended to by rotations, never shortened. */
  sha256s: string[];
}

export function toRecord(item: ApiKeyItem): ApiKeyRecord {
  const { key_id, sha256, name, scopes, profile_groups, location_groups, created_at, revoked } = item;
  return {
    key_id,
    sha256,
    name,
    scopes,
    profile_groups,
    location_groups,
    created_at,
    revoked,
    key_expires_at: item.key_expires_at ?? null,
    last_used_on: item.last_used_on ?? null,
    replaced_at: item.replaced_at ?? null,
    limits: item.limits ?? null,
    sandbox: item.sandbox === true,
  };
}

/**
 * The item of a secret. `last_used_on` and `replaced_at` are written only once they have a value: the
 * conditions on them test whether the attribute exists.
 */
export function toItem(record: ApiKeyRecord): Record<string, unknown> {
  const { last_used_on, replaced_at, limits, sandbox, ...always } = record;
  return {
    ...keys.apiKey(record.sha256),
    ...index.apiKey(record.key_id),
    ...always,
    ...(last_used_on === null ? {} : { last_used_on }),
    ...(replaced_at === null ? {} : { replaced_at }),
    ...(limits === null ? {} : { limits }),
    ...(sandbox ? { sandbox: true } : {}),
  };
}

export const newestReplacedFirst = (a: ApiKeyRecord, b: ApiKeyRecord) => (b.replaced_at ?? '').localeCompare(a.replaced_at ?? '');

/**
 * Groups the secrets of each key id, in the order the ids came. A key id has exactly one current secret:
 * a rotation adds the new one and marks the old one replaced in one transaction.
 */
export function toApiKeys(records: ApiKeyRecord[]): ApiKey[] {
  const byId = new Map<string, ApiKeyRecord[]>();
  for (const record of records) byId.set(record.key_id, [...(byId.get(record.key_id) ?? []), record]);
  return [...byId.values()].flatMap((secrets) => {
    const current = secrets.find((secret) => secret.replaced_at === null);
    const replaced = secrets.filter((secret) => secret !== current).sort(newestReplacedFirst);
    return current ? [{ revoked: current.revoked, current, replaced }] : [];
  });
}
