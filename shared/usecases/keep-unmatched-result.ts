/**
 * A report whose barcode matches no drawn order (issue #51): a mislabelled tube, a barcode typed wrong, a
 * sample the clinic never confirmed. Its values come from a real person, so it is kept as an unmatched result
 * (shared/store/unmatched-results.ts) for the service's lab-operations staff to match or discard — not refused
 * into the ingest's dead-letter queue, where it waited until someone noticed.
 *
 * What is kept is what the ingest would store, checked as far as it can be without the appointment (its
 * times, its biomarkers, its files: the caller checked the first two), so that matching it later runs the
 * ingest's remaining rules on a report that could be stored. Its files are copied to `unmatched/<id>/<n>.pdf`
 * (ids only: the lab names its uploads, often after the patient) and the uploads deleted, as the ingest's
 * rules keep them; the report kept names the copies. The patient the lab named (HL7 PID-5/PID-7, a JSON
 * report's `patient`) is kept on the unmatched result alone.
 */
import { UNMATCHED_PREFIX } from '../documents/bucket-layout';
import { copyObject, deleteObject, objectSize } from '../documents/s3';
import { derivedUuid } from '../derived-uuid';
import type { LabResultsReportedDetail } from '../events/lab-results-reported';
import { errorNames, logger } from '../logger';
import { type Catalog, loadCatalog } from '../store/catalog';
import {
  getUnmatchedResult,
  keepUnmatchedResult,
  unmatchedExpiry,
  type UnmatchedBiomarker,
  type UnmatchedResultRecord,
  type UnmatchedSource,
} from '../store/unmatched-results';
import { deleteUploads } from './lab-report-files';
import { ReportRejected } from './report-rejected';

/** The unmatched result a report is kept as: one per report, so the lab's retry keeps nothing twice. */
export const unmatchedIdOf = (eventId: string) => derivedUuid(['unmatched', eventId]);

/** The tests the report carries (results, then those a rejection names), each once, as the list shows them. */
function biomarkersOf(detail: LabResultsReportedDetail, catalog: Catalog): UnmatchedBiomarker[] {
  const ids = [
    ...detail.clinical_results.map((r) => r.biomarker_id),
    ...detail.genetic_results.map((r) => r.biomarker_id),
    ...(detail.rejection?.biomarker_ids ?? []),
  ];
  return [...new Set(ids)].map((id) => {
    const biomarker = catalog.biomarkers.get(id);
    return { code: biomarker?.loinc ?? String(id), name: biomarker?.name ?? `Biomarker ${id}` };
  });
}

/** Keeps the report; 'duplicate' when it was kept before. Throws ReportRejected for a file never uploaded. */
export async function keepUnmatched(detail: LabResultsReportedDetail, now: Date, source: UnmatchedSource): Promise<'unmatched' | 'duplicate'> {
  const id = unmatchedIdOf(detail.event_id);
  // The lab's retry, or a second delivery of the same event: its uploads may still be there.
  if (await getUnmatchedResult(id, now)) {
    await deleteUploads(detail);
    return 'duplicate';
  }
  // Every file checked before any is copied, as the ingest does. By position, never by key (the lab's names).
  const sizes = await Promise.all(detail.documents.map((document) => objectSize(document.s3_key)));
  const missing = sizes.findIndex((size) => size === undefined);
  if (missing >= 0) throw new ReportRejected(`documents[${missing}] was not uploaded`);
  const documents = detail.documents.map((document, index) => ({ ...document, s3_key: `${UNMATCHED_PREFIX}${id}/${index + 1}.pdf` }));
  // Derived keys: a retry copies onto the same ones.
  await Promise.all(detail.documents.map((document, index) => copyObject(document.s3_key, documents[index]!.s3_key, document.content_type)));

  const { patient, ...report } = detail;
  const receivedAt = now.toISOString();
  const kept = await keepUnmatchedResult({
    id,
    received_at: receivedAt,
    barcode: detail.barcode as string,
    source,
    biomarkers: biomarkersOf(detail, await loadCatalog()),
    status: 'waiting',
    ...(patient ? { patient } : {}),
    report: { ...report, documents },
    expires_at: unmatchedExpiry(receivedAt),
  });
  await deleteUploads(detail);
  return kept ? 'unmatched' : 'duplicate';
}

/**
 * The files a closed unmatched result kept under unmatched/ (a discard's, or a report stored again by its barcode,
 * whose own uploads were filed), deleted after the close so a match racing it never misses one. A file left
 * behind expires with the prefix's bucket rule.
 */
export async function deleteUnmatchedFiles(record: UnmatchedResultRecord): Promise<void> {
  const files = record.report?.documents.map((document) => document.s3_key) ?? [];
  await Promise.all(files.map((key) => deleteObject(key))).catch((error: unknown) => {
    logger.warn('files of a closed unmatched result not deleted; the bucket rule deletes them', { unmatched_result_id: record.id, ...errorNames(error) });
  });
}
