/**
 * The module the bundles put in place of fontkit's `brotli/decompress.js` (infra/bundling.ts): it must
 * answer what that package answers for a WOFF2 font's tables, the decompressed bytes.
 */
import { createRequire } from 'node:module';
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import decompress from '../../shared/report/brotli-decompress';

/** The package fontkit imports (installed with it), as fontkit calls it: bytes and the decompressed size. */
const brotliPackage = createRequire(import.meta.url)('brotli/decompress.js') as (input: Uint8Array, size: number) => Uint8Array;

describe("the report bundle's Brotli decoder", () => {
  const original = new Uint8Array(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 251));
  const compressed = new Uint8Array(brotliCompressSync(original));

  it('decompresses what Brotli compressed, byte for byte', () => {
    expect(Buffer.from(decompress(compressed)).equals(Buffer.from(original))).toBe(true);
  });

  it('answers the same bytes as the brotli package it replaces', () => {
    expect(Buffer.from(decompress(compressed)).equals(Buffer.from(brotliPackage(compressed, original.length)))).toBe(true);
  });
});
