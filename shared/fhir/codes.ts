/**
 * The code systems of our FHIR export. LOINC codes of the biomarkers come from the catalog (seeded in
 * infra/local/seed-data.ts); units are translated to UCUM here, the unit language FHIR quantities use.
 */
import type { SpecimenType } from '../domain/catalog';

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
export const DIAGNOSTIC_SERVICE = 'http://terminology.hl7.org/CodeSystem/v2-0074';
export const DATA_ABSENT_REASON = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';
export const SPECIMEN_TYPE = 'http://terminology.hl7.org/CodeSystem/v2-0487';
export const SNOMED = 'http://snomed.info/sct';

/** Our own identifier systems: a sample's barcode (its tube label) and a requisition's number. */
export const SAMPLE_BARCODE_SYSTEM = 'urn:lab-api:sample-barcode';
export const REQUISITION_SYSTEM = 'urn:lab-api:requisition';
/** A ServiceRequest of an order: its id, so another bundle names it by a logical reference (a urn:uuid resolves only in its own). */
export const SERVICE_REQUEST_SYSTEM = 'urn:lab-api:service-request';

/** Our specimen types (the catalog's closed set) as HL7 v2 table 0487 codes, which FHIR and HL7 v2 SPM-4 both use. */
export const SPECIMEN_TYPE_CODES: Readonly<Record<SpecimenType, { code: string; display: string }>> = {
  serum: { code: 'SER', display: 'Serum' },
  plasma: { code: 'PLAS', display: 'Plasma' },
  whole_blood: { code: 'WB', display: 'Whole blood' },
  capillary_blood: { code: 'BLDC', display: 'Blood, capillary' },
  saliva: { code: 'SAL', display: 'Saliva' },
};

/** SNOMED CT's "Laboratory procedure": the category of a lab ServiceRequest. */
export const LABORATORY_PROCEDURE = { system: SNOMED, code: '108252007', display: 'Laboratory procedure' } as const;

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
