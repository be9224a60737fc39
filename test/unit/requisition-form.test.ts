/**
 * The requisition form PDF (shared/report/requisition.ts), read back as a lab would: poppler's pdftotext for
 * the words, and its pixels at 200 dpi through zxing-wasm for the barcodes (test/support/barcodes.ts). The
 * first page is also written to test-output/requisition.png (git-ignored) for a reviewer to look at.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderedTest } from '../../shared/domain/requisition';
import { code128Bars } from '../../shared/report/code128';
import { BARCODE, barcodeModule, renderRequisitionForm, type RequisitionFormInput } from '../../shared/report/requisition';
import { code128On, firstPagePng } from '../support/barcodes';

const OUTPUT_DIR = join(import.meta.dirname, '../../test-output');
const workDir = mkdtempSync(join(tmpdir(), 'requisition-form-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const FERRITIN: OrderedTest = { biomarker_id: 1, loinc: '2276-4', name: 'Ferritin', specimen: { type: 'serum', container: 'SST (gold)', min_volume_ml: 0.5 } };
const HAEMOGLOBIN: OrderedTest = {
  biomarker_id: 2,
  loinc: '718-7',
  name: 'Haemoglobin',
  specimen: { type: 'whole_blood', container: 'EDTA (lavender)', min_volume_ml: 1 },
};
const INR: OrderedTest = {
  biomarker_id: 11,
  loinc: '34714-6',
  name: 'Prothrombin time (INR)',
  specimen: { type: 'plasma', container: 'sodium citrate (light blue)', min_volume_ml: 2.7 },
};

const sample: RequisitionFormInput = {
  serviceName: 'Lab Testing Service',
  requisition: { number: 'RQ-7K3M-9XQ2-HT4W', createdAt: '2026-11-27T08:05:41.512Z' },
  barcode: 'LAB-2026-000123',
  patient: { name: 'Jürgen Müller', birthDate: '1985-03-14', sex: 1, erased: false },
  collection: {
    at: '2026-11-27T08:05:41.512Z',
    timeZone: 'Europe/Berlin',
    place: { name: 'Berlin Mitte', address: ['Friedrichstraße 123', '10117 Berlin', 'Germany'] },
  },
  orderedBy: { name: 'Demo Clinic', account: 'demo-clinic' },
  tests: [FERRITIN, HAEMOGLOBIN, INR],
};

function textOf(pdf: Uint8Array): string {
  const file = join(workDir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

const pagesOf = (text: string) => text.split('\f').filter((page) => page.trim() !== '');

describe('the requisition form', () => {
  let pdf: Uint8Array;
  let text: string;
  beforeAll(async () => {
    pdf = await renderRequisitionForm(sample);
    text = textOf(pdf);
    mkdirSync(OUTPUT_DIR, { recursive: true });
    writeFileSync(join(OUTPUT_DIR, 'requisition.png'), firstPagePng(pdf, 100));
  });

  it('is one A4 page in English', () => {
    expect(pagesOf(text)).toHaveLength(1);
    expect(text).toContain('Laboratory requisition');
    expect(text).toContain('Page 1 of 1');
  });

  it('draws the requisition number and the barcode as Code 128 barcodes a scanner reads back', async () => {
    expect(await code128On(pdf)).toEqual(['RQ-7K3M-9XQ2-HT4W', 'LAB-2026-000123']);
  });

  it('prints the requisition number and the barcode as text too', () => {
    expect(text).toContain('RQ-7K3M-9XQ2-HT4W');
    expect(text).toContain('LAB-2026-000123');
  });

  it("prints the patient's name, date of birth and sex", () => {
    expect(text).toMatch(/Jürgen Müller\s+1985-03-14\s+Male/);
  });

  it("prints the collection time in UTC and the location's time zone, and the location's name and address", () => {
    expect(text).toContain('2026-11-27 08:05 UTC');
    expect(text).toContain('2026-11-27 09:05 Europe/Berlin');
    for (const line of ['Berlin Mitte', 'Friedrichstraße 123', '10117 Berlin']) expect(text).toContain(line);
  });

  it('names the ordering party: the clinic and its account', () => {
    expect(text).toContain('Demo Clinic');
    expect(text).toContain('account demo-clinic');
  });

  it('prints one row per test with its LOINC code, name, specimen type, container and least volume', () => {
    const lines = text.split('\n');
    expect(lines.find((line) => line.includes('2276-4'))).toMatch(/2276-4\s+Ferritin\s+Serum\s+SST \(gold\)\s+0\.5 mL/);
    expect(lines.find((line) => line.includes('718-7'))).toMatch(/718-7\s+Haemoglobin\s+Whole blood\s+EDTA \(lavender\)\s+1 mL/);
    expect(lines.find((line) => line.includes('34714-6'))).toMatch(/34714-6\s+Prothrombin time \(INR\)\s+Plasma\s+sodium citrate \(light blue\)\s*2\.7 mL/);
  });
});

describe('the barcodes', () => {
  it('take 0.9 pt modules with a quiet zone of 10 modules each side, and narrower ones only for a symbol that would not fit', () => {
    const number = code128Bars('RQ-7K3M-9XQ2-HT4W');
    expect(barcodeModule(number.modules, 340)).toBe(BARCODE.module);
    // 32 characters a draw accepts, none a digit pair code set C would shorten: the widest barcode there is.
    const widest = code128Bars('ABCDEFGHJKMNPQRSTVWXYZ-ABCDEFGHJ');
    const module = barcodeModule(widest.modules, 340);
    expect(module).toBeLessThan(BARCODE.module);
    expect((widest.modules + 2 * BARCODE.quietModules) * module).toBeCloseTo(340);
  });

  it('read back when the barcode is 32 characters long, the longest a draw accepts', async () => {
    const pdf = await renderRequisitionForm({ ...sample, barcode: 'ABCDEFGHJKMNPQRSTVWXYZ-ABCDEFGHJ' });
    expect(await code128On(pdf)).toEqual(['RQ-7K3M-9XQ2-HT4W', 'ABCDEFGHJKMNPQRSTVWXYZ-ABCDEFGHJ']);
  });
});

describe('the requisition form of', () => {
  it('a home test kit reads "Home test kit" as its place and its activation as its collection, in UTC', async () => {
    const text = textOf(await renderRequisitionForm({ ...sample, collection: { at: '2026-11-27T08:05:41Z', timeZone: null, place: null } }));
    expect(text).toContain('Home test kit');
    expect(text).toContain('2026-11-27 08:05 UTC');
    expect(text).toContain('when the kit was activated');
    expect(text).not.toContain('Europe/Berlin');
  });

  it('an erased profile prints what erasure leaves: no name, birth date or sex', async () => {
    const patient = { name: null, birthDate: null, sex: null, erased: true };
    const text = textOf(await renderRequisitionForm({ ...sample, patient }));
    expect(text).toContain('— (identifiers erased on request)');
    expect(text).not.toContain('Jürgen');
    expect(text).not.toContain('1985');
  });

  it('a patient named in Chinese prints the name as written', async () => {
    const text = textOf(await renderRequisitionForm({ ...sample, patient: { ...sample.patient, name: '王小明' } }));
    expect(text).toContain('王小明');
  });

  it('60 tests flows onto more pages, each numbered, later ones naming the requisition and the patient', async () => {
    const tests = Array.from({ length: 60 }, (_, index) => [FERRITIN, HAEMOGLOBIN, INR][index % 3]!);
    const pages = pagesOf(textOf(await renderRequisitionForm({ ...sample, tests })));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.join('').match(/2276-4|718-7|34714-6/g)).toHaveLength(60);
    for (const [index, page] of pages.entries()) {
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
      expect(page).toContain('RQ-7K3M-9XQ2-HT4W');
    }
    expect(pages[1]).toContain('Jürgen Müller · born 1985-03-14');
  });
});
