/**
 * Issuing, rotating and checking API keys. A key's secret is 32 random bytes (base64url) with a `lab_`
 * prefix so that secret scanners recognise it; only its SHA-256 is stored. Lookups are cached in the
 * container for at most 60 s, so a revocation or a rotation's end of grace takes effect within a minute;
 * an expiry is compared with the clock at every request, cached or not.
 */
import { hash, randomBytes } from 'node:crypto';
import { Conflict, NotAuthenticated } from '../errors';
import { logger } from '../logger';
import { MISSING_KEY_MESSAGE } from './api-key-header';
import { DAY_MS, DEFAULT_KEY_LIFETIME_DAYS, expiryMs, isExpired, KEY_EXPIRED_MESSAGE, replacedSecretExpiry, utcDay } from './api-key-lifetime';
import { findApiKeyByHash, findApiKeyById, recordApiKeyUse } from '../store/api-keys/lookup';
import { findApiKeyToRotate, putApiKey, replaceApiKeySecret } from '../store/api-keys/lifecycle';
import { type ApiKey, type ApiKeyRecord } from '../store/api-keys/records';
import type { KeyLimits } from '../domain/rate-limits';
import type { AccessContext } from './access';
import type { Scope } from '../domain/scopes';

const CACHE_TTL_MS = 60_000;
/**
 * Records by the header value that found them, as API Gateway caches the authorizer's answer (60 s per
 * header value): a cached request then skips the SHA-256 too, which in a warm function cost 7 µs of the
 * route's 100 µs of its own (issue #33). So a key this container was shown stays in its memory, as in the
 * gateway's cache, while its lookup is fresh and until the first lookup that misses after that, which
 * drops every lookup older than 60 s (`dropStaleLookups`): in a container serving requests, a minute more
 * at most; a frozen one keeps it until its next request or its end. Only keys that exist are kept; only
 * their SHA-256 is written to the table.
 */
const cache = new Map<string, { record: ApiKeyRecord; fetchedAt: number; expiresAtMs: number }>();

function dropStaleLookups(nowMs: number): void {
  for (const [presented, { fetchedAt }] of cache) if (nowMs - fetchedAt >= CACHE_TTL_MS) cache.delete(presented);
}

/** Whether this container holds a lookup of the key (for the tests of the cache's hold on a key). */
export const holdsLookupOf = (plaintext: string): boolean => cache.has(plaintext);
/** The day this container last tried to record each secret's use: at most one write a day, per secret. */
const useRecordedOn = new Map<string, string>();

/**
 * A live key is `lab_` and its secret, as since the first key; a sandbox key `lab_test_` and its secret
 * (docs/sandbox.md), so a developer, a log scanner or a secret scanner tells them apart at a glance. The
 * plaintext's prefix is a label only: which data a key sees is its record's `sandbox`.
 */
export const SANDBOX_KEY_PREFIX = 'lab_test_';
const newPlaintext = (sandbox: boolean) => `${sandbox ? SANDBOX_KEY_PREFIX : 'lab_'}${randomBytes(32).toString('base64url')}`;

export function hashApiKey(plaintext: string): string {
  // The one-shot form: no Hash object per request (Node 21.7+; Lambda runs 24).
  return hash('sha256', plaintext, 'hex');
}

/** Each record's context, built once: a cached record answers many requests, and nothing changes a context. */
const accessOfRecord = new WeakMap<ApiKeyRecord, AccessContext>();

export function toAccessContext(record: ApiKeyRecord): AccessContext {
  let access = accessOfRecord.get(record);
  if (!access) {
    access = contextOf(record);
    accessOfRecord.set(record, access);
  }
  return access;
}

function contextOf(record: ApiKeyRecord): AccessContext {
  return {
    keyId: record.key_id,
    scopes: new Set(record.scopes),
    profileGroups: new Set(record.profile_groups),
    locationGroups: new Set(record.location_groups),
    limits: record.limits,
    sandbox: record.sandbox,
  };
}

/**
 * The access context of the `x-api-key` header value; 401 when it is missing, unknown, revoked or
 * expired. Key expiry is real time (`Date.now()`), not LAB_CLOCK: it protects the service, like TLS.
 */
export async function authenticate(plaintext: string | undefined, nowMs: number = Date.now()): Promise<AccessContext> {
  const record = await verifyApiKey(plaintext, nowMs);
  const today = utcDay(nowMs);
  if (!useRecorded(record, today)) await recordUse(record, today);
  return toAccessContext(record);
}

export const INVALID_KEY_MESSAGE = 'Invalid or revoked API key';

/**
 * The key's record when the key may be used now; NotAuthenticated with the answer's message when not.
 * What the gateway's authorizer checks (functions/auth/authorizer.ts): it writes nothing, so a flood of
 * keys costs reads only; the route records the day's use.
 */
export async function verifyApiKey(plaintext: string | undefined, nowMs: number = Date.now(), options: { consistent?: boolean } = {}): Promise<ApiKeyRecord> {
  if (!plaintext) throw new NotAuthenticated(MISSING_KEY_MESSAGE);
  const cached = cache.get(plaintext);
  let lookup = cached && nowMs - cached.fetchedAt < CACHE_TTL_MS ? cached : undefined;
  if (!lookup) {
    dropStaleLookups(nowMs);
    const found = await findApiKeyByHash(hashApiKey(plaintext), options);
    // The expiry parsed once per lookup, not per request (a Date.parse is 3 µs in a warm function).
    lookup = found && { record: found, fetchedAt: nowMs, expiresAtMs: expiryMs(found.key_expires_at) };
    if (lookup) cache.set(plaintext, lookup);
  }
  if (!lookup || lookup.record.revoked) throw new NotAuthenticated(INVALID_KEY_MESSAGE);
  if (lookup.expiresAtMs <= nowMs) throw new NotAuthenticated(KEY_EXPIRED_MESSAGE);
  return lookup.record;
}

/** Whether the secret's use today is recorded, or its recording tried, by this container: most requests. */
const useRecorded = (record: ApiKeyRecord, today: string): boolean =>
  (record.last_used_on !== null && record.last_used_on >= today) || useRecordedOn.get(record.sha256) === today;

/**
 * Writes the secret's last use when the day changed (`useRecorded` says when): the first request of a day per secret and
 * container pays one conditional UpdateItem, every other request nothing. Awaited, not fired and
 * forgotten: Lambda freezes a container once the answer is sent, and a write left pending there may
 * never happen. A failure is logged and does not fail the request, which the key was entitled to.
 */
async function recordUse(record: ApiKeyRecord, today: string): Promise<void> {
  useRecordedOn.set(record.sha256, today);
  try {
    await recordApiKeyUse(record.sha256, today);
  } catch (error) {
    logger.warn('API key use not recorded', { key_id: record.key_id, error: error instanceof Error ? error.name : 'unknown' });
  }
}

const cacheById = new Map<string, { key: ApiKey | undefined; fetchedAt: number }>();

/**
 * The access context of a key by its public id, for work done on the key's behalf without a request (a
 * webhook delivery): undefined once the key's revocation has begun, its current secret expired, or no key
 * has that id. Read consistently through the key id's own item, so a rotation a moment ago never makes
 * the key look absent; then cached like a request's lookup.
 */
export async function accessOfKeyId(keyId: string, nowMs: number = Date.now()): Promise<AccessContext | undefined> {
  const cached = cacheById.get(keyId);
  let key = cached?.key;
  if (!cached || nowMs - cached.fetchedAt >= CACHE_TTL_MS) {
    key = await findApiKeyById(keyId);
    cacheById.set(keyId, { key, fetchedAt: nowMs });
  }
  if (!key || key.revoked || key.current.revoked || isExpired(key.current.key_expires_at, nowMs)) return undefined;
  return toAccessContext(key.current);
}

export interface NewApiKey {
  name: string;
  scopes: Scope[];
  profileGroups: string[];
  locationGroups: string[];
  /** null: the key never expires. Unset: DEFAULT_KEY_LIFETIME_DAYS after it is issued. */
  expiresAt?: Date | null;
  /** Its own request limits; unset: the stage's default. */
  limits?: KeyLimits | null;
  /** A sandbox key (docs/sandbox.md); unset: live. */
  sandbox?: boolean;
}

/** The expiry a key or a rotation's new secret gets when none is given. */
const expiryOf = (expiresAt: Date | null | undefined, now: Date): string | null =>
  expiresAt === undefined ? new Date(now.getTime() + DEFAULT_KEY_LIFETIME_DAYS * DAY_MS).toISOString() : (expiresAt?.toISOString() ?? null);

/** A key's groups become one condition of at most 100 values (profile PATCH), so they are bounded. */
export const MAX_GROUPS_PER_KEY = 50;

/** Issues a key; `plaintext` is returned to show once and is never stored. */
export async function issueApiKey(
  spec: NewApiKey,
  now: Date,
  plaintext: string = newPlaintext(spec.sandbox === true),
): Promise<{ keyId: string; plaintext: string; expiresAt: string | null }> {
  if (spec.profileGroups.length > MAX_GROUPS_PER_KEY || spec.locationGroups.length > MAX_GROUPS_PER_KEY) {
    throw new RangeError(`A key may hold at most ${MAX_GROUPS_PER_KEY} profile groups and ${MAX_GROUPS_PER_KEY} location groups`);
  }
  // The key id is public (listed, used to revoke); it is derived from nothing secret.
  const keyId = `key_${randomBytes(8).toString('hex')}`;
  const expiresAt = expiryOf(spec.expiresAt, now);
  await putApiKey({
    key_id: keyId,
    sha256: hashApiKey(plaintext),
    name: spec.name,
    scopes: spec.scopes,
    profile_groups: spec.profileGroups,
    location_groups: spec.locationGroups,
    created_at: now.toISOString(),
    revoked: false,
    key_expires_at: expiresAt,
    last_used_on: null,
    replaced_at: null,
    limits: spec.limits ?? null,
    sandbox: spec.sandbox === true,
  });
  return { keyId, plaintext, expiresAt };
}

/**
 * A key is revoked once every secret of it is (as `list` shows it): until then, revoking again finishes a
 * revocation interrupted midway.
 */
export function isRevoked(key: ApiKey): boolean {
  return [key.current, ...key.replaced].every((secret) => secret.revoked);
}

/** The last day any secret of the key was used: a replaced one counts too, during its grace. */
export function lastUsedOn(key: ApiKey): string | null {
  const days = [key.current, ...key.replaced].flatMap((secret) => (secret.last_used_on === null ? [] : [secret.last_used_on]));
  return days.sort().at(-1) ?? null;
}

export interface Rotation {
  /** How long the replaced secret keeps working (0: it stops now, within the 60 s of a cached lookup). */
  graceMs: number;
  /** The new secret's expiry, as for a new key: null never, unset DEFAULT_KEY_LIFETIME_DAYS from now. */
  expiresAt?: Date | null;
}

/**
 * Issues a new secret for the same key id — its webhooks, audit entries and history stay its own — with
 * the key's scopes and groups and a fresh expiry: rotating is how a key is renewed. The replaced secret
 * works until the grace ends (never past its own expiry), then answers 401 "API key expired".
 * Undefined when no key has that id; Conflict when its revocation has begun (before the rotation read the
 * key, or before its transaction) or another rotation won.
 */
export async function rotateApiKey(
  keyId: string,
  rotation: Rotation,
  now: Date,
  plaintextGiven?: string,
): Promise<{ plaintext: string; expiresAt: string | null; replacedExpiresAt: string } | undefined> {
  const key = await findApiKeyToRotate(keyId);
  if (!key) return undefined;
  const plaintext = plaintextGiven ?? newPlaintext(key.current.sandbox);
  if (key.revoked || key.current.revoked) throw new Conflict(`${keyId} is revoked; a revoked key cannot be rotated, create a new one`);
  const expiresAt = expiryOf(rotation.expiresAt, now);
  const replacedExpiresAt = replacedSecretExpiry(key.current.key_expires_at, now, rotation.graceMs);
  const next: ApiKeyRecord = { ...key.current, sha256: hashApiKey(plaintext), key_expires_at: expiresAt, last_used_on: null, replaced_at: null };
  await replaceApiKeySecret(key.current, next, now.toISOString(), replacedExpiresAt);
  return { plaintext, expiresAt, replacedExpiresAt };
}
