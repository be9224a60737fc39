/**
 * The results report in the profile's language (issue #30): the catalogue is complete in every language,
 * and the rendered PDF, read back with pdftotext, shows each language's labels, dates and decimal commas.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPORT_LANGUAGES, REPORT_WORDS, reportFormat, reportLanguageOf } from '../../shared/report/report-language';
import { renderResultsReport, type ResultsReportInput } from '../../shared/report/results-report';

const input = (language: ResultsReportInput['language']): ResultsReportInput => ({
  serviceName: 'Lab Testing Service',
  language,
  patient: { name: 'Aino Virtanen', birthDate: '1985-03-14' },
  sampleDate: '2026-11-24T07:45:00Z',
  location: 'Helsinki Kamppi',
  barcode: 'LAB-2026-000123',
  reportedAt: '2026-11-24T12:30:00Z',
  status: 'in_progress',
  clinical: [
    {
      name: 'TSH',
      category: 'Thyroid',
      status: 'received',
      value: 5.25,
      valueOperator: 'eq',
      unit: 'mIU/L',
      normal: { min: 0.4, max: 4 },
      optimal: null,
      flag: 'H',
      resultStatus: 'preliminary',
    },
    {
      name: 'Haemoglobin',
      category: 'Blood',
      status: 'received',
      value: 24.6,
      valueOperator: 'eq',
      unit: 'g/dL',
      normal: { min: 12, max: 16 },
      optimal: null,
      flag: 'HH',
      resultStatus: 'corrected',
    },
    { name: 'Ferritin', category: 'Iron', status: 'not_performed', value: null, valueOperator: null, unit: 'ng/mL', normal: null, optimal: null, flag: null },
    {
      name: 'Vitamin D (25-OH)',
      category: 'Vitamins',
      status: 'planned',
      value: null,
      valueOperator: null,
      unit: 'ng/mL',
      normal: null,
      optimal: null,
      flag: null,
    },
  ],
  genetic: [],
});
const textOf = async (language: ResultsReportInput['language']) =>
  execFileSync('pdftotext', ['-layout', '-', '-'], { input: Buffer.from(await renderResultsReport(input(language))), encoding: 'utf8' });

describe('the report catalogue', () => {
  it.each(REPORT_LANGUAGES)('has every word in %s, none empty', (language) => {
    const words = REPORT_WORDS[language];
    expect(Object.keys(words).sort()).toEqual(Object.keys(REPORT_WORDS.en).sort());
    for (const [key, word] of Object.entries(words)) {
      const text = typeof word === 'function' ? (word as (a: unknown, b?: unknown) => string)('X', 2) : word;
      expect(text.trim(), `${language}.${key}`).not.toBe('');
    }
  });

  it('answers English for a language the report does not speak', () => {
    expect([reportLanguageOf('sv'), reportLanguageOf(null), reportLanguageOf('fi')]).toEqual(['en', 'en', 'fi']);
  });

  it('writes decimal commas in German and Finnish, a point in English', () => {
    expect(REPORT_LANGUAGES.map((language) => reportFormat(language).value(0.01, 'lt'))).toEqual(['< 0.01', '< 0,01', '< 0,01']);
  });
});

describe('the results report in the profile language', () => {
  it.each([
    [
      'en',
      [
        'Results report',
        'DATE OF BIRTH',
        '14 Mar 1985',
        '24 Nov 2026',
        '5.25',
        'preliminary',
        'corrected',
        'not performed',
        'pending',
        'critical',
        'Page 1 of 1',
        'Normal 0.4–4',
      ],
    ],
    [
      'de',
      [
        'Befundbericht',
        'GEBURTSDATUM',
        '14.03.1985',
        '24.11.2026',
        '5,25',
        'vorläufig',
        'korrigiert',
        'nicht durchgeführt',
        'ausstehend',
        'kritisch',
        'Seite 1 von 1',
        'Normbereich 0,4–4',
        '24.11.2026, 13:30 Uhr',
      ],
    ],
    [
      'fi',
      [
        'Tulosraportti',
        'SYNTYMÄAIKA',
        '14.03.1985',
        '24.11.2026',
        '5,25',
        'alustava',
        'korjattu',
        'ei tehty',
        'odottaa',
        'kriittinen',
        'Sivu 1 / 1',
        'Viitealue 0,4–4',
        '24.11.2026 klo 13.30',
      ],
    ],
  ] as const)('renders in %s: labels, dates, decimal commas, statuses and the critical legend', async (language, expected) => {
    const text = await textOf(language);
    for (const word of expected) expect(text, `${language}: ${word}`).toContain(word);
  });

  it('prints no English label in a German report', async () => {
    const text = await textOf('de');
    for (const english of ['Results report', 'Date of birth', 'pending', 'preliminary', 'not performed', 'Page 1']) expect(text).not.toContain(english);
  });
});

describe('numbers in the report', () => {
  it('never writes an exponent or a thousands separator, and drops binary noise', () => {
    expect([0.0000001, 1200, 0.1 + 0.2, -3.5].map((value) => reportFormat('de').number(value))).toEqual(['0,0000001', '1200', '0,3', '-3,5']);
  });
});
