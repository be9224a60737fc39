/**
 * UUIDs derived from ids we already have: the same parts always give the same UUID, so a repeated
 * derivation (a duplicate event, a second export) names the same thing. The bits come from SHA-256 of the
 * parts joined by `/`; the version and RFC 9562 variant bits are then set.
 *
 * - version 8 (custom): `derivedUuid(parts)`;
 * - version 7 (time-ordered): `derivedUuid(parts, { timeMs })`, its first 48 bits the Unix time in ms,
 *   so that the ids sort by that time.
 */
import { createHash } from 'node:crypto';

export function derivedUuid(parts: readonly (string | number)[], options: { timeMs?: number } = {}): string {
  const bytes = createHash('sha256').update(parts.join('/')).digest().subarray(0, 16);
  if (options.timeMs !== undefined) {
    const ms = BigInt(options.timeMs);
    for (let i = 0; i < 6; i += 1) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  }
  const version = options.timeMs === undefined ? 0x80 : 0x70;
  bytes[6] = ((bytes[6] as number) & 0x0f) | version;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
