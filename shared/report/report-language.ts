/**
 * Every word the results report prints, in each language a profile may have (issue #30): one typed
 * catalogue, so a missing key is a type error and a test (test/unit/report-language.test.ts) fails on an
 * empty one. Numbers and dates are written as each language writes them: English `14 Mar 1985` and `14.2`,
 * German and Finnish `14.03.1985` and `14,2`. What the lab and the catalog name (tests, categories,
 * genotypes) is printed as they name it.
 */
import type { ValueOperator } from '../domain/results';
// Type only: the profile's languages decide the catalogue's keys without bundling the profile schemas.
import type { LANGUAGES } from '../schemas/profiles';

/** Every language a profile may have: a new one is a type error in REPORT_WORDS until the catalogue speaks it. */
export type ReportLanguage = (typeof LANGUAGES)[number];
export const REPORT_LANGUAGES = ['en', 'de', 'fi'] as const satisfies readonly ReportLanguage[];

export interface ReportWords {
  title: string;
  allIn: string;
  somePending: string;
  patient: string;
  dateOfBirth: string;
  sampleTaken: string;
  location: string;
  barcode: string;
  homeTestKit: string;
  born: string;
  bloodTests: string;
  geneticFindings: string;
  normalRange: string;
  optimalRange: string;
  yourResult: string;
  aboveNormal: string;
  belowNormal: string;
  critical: string;
  pending: string;
  notPerformed: string;
  preliminary: string;
  corrected: string;
  normal: string;
  optimal: string;
  upTo: string;
  atLeast: string;
  genotype: string;
  noFinding: string;
  reported: (when: string) => string;
  noneReported: string;
  page: (page: number, of: number) => string;
}

export const REPORT_WORDS: Readonly<Record<ReportLanguage, ReportWords>> = {
  en: {
    title: 'Results report',
    allIn: 'All results in',
    somePending: 'Some results pending',
    patient: 'Patient',
    dateOfBirth: 'Date of birth',
    sampleTaken: 'Sample taken',
    location: 'Location',
    barcode: 'Barcode',
    homeTestKit: 'Home test kit',
    born: 'born',
    bloodTests: 'Blood tests',
    geneticFindings: 'Genetic findings',
    normalRange: 'normal range',
    optimalRange: 'optimal range',
    yourResult: 'your result',
    aboveNormal: 'above normal',
    belowNormal: 'below normal',
    critical: 'critical',
    pending: 'pending',
    notPerformed: 'not performed',
    preliminary: 'preliminary',
    corrected: 'corrected',
    normal: 'Normal',
    optimal: 'optimal',
    upTo: 'up to',
    atLeast: 'at least',
    genotype: 'genotype',
    noFinding: 'no finding reported',
    reported: (when) => `Results reported ${when} (Berlin time)`,
    noneReported: 'No results reported yet',
    page: (page, of) => `Page ${page} of ${of}`,
  },
  de: {
    title: 'Befundbericht',
    allIn: 'Alle Ergebnisse liegen vor',
    somePending: 'Ergebnisse teilweise ausstehend',
    patient: 'Patient/in',
    dateOfBirth: 'Geburtsdatum',
    sampleTaken: 'Probenentnahme',
    location: 'Standort',
    barcode: 'Barcode',
    homeTestKit: 'Heimtest-Kit',
    born: 'geb.',
    bloodTests: 'Blutwerte',
    geneticFindings: 'Genetische Befunde',
    normalRange: 'Normbereich',
    optimalRange: 'Optimalbereich',
    yourResult: 'Ihr Wert',
    aboveNormal: 'über Normbereich',
    belowNormal: 'unter Normbereich',
    critical: 'kritisch',
    pending: 'ausstehend',
    notPerformed: 'nicht durchgeführt',
    preliminary: 'vorläufig',
    corrected: 'korrigiert',
    normal: 'Normbereich',
    optimal: 'optimal',
    upTo: 'bis',
    atLeast: 'ab',
    genotype: 'Genotyp',
    noFinding: 'kein Befund gemeldet',
    reported: (when) => `Ergebnisse gemeldet am ${when} (Berliner Zeit)`,
    noneReported: 'Noch keine Ergebnisse gemeldet',
    page: (page, of) => `Seite ${page} von ${of}`,
  },
  fi: {
    title: 'Tulosraportti',
    allIn: 'Kaikki tulokset valmiina',
    somePending: 'Osa tuloksista odottaa',
    patient: 'Potilas',
    dateOfBirth: 'Syntymäaika',
    sampleTaken: 'Näyte otettu',
    location: 'Toimipiste',
    barcode: 'Viivakoodi',
    homeTestKit: 'Kotitestipakkaus',
    born: 's.',
    bloodTests: 'Verikokeet',
    geneticFindings: 'Geneettiset löydökset',
    normalRange: 'viitealue',
    optimalRange: 'optimaalinen alue',
    yourResult: 'tuloksesi',
    aboveNormal: 'yli viitealueen',
    belowNormal: 'alle viitealueen',
    critical: 'kriittinen',
    pending: 'odottaa',
    notPerformed: 'ei tehty',
    preliminary: 'alustava',
    corrected: 'korjattu',
    normal: 'Viitealue',
    optimal: 'optimaalinen',
    upTo: 'enintään',
    atLeast: 'vähintään',
    genotype: 'genotyyppi',
    noFinding: 'ei raportoitua löydöstä',
    reported: (when) => `Tulokset raportoitu ${when} (Berliinin aikaa)`,
    noneReported: 'Tuloksia ei ole vielä raportoitu',
    page: (page, of) => `Sivu ${page} / ${of}`,
  },
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const OPERATOR_SIGN: Record<ValueOperator, string> = { eq: '', lt: '<', le: '≤', gt: '>', ge: '≥' };

/** How a language writes numbers and dates. */
export interface ReportFormat {
  number(value: number): string;
  /** A calendar date: year, month (1–12), day. */
  date(year: string, month: number, day: number): string;
  /** A date and a 24-hour `HH:MM` time. */
  dateTime(date: string, time: string): string;
  value(value: number, operator: ValueOperator | null): string;
}

export function reportFormat(language: ReportLanguage): ReportFormat {
  // Twelve significant digits: enough for any lab value, and no binary noise such as 0.30000000000000004;
  // never an exponent (1e-7), never a thousands separator (a lab writes 1200, not 1,200).
  const number = (value: number) => {
    const text = DIGITS.format(value);
    return language === 'en' ? text : text.replace('.', ',');
  };
  return {
    number,
    // English: month names read the same in every country (unlike 03/14 or 14/03); German and Finnish: 14.03.1985.
    date: (year, month, day) => (language === 'en' ? `${day} ${MONTHS[month - 1]} ${year}` : `${pad(day)}.${pad(month)}.${year}`),
    dateTime: (date, time) => (language === 'en' ? `${date}, ${time}` : language === 'de' ? `${date}, ${time} Uhr` : `${date} klo ${time.replace(':', '.')}`),
    value: (value, operator) => {
      const sign = operator ? OPERATOR_SIGN[operator] : '';
      return sign ? `${sign} ${number(value)}` : number(value);
    },
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
const DIGITS = new Intl.NumberFormat('en', { maximumSignificantDigits: 12, useGrouping: false });

/** The language of a profile's report: its own when the report speaks it, else English. */
export const reportLanguageOf = (language: string | null | undefined): ReportLanguage => REPORT_LANGUAGES.find((candidate) => candidate === language) ?? 'en';
