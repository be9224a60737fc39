/**
 * Reading a PDF's barcodes back as a scanner would (issue #50): poppler's pdftoppm prints the first page at
 * 200 dpi, about what an office scanner or a phone's photo of the page holds, and zxing-wasm (the C++ ZXing
 * reader compiled to WebAssembly: an implementation independent of bwip-js, which drew them) decodes every
 * Code 128 symbol on it. zxing-wasm fetches its .wasm from a CDN unless given one: the installed file here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

let prepared = false;

function prepare(): void {
  if (prepared) return;
  const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
  prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) }, fireImmediately: true });
  prepared = true;
}

/** The first page of a PDF as a PNG at `dpi`, as pdftoppm renders it. */
export function firstPagePng(pdf: Uint8Array, dpi = 200): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'lab-barcodes-'));
  try {
    writeFileSync(join(dir, 'page.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', '-f', '1', '-l', '1', join(dir, 'page.pdf'), join(dir, 'page')]);
    return readFileSync(join(dir, 'page.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The texts of the Code 128 barcodes a scanner reads on the PDF's first page, top to bottom. */
export async function code128On(pdf: Uint8Array): Promise<string[]> {
  prepare();
  const found = await readBarcodes(new Uint8Array(firstPagePng(pdf)), { formats: ['Code128'], maxNumberOfSymbols: 10 });
  return found
    .filter((barcode) => barcode.isValid)
    .sort((a, b) => a.position.topLeft.y - b.position.topLeft.y)
    .map((barcode) => barcode.text);
}
