/** What the translation of an ORU^R01 message gives and needs (shared/hl7/oru-r01.ts): the report, its attachments, the biomarker lookup, the refusal. */
export class Hl7Refused extends Error {
  override name = 'Hl7Refused';
}

/** OBX-3: the observation's code and its coding system (LN: LOINC; 99LAB: our biomarker id). */
export interface ObservationCode {
  code: string;
  system: string;
}
export interface KnownBiomarker {
  id: number;
  kind: 'clinical' | 'genetic';
  gene?: string;
}
export type BiomarkerLookup = (code: ObservationCode) => KnownBiomarker | undefined;

/** Our own coding system in OBX-3 and OBX-6 alternate identifiers: a biomarker id, a unit id. */
export const LOCAL_CODING_SYSTEM = '99LAB';

export interface Attachment {
  file_name: string;
  content_type: 'application/pdf';
  bytes: Buffer;
}

export interface TranslatedReport {
  /** The report as a LabResultsReported detail, its documents still to be uploaded (`attachments`). */
  detail: Record<string, unknown>;
  attachments: Attachment[];
}
