/**
 * An HL7 v2 ORU^R01 message the lab uploaded under `incoming/hl7/` (S3 tells EventBridge, EventBridge
 * invokes results-ingest): read in the character set its MSH-18 declares and translated into the report it
 * means (shared/hl7/oru-r01.ts), its embedded PDFs put under `incoming/` like any upload, then checked
 * against the LabResultsReported schema and stored by the SAME ingestLabReport as a JSON report. So an HL7
 * message and the equivalent JSON report store the same thing, and are refused for the same reasons. Once
 * stored, kept as an unmatched result (no drawn order holds its barcode), or found so before (the message
 * control id makes one event_id), the message file is deleted: it names the patient.
 */
import * as v from 'valibot';
import { HL7_DOCUMENTS_PREFIX, HL7_PREFIX } from '../documents/bucket-layout';
import { deleteObject, putUpload, objectBytes } from '../documents/s3';
import { LabResultsReportedDetail, reportIssues } from '../events/lab-results-reported';
import { type BiomarkerLookup, decodeOruR01, Hl7Refused, LOCAL_CODING_SYSTEM, translateOruR01 } from '../hl7/oru-r01';
import { type Catalog, loadCatalog } from '../store/catalog';
import { ingestLabReport, type IngestOutcome, ReportRejected } from './ingest-lab-report';

/** What the keys of HL7 messages may look like: no character an S3 event would encode. */
export const HL7_KEY = /^incoming\/hl7\/[A-Za-z0-9._-]{1,200}\.hl7$/;
/** A result message is a few KB; with an embedded PDF report, at most a few MB. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** `unmatched`: no drawn order holds its barcode; kept for matching by hand (keep-unmatched-result.ts). */
export type Hl7Outcome = IngestOutcome | 'gone';

/**
 * `versionId`: the version S3's event names (the bucket is versioned). That version is read and, once
 * stored, deleted: a second upload under the same name is a version of its own, with its own event, never
 * read or deleted by this one's.
 */
export async function ingestHl7Message(key: string, now: Date, versionId?: string): Promise<{ outcome: Hl7Outcome; event_id?: string }> {
  if (!HL7_KEY.test(key)) throw new ReportRejected(`HL7 message keys are ${HL7_PREFIX}<letters, digits, . _ ->.hl7`);
  let bytes: Buffer | undefined;
  try {
    bytes = await objectBytes(key, MAX_MESSAGE_BYTES, versionId);
  } catch (error) {
    if (error instanceof RangeError) throw new ReportRejected(`the HL7 message is ${error.message}`);
    throw error;
  }
  // Already stored and deleted (S3 delivers a notification at least once), or removed by the lab.
  if (bytes === undefined) return { outcome: 'gone' };

  const { detail, attachments } = await translate(bytes);
  const eventId = detail.event_id as string;
  const documents = attachments.map((attachment, index) => ({
    // Derived from the message: a retry puts the same keys, and a stored report finds them listed.
    s3_key: `${HL7_DOCUMENTS_PREFIX}${eventId}/${index + 1}.pdf`,
    file_name: attachment.file_name,
    content_type: attachment.content_type,
  }));
  const parsed = v.safeParse(LabResultsReportedDetail, { ...detail, documents });
  if (!parsed.success) {
    throw new ReportRejected(`the HL7 message means an invalid report: ${reportIssues(parsed.issues, 'report')}`);
  }
  await Promise.all(attachments.map((attachment, index) => putUpload(documents[index]!.s3_key, attachment.bytes, attachment.content_type)));
  let outcome: IngestOutcome;
  try {
    outcome = await ingestLabReport(parsed.output, now, { source: 'hl7' });
  } catch (error) {
    // Refused for good (no such barcode, not drawn, …): the extracted PDFs must not linger. A transient
    // failure keeps them for the retry, which puts the same keys again anyway.
    if (error instanceof ReportRejected) await Promise.allSettled(documents.map((document) => deleteObject(document.s3_key)));
    throw error;
  }
  await deleteObject(key, versionId);
  return { outcome, event_id: eventId };
}

/** The message read in the character set its MSH-18 declares, then translated; Hl7Refused → ReportRejected. */
async function translate(bytes: Buffer) {
  try {
    const text = decodeOruR01(bytes);
    try {
      return translateOruR01(text, lookupIn(await loadCatalog({ fresh: false })));
    } catch (error) {
      // A biomarker added in the last minutes may not be in the container's cached catalog yet: look again.
      if (!(error instanceof Hl7Refused && error.message.includes('names no biomarker'))) throw error;
      return translateOruR01(text, lookupIn(await loadCatalog({ fresh: true })));
    }
  } catch (error) {
    if (error instanceof Hl7Refused) throw new ReportRejected(`HL7: ${error.message}`);
    throw error;
  }
}

/** OBX-3 → a biomarker: by LOINC (system LN), or by our id (system 99LAB). */
function lookupIn(catalog: Catalog): BiomarkerLookup {
  const byLoinc = new Map([...catalog.biomarkers.values()].filter((b) => b.loinc).map((b) => [b.loinc!, b]));
  return ({ code, system }) => {
    const biomarker =
      system === 'LN' ? byLoinc.get(code) : system === LOCAL_CODING_SYSTEM && /^\d{1,9}$/.test(code) ? catalog.biomarkers.get(Number(code)) : undefined;
    return biomarker && { id: biomarker.id, kind: biomarker.kind, gene: biomarker.gene };
  };
}
