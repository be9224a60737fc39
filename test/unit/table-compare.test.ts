/**
 * How test code compares stored items (test/support/table.ts): what the fault suites' digests, the fuzz
 * digest and write watch and the tenant matrix rely on to see "nothing changed".
 */
import { describe, expect, it } from 'vitest';
import { canonical, itemHash } from '../support/table';

const keyItem = { PK: 'APIKEY#0f3a', SK: 'APIKEY', key_id: 'key_1', scopes: ['profiles:read'], last_used_on: '2026-03-01' };
const rawKeyItem = { PK: { S: 'APIKEY#0f3a' }, SK: { S: 'APIKEY' }, key_id: { S: 'key_1' }, last_used_on: { S: '2026-03-01' } };

describe('comparing stored items', () => {
  it('gives an API-key item the same hash whatever its day of last use (the first use of a UTC day writes it, even when refused)', () => {
    expect(itemHash({ ...keyItem, last_used_on: '2026-03-02' })).toBe(itemHash(keyItem));
    const { last_used_on: _, ...neverUsed } = keyItem;
    expect(itemHash(neverUsed)).toBe(itemHash(keyItem));
  });

  it('ignores the day of last use of an API-key item as the low-level client answers it too (the write watch reads that form)', () => {
    expect(itemHash({ ...rawKeyItem, last_used_on: { S: '2026-03-02' } })).toBe(itemHash(rawKeyItem));
  });

  it('still sees any other change to an API-key item', () => {
    expect(itemHash({ ...keyItem, scopes: ['profiles:write'] })).not.toBe(itemHash(keyItem));
    expect(itemHash({ ...keyItem, revoked_at: '2026-03-02T00:00:00Z' })).not.toBe(itemHash(keyItem));
  });

  it('still sees a last_used_on attribute change on any item that is not an API key', () => {
    const profile = { PK: 'PROFILE#1', SK: 'PROFILE', last_used_on: '2026-03-01' };
    expect(itemHash({ ...profile, last_used_on: '2026-03-02' })).not.toBe(itemHash(profile));
    const keyById = { PK: 'KEYID#key_1', SK: 'APIKEY', last_used_on: '2026-03-01' };
    expect(itemHash({ ...keyById, last_used_on: '2026-03-02' })).not.toBe(itemHash(keyById));
  });

  it('reads nested maps whatever the order of their keys', () => {
    expect(canonical({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'x' } })).toBe(canonical({ a: { c: 'x', d: [1, { x: 1, y: 2 }] }, b: 1 }));
  });

  it('tells a set from a list and from an empty map, and bytes from a list of numbers', () => {
    expect(canonical(new Set(['a', 'b']))).toBe(canonical(new Set(['b', 'a'])));
    expect(canonical(new Set(['a', 'b']))).not.toBe(canonical(['a', 'b']));
    expect(canonical(new Set(['a']))).not.toBe(canonical(new Set(['b'])));
    expect(canonical(new Set(['a']))).not.toBe(canonical({}));
    expect(canonical(new Uint8Array([1, 2]))).not.toBe(canonical([1, 2]));
    expect(canonical(new Uint8Array([1, 2]))).not.toBe(canonical(new Uint8Array([1, 3])));
  });

  it('tells a number from the same digits as a string', () => {
    expect(canonical({ n: 1 })).not.toBe(canonical({ n: '1' }));
  });
});
