/**
 * The results report PDF, read back the way a person and a machine would: poppler's pdftotext for the
 * words (names in every script included) and pdftoppm for the pixels of the first page, which is also
 * written to test-output/results-report.png (git-ignored) for a reviewer to look at.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderResultsReport, type ClinicalReportItem, type ResultsReportInput } from '../../shared/report/results-report';

const OUTPUT_DIR = join(import.meta.dirname, '../../test-output');
const workDir = mkdtempSync(join(tmpdir(), 'results-report-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const received = (item: Partial<ClinicalReportItem> & Pick<ClinicalReportItem, 'name' | 'category' | 'value'>): ClinicalReportItem => ({
  status: 'received',
  valueOperator: 'eq',
  unit: null,
  normal: null,
  optimal: null,
  flag: 'N',
  ...item,
});

const sample: ResultsReportInput = {
  serviceName: 'Lab Testing Service',
  language: 'en',
  patient: { name: 'Jürgen Müller', birthDate: '1985-03-14' },
  sampleDate: '2026-05-04T07:45:00Z',
  location: 'Berlin Mitte',
  barcode: 'LAB-2026-000123',
  reportedAt: '2026-05-06T12:30:00Z',
  status: 'in_progress',
  clinical: [
    received({ name: 'TSH', category: 'Thyroid', value: 5.2, unit: 'mIU/L', normal: { min: 0.4, max: 4 }, optimal: { min: 0.5, max: 2.5 }, flag: 'H' }),
    received({ name: 'Free T4', category: 'Thyroid', value: 1.3, unit: 'ng/dL', normal: { min: 0.9, max: 1.7 }, flag: 'N' }),
    received({ name: 'Ferritin', category: 'Iron', value: 18, unit: 'ng/mL', normal: { min: 30, max: 400 }, optimal: { min: 50, max: 150 }, flag: 'L' }),
    received({ name: 'CRP', category: 'Inflammation', value: 0.5, valueOperator: 'lt', unit: 'mg/L', normal: { min: null, max: 5 }, flag: 'N' }),
    received({
      name: 'LDL cholesterol',
      category: 'Lipids',
      value: 112,
      unit: 'mg/dL',
      normal: { min: null, max: 130 },
      optimal: { min: null, max: 100 },
      flag: 'N',
    }),
    received({
      name: 'HDL cholesterol',
      category: 'Lipids',
      value: 52,
      unit: 'mg/dL',
      normal: { min: 40, max: null },
      optimal: { min: 60, max: null },
      flag: 'N',
    }),
    received({ name: 'Lipoprotein(a)', category: 'Lipids', value: 21, unit: 'nmol/L', flag: null }),
    {
      name: 'Vitamin D (25-OH)',
      category: 'Vitamins',
      status: 'planned',
      value: null,
      valueOperator: null,
      unit: 'ng/mL',
      normal: { min: 30, max: 100 },
      optimal: null,
      flag: null,
    },
  ],
  genetic: [
    {
      gene: 'APOE',
      status: 'received',
      genotype: 'e3/e4',
      significance: 'moderate_risk',
      description: 'One e4 copy; cholesterol care matters more.',
    },
    { gene: 'MTHFR', status: 'planned', genotype: null, significance: null, description: null },
  ],
};

async function renderToFile(name: string, input: ResultsReportInput): Promise<string> {
  const file = join(workDir, `${name}.pdf`);
  writeFileSync(file, await renderResultsReport(input));
  return file;
}

const textOf = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
const lineWith = (text: string, word: string) => text.split('\n').find((line) => line.includes(word)) ?? '';

describe('renderResultsReport', () => {
  let samplePdf: string;
  let sampleText: string;

  beforeAll(async () => {
    samplePdf = await renderToFile('sample', sample);
    sampleText = textOf(samplePdf);
  });

  it('names the patient, their birth date, the sample date, the location and the barcode in the header', () => {
    for (const expected of ['Lab Testing Service', 'Results report', 'Jürgen Müller', '14 Mar 1985', '4 May 2026', 'Berlin Mitte', 'LAB-2026-000123']) {
      expect(sampleText).toContain(expected);
    }
  });

  it('prints every received value with its operator and unit', () => {
    for (const [name, value] of [
      ['TSH', '5.2 mIU/L'],
      ['Free T4', '1.3 ng/dL'],
      ['Ferritin', '18 ng/mL'],
      ['CRP', '< 0.5 mg/L'],
      ['LDL cholesterol', '112 mg/dL'],
      ['HDL cholesterol', '52 mg/dL'],
      ['Lipoprotein(a)', '21 nmol/L'],
    ] as const) {
      expect(lineWith(sampleText, name)).toContain(value);
    }
  });

  it('flags a high value H and a low value L on their own rows, and a normal value with neither', () => {
    expect(lineWith(sampleText, 'TSH')).toMatch(/\bH\b/);
    expect(lineWith(sampleText, 'Ferritin')).toMatch(/\bL\b/);
    expect(lineWith(sampleText, 'Free T4')).not.toMatch(/\b[HL]\b/);
  });

  it('writes one-sided ranges in words', () => {
    expect(lineWith(sampleText, 'Normal up to 130')).toContain('optimal up to 100');
    expect(sampleText).toContain('Normal at least 40 · optimal at least 60');
  });

  it('lists the planned clinical and genetic tests as pending', () => {
    expect(lineWith(sampleText, 'Vitamin D (25-OH)')).toContain('pending');
    expect(lineWith(sampleText, 'MTHFR')).toContain('pending');
  });

  it('states a genetic finding in plain words', () => {
    expect(sampleText).toContain('APOE: genotype e3/e4 — moderate risk. One e4 copy; cholesterol care matters more.');
  });

  it('numbers its single page and says when the results were reported, in Berlin time', () => {
    expect(sampleText).toContain('Page 1 of 1');
    expect(sampleText).toContain('Results reported 6 May 2026, 14:30 (Berlin time)');
  });

  it('draws a first page that is not blank, kept in test-output/results-report.png', () => {
    mkdirSync(OUTPUT_DIR, { recursive: true });
    execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', samplePdf, join(OUTPUT_DIR, 'results-report')]);

    const pgm = execFileSync('pdftoppm', ['-gray', '-r', '60', '-f', '1', '-l', '1', '-singlefile', samplePdf]);
    expect(darkPixels(pgm)).toBeGreaterThan(3000);
  });

  it('writes results at or beyond a limit with ≤ and ≥, which Noto Sans lacks', async () => {
    const clinical = [
      received({ name: 'Troponin T', category: 'Heart', value: 3, valueOperator: 'le', unit: 'ng/L', normal: { min: null, max: 14 } }),
      received({ name: 'eGFR', category: 'Kidney', value: 90, valueOperator: 'ge', unit: 'mL/min', normal: { min: 60, max: null } }),
    ];
    const text = textOf(await renderToFile('limits', { ...sample, clinical }));

    expect(lineWith(text, 'Troponin T')).toContain('≤ 3 ng/L');
    expect(lineWith(text, 'eGFR')).toContain('≥ 90 mL/min');
  });

  it('flows 60 blood tests onto several numbered pages', async () => {
    const clinical = Array.from({ length: 60 }, (_, index) =>
      received({ name: `Marker ${index + 1}`, category: `Panel ${Math.floor(index / 12) + 1}`, value: index, unit: 'mg/L', normal: { min: 10, max: 50 } }),
    );
    const text = textOf(await renderToFile('many', { ...sample, clinical }));
    const pages = Number(/Page 1 of (\d+)/.exec(text)?.[1]);

    expect(pages).toBeGreaterThan(1);
    expect(text).toContain(`Page 2 of ${pages}`);
    expect(text).toContain('Marker 60');
  });

  it('round-trips names in Latin, Greek, Cyrillic, Chinese, Japanese and Korean exactly', async () => {
    const names = ['Jürgen Müller', 'Łukasz Wróbel z Łodzi', 'Γιώργος Παπαδόπουλος', 'Анна Иванова', '王小明', '山田 太郎', 'さくら ヤマダ', '김민준'];
    for (const name of names) {
      const text = textOf(await renderToFile('names', { ...sample, patient: { name, birthDate: '1990-01-31' } }));
      expect(text).toContain(name);
      expect(text).not.toContain('?');
    }
  }, 30_000);
});

/** Pixels darker than light grey in a binary PGM (P5, 8-bit): ink on the page. */
function darkPixels(pgm: Buffer): number {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not answer a binary PGM');
  const pixels = pgm.subarray(header[0].length);
  return pixels.reduce((count, pixel) => (pixel < 200 ? count + 1 : count), 0);
}
