/**
 * The code systems of our FHIR export. LOINC codes of the biomarkers come from the catalog (seeded in
 * infra/local/seed-data.ts); units are translated to UCUM here, the unit language FHIR quantities use.
 */
export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
export const DIAGNOSTIC_SERVICE = 'http://terminology.hl7.org/CodeSystem/v2-0074';
export const DATA_ABSENT_REASON = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';

/** LOINC: the panel of the whole report, the genotype of a genetic finding, the gene studied. */
export const LAB_REPORT_CODE = { system: LOINC, code: '11502-2', display: 'Laboratory report' } as const;
export const GENOTYPE_CODE = { system: LOINC, code: '84413-4', display: 'Genotype display name' } as const;
export const GENE_STUDIED_CODE = { system: LOINC, code: '48018-6', display: 'Gene studied [ID]' } as const;

/** Our units as UCUM codes; a unit without a UCUM form is exported as text only. */
const UCUM_CODES: Readonly<Record<string, string>> = {
  'ng/mL': 'ng/mL',
  'ng/dL': 'ng/dL',
  'g/dL': 'g/dL',
  'mg/dL': 'mg/dL',
  'mg/L': 'mg/L',
  'mIU/L': 'm[IU]/L',
  'nmol/L': 'nmol/L',
  'pmol/L': 'pmol/L',
  '%': '%',
  'mmol/L': 'mmol/L',
  'umol/L': 'umol/L',
  'µmol/L': 'umol/L',
  'U/L': 'U/L',
};

export const ucumOf = (unit: string | null): string | undefined => (unit === null ? undefined : UCUM_CODES[unit]);

/** FHIR's administrative gender of an ISO/IEC 5218 sex code (0 not known, 1 male, 2 female, 9 not applicable). */
export function genderOf(sex: number | null): 'male' | 'female' | 'unknown' {
  if (sex === 1) return 'male';
  if (sex === 2) return 'female';
  return 'unknown';
}
