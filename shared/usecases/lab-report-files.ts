/**
 * A lab report's files (shared/usecases/ingest-lab-report.ts): each upload checked, then copied from
 * `incoming/` to its final key under `documents/`; the copies of a report that failed deleted again, and
 * the uploads (named by the lab, often after the patient) deleted once the report is stored.
 */
import { createHash } from 'node:crypto';
import { reportResultStatus } from '../domain/results';
import { copyObject, deleteObject, objectSize } from '../documents/s3';
import { errorNames, logger } from '../logger';
import type { LabResultsReportedDetail } from '../events/lab-results-reported';
import { type AppointmentRecord } from '../store/appointments/records';
import { type DocumentRecord, documentPuts } from '../store/documents';
import { appointmentOfStoredReport } from '../store/lab-reports';
import { type NamedItem } from '../store/transactions';
import { ReportRejected } from './report-rejected';

/** A document id derived from the report and file, so a retried report writes the same document. */
function documentId(eventId: string, s3Key: string): string {
  const hex = createHash('sha256').update(`${eventId}\n${s3Key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The document items of the report's files, each copied to its final key (unless an earlier attempt did),
 * each key it copies added to `copied`. Every file is checked before any is copied: a report refused for
 * its second file leaves nothing under documents/.
 */
export async function fileDocuments(detail: LabResultsReportedDetail, appointment: AppointmentRecord, at: string, copied: string[]): Promise<NamedItem[]> {
  const result_status = reportResultStatus([...detail.clinical_results, ...detail.genetic_results]);
  const items: NamedItem[] = [];
  const files = [];
  for (const [index, document] of detail.documents.entries()) {
    const id = documentId(detail.event_id, document.s3_key);
    const finalKey = `documents/${appointment.id}/${id}.pdf`;
    const filedSize = await objectSize(finalKey);
    const size = (await objectSize(document.s3_key)) ?? filedSize;
    // By position, not by key: the lab names its uploads, often after the patient (the report in the DLQ has the key).
    if (size === undefined) throw new ReportRejected(`documents[${index}] was not uploaded`);
    files.push({ document, id, finalKey, size, filed: filedSize !== undefined });
  }
  for (const { document, id, finalKey, size, filed } of files) {
    if (!filed) {
      await copyObject(document.s3_key, finalKey, document.content_type);
      copied.push(finalKey);
    }
    const record: DocumentRecord = {
      id,
      appointment_id: appointment.id,
      profile_id: appointment.profile_id,
      profile_group_slug: appointment.profile_group_slug,
      s3_key: finalKey,
      file_name: document.file_name,
      content_type: document.content_type,
      size,
      created_at: at,
      kind: 'lab_report',
      result_status,
    };
    items.push(...documentPuts(record));
  }
  return items;
}

/** The report is stored: its uploads in incoming/ are no longer needed (a failure here throws: EventBridge retries). */
export async function deleteUploads(detail: LabResultsReportedDetail): Promise<void> {
  await Promise.all(detail.documents.map((document) => deleteObject(document.s3_key)));
}

/**
 * The report failed (or was stored by another delivery) after copying files to documents/: delete those
 * copies, unless the report is stored for this appointment after all (a commit whose answer was lost, or a
 * concurrent delivery of the same event that used them). Stored for another appointment (issue #51: two
 * matches of one unmatched result racing), the copies under this appointment are no report's.
 * Best effort: the ingest's own error is what is thrown; a copy left behind is found again by the retry.
 */
export async function discardCopies(eventId: string, appointmentId: string, copied: string[]): Promise<void> {
  if (copied.length === 0) return;
  try {
    if ((await appointmentOfStoredReport(eventId)) === appointmentId) return;
    await Promise.all(copied.map((key) => deleteObject(key)));
  } catch (error) {
    // Counts and names only: keys can name the appointment.
    logger.warn('copies of a failed lab report not deleted; its retry will use them', {
      event_id: eventId,
      copies: copied.length,
      ...errorNames(error),
    });
  }
}
