/**
 * fontkit's Brotli decoder (`brotli/decompress.js`, for WOFF2 fonts) as Node's own: the bundles alias the
 * package to this module (infra/bundling.ts LAMBDA_BUNDLE.alias), which drops 475 KB of JavaScript and its
 * dictionary from the report function. Same contract: the compressed bytes in, the decompressed bytes out.
 */
import { brotliDecompressSync } from 'node:zlib';

export default function decompress(compressed: Uint8Array): Uint8Array {
  return new Uint8Array(brotliDecompressSync(compressed));
}
