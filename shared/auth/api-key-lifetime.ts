/**
 * How long an API key's secret works: its expiry, the grace a rotation leaves the secret it replaces,
 * and the UTC day its last use is recorded under. Pure: no I/O, every time is passed in.
 */
import { isoTimestamp } from '../iso-timestamp';

export const KEY_EXPIRED_MESSAGE = 'API key expired';

/** A new key's lifetime unless the issuer says otherwise: a key nobody renews stops working by itself. */
export const DEFAULT_KEY_LIFETIME_DAYS = 365;

/** How long a rotated-out secret keeps working unless the rotation says otherwise: a day to deploy the new one. */
export const DEFAULT_ROTATION_GRACE_HOURS = 24;

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** A secret without an expiry (null) never expires: so do the keys issued before keys expired. */
export function isExpired(expiresAt: string | null, nowMs: number): boolean {
  return expiresAt !== null && expiryMs(expiresAt) <= nowMs;
}

/** The instant a secret expires, in epoch milliseconds: Infinity for one that never does. */
export function expiryMs(expiresAt: string | null): number {
  return expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(expiresAt);
}

/**
 * The expiry of the secret a rotation replaces: the end of the grace period, but never later than the
 * expiry it already had — a rotation renews the key through its new secret, not through the old one.
 */
export function replacedSecretExpiry(currentExpiresAt: string | null, now: Date, graceMs: number): string {
  const graceEnds = now.getTime() + graceMs;
  const expiresAtMs = currentExpiresAt === null ? graceEnds : Math.min(Date.parse(currentExpiresAt), graceEnds);
  return new Date(expiresAtMs).toISOString();
}

/**
 * The day a use is recorded under (UTC, YYYY-MM-DD): day precision is all `list` shows. The date of the
 * timestamp the request's log line formats in the same second, so no request formats a date of its own.
 */
export function utcDay(nowMs: number): string {
  return isoTimestamp(nowMs).slice(0, 10);
}
