/**
 * Issuing and checking API keys. A key is 32 random bytes (base64url) with a `lab_` prefix so that
 * secret scanners recognise it; only its SHA-256 is stored. Lookups are cached in the container for
 * at most 60 s, so a revocation takes effect within a minute.
 */
import { createHash, randomBytes } from 'node:crypto';
import { NotAuthenticated } from '../errors';
import { MISSING_KEY_MESSAGE } from './api-key-header';
import { type ApiKeyRecord, findApiKeyByHash, findApiKeyById, putApiKey } from '../store/api-keys';
import type { AccessContext } from './access';
import type { Scope } from './scopes';

const CACHE_TTL_MS = 60_000;
const cache = new Map<string, { record: ApiKeyRecord; fetchedAt: number }>();

export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

export function toAccessContext(record: ApiKeyRecord): AccessContext {
  return {
    keyId: record.key_id,
    scopes: new Set(record.scopes),
    profileGroups: new Set(record.profile_groups),
    locationGroups: new Set(record.location_groups),
  };
}

/** The access context of the `x-api-key` header value; 401 when it is missing, unknown or revoked. */
export async function authenticate(plaintext: string | undefined, nowMs: number = Date.now()): Promise<AccessContext> {
  if (!plaintext) throw new NotAuthenticated(MISSING_KEY_MESSAGE);
  const sha256 = hashApiKey(plaintext);
  const cached = cache.get(sha256);
  let record = cached && nowMs - cached.fetchedAt < CACHE_TTL_MS ? cached.record : undefined;
  if (!record) {
    record = await findApiKeyByHash(sha256);
    if (record) cache.set(sha256, { record, fetchedAt: nowMs });
  }
  if (!record || record.revoked) throw new NotAuthenticated('Invalid or revoked API key');
  return toAccessContext(record);
}

const cacheById = new Map<string, { record: ApiKeyRecord | undefined; fetchedAt: number }>();

/**
 * The access context of a key by its public id, for work done on the key's behalf without a request (a
 * webhook delivery): undefined once the key is revoked or gone. Cached like a request's lookup.
 */
export async function accessOfKeyId(keyId: string, nowMs: number = Date.now()): Promise<AccessContext | undefined> {
  const cached = cacheById.get(keyId);
  let record = cached && nowMs - cached.fetchedAt < CACHE_TTL_MS ? cached.record : undefined;
  if (!cached || nowMs - cached.fetchedAt >= CACHE_TTL_MS) {
    record = await findApiKeyById(keyId);
    cacheById.set(keyId, { record, fetchedAt: nowMs });
  }
  return record && !record.revoked ? toAccessContext(record) : undefined;
}

export interface NewApiKey {
  name: string;
  scopes: Scope[];
  profileGroups: string[];
  locationGroups: string[];
}

/** Issues a key; `plaintext` is returned to show once and is never stored. */
/** A key's groups become one condition of at most 100 values (profile PATCH), so they are bounded. */
export const MAX_GROUPS_PER_KEY = 50;

export async function issueApiKey(
  spec: NewApiKey,
  now: Date,
  plaintext: string = `lab_${randomBytes(32).toString('base64url')}`,
): Promise<{ keyId: string; plaintext: string }> {
  if (spec.profileGroups.length > MAX_GROUPS_PER_KEY || spec.locationGroups.length > MAX_GROUPS_PER_KEY) {
    throw new RangeError(`A key may hold at most ${MAX_GROUPS_PER_KEY} profile groups and ${MAX_GROUPS_PER_KEY} location groups`);
  }
  // The key id is public (listed, used to revoke); it is derived from nothing secret.
  const keyId = `key_${randomBytes(8).toString('hex')}`;
  await putApiKey(hashApiKey(plaintext), {
    key_id: keyId,
    name: spec.name,
    scopes: spec.scopes,
    profile_groups: spec.profileGroups,
    location_groups: spec.locationGroups,
    created_at: now.toISOString(),
    revoked: false,
  });
  return { keyId, plaintext };
}
