/**
 * Storing a LabResultsReported report: results, genetic results and documents of one appointment, and
 * its completion when every planned result is in (the transition in_transit|blood_drawn → completed, by
 * the lab, with LabResultsAvailable) — one transaction per report (the event schema bounds a report to
 * fit in one), so nothing is half-stored and a retry is harmless.
 */
import { createHash } from 'node:crypto';
import { LAB } from '../domain/lifecycle';
import { missingResults, type ReportOrder, supersedes } from '../domain/results';
import { copyObject, deleteObject, objectSize } from '../documents/s3';
import { labResultsAvailable } from '../events/lab-results-available';
import type { LabResultsReportedDetail } from '../events/lab-results-reported';
import { getAppointmentAggregate } from '../store/appointments/reads';
import { type AppointmentAggregate, appointmentLifecycle } from '../store/appointments/records';
import { type Catalog, loadCatalog, plannedBiomarkers } from '../store/catalog';
import { type DocumentRecord, documentPuts } from '../store/documents';
import { type ItemKey, keys } from '../store/keys';
import { appointmentIdOfBarcode, reportMarkerPut, reportStored, resultPut } from '../store/lab-reports';
import { type NamedItem, TransactionCancelled } from '../store/transactions';
import type { Changes } from '../store/transitions';
import { commit } from './commit';

/** A report that can never be stored as sent. The message is logged: ids and rules only, never values. */
export class ReportRejected extends Error {
  override name = 'ReportRejected';
}

async function appointmentIdOf(detail: LabResultsReportedDetail): Promise<string> {
  if (detail.appointment_id) return detail.appointment_id;
  const id = await appointmentIdOfBarcode(detail.barcode as string);
  if (!id) throw new ReportRejected(`no appointment has barcode ${detail.barcode}`);
  return id;
}

/** A document id derived from the report and file, so a retried report writes the same document. */
function documentId(eventId: string, s3Key: string): string {
  const hex = createHash('sha256').update(`${eventId}\n${s3Key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function assertKnownBiomarkers(detail: LabResultsReportedDetail): Promise<void> {
  const check = (catalog: Catalog) => [
    ...detail.clinical_results.filter((r) => catalog.biomarkers.get(r.biomarker_id)?.kind !== 'clinical').map((r) => r.biomarker_id),
    ...detail.genetic_results.filter((r) => catalog.biomarkers.get(r.biomarker_id)?.kind !== 'genetic').map((r) => r.biomarker_id),
  ];
  // A biomarker added in the last minutes may not be in the container's cached catalog yet.
  let unknown = check(await loadCatalog());
  if (unknown.length > 0) unknown = check(await loadCatalog({ fresh: true }));
  if (unknown.length > 0) throw new ReportRejected(`unknown biomarker(s) or wrong kind: ${unknown.join(', ')}`);
}

/** The Puts of the reported results that supersede what is stored (and `stored` updated to match). */
function supersedingPuts(
  results: { biomarker_id: number; tested_at: string }[],
  stored: Map<number, ReportOrder>,
  itemKey: (biomarkerId: number) => ItemKey,
  detail: LabResultsReportedDetail,
): NamedItem[] {
  return results.flatMap((result) => {
    const incoming = { tested_at: result.tested_at, reported_at: detail.reported_at };
    const existing = stored.get(result.biomarker_id);
    if (!supersedes(incoming, existing)) return [];
    stored.set(result.biomarker_id, incoming);
    return [resultPut(itemKey(result.biomarker_id), result, detail, existing)];
  });
}

/** The report's items, completion included when it brings the last planned result; S3 keys to delete after. */
async function prepare(detail: LabResultsReportedDetail, aggregate: AppointmentAggregate, now: Date): Promise<{ changes: Changes; incomingKeys: string[] }> {
  const { appointment } = aggregate;
  const at = now.toISOString();

  const clinical = new Map<number, ReportOrder>(aggregate.clinicalResults.map((r) => [r.biomarker_id, r]));
  const genetic = new Map<number, ReportOrder>(aggregate.geneticResults.map((r) => [r.biomarker_id, r]));
  const items: NamedItem[] = [
    ...supersedingPuts(detail.clinical_results, clinical, (id) => keys.clinicalResult(appointment.id, id), detail),
    ...supersedingPuts(detail.genetic_results, genetic, (id) => keys.geneticResult(appointment.id, id), detail),
  ];

  const incomingKeys: string[] = [];
  for (const document of detail.documents) {
    const id = documentId(detail.event_id, document.s3_key);
    const finalKey = `documents/${appointment.id}/${id}.pdf`;
    const size = (await objectSize(document.s3_key)) ?? (await objectSize(finalKey));
    if (size === undefined) throw new ReportRejected(`document ${document.s3_key} was not uploaded`);
    if (!(await objectSize(finalKey))) await copyObject(document.s3_key, finalKey, document.content_type);
    incomingKeys.push(document.s3_key);
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
    };
    items.push(...documentPuts(record));
  }
  items.push(reportMarkerPut(detail.event_id, appointment.id, now));

  const catalog = await loadCatalog();
  const received = [...clinical.keys(), ...genetic.keys()];
  const canComplete = appointment.status === 'blood_drawn' || appointment.status === 'in_transit';
  const completes = canComplete && missingResults(plannedBiomarkers(aggregate, catalog), received).length === 0;
  const changes: Changes = {
    transitions: completes
      ? [
          {
            lifecycle: appointmentLifecycle,
            before: appointment,
            after: { ...appointment, status: 'completed', completed_at: at, updated_at: at },
            actor: LAB,
            at,
          },
        ]
      : [],
    items,
    events: completes ? [labResultsAvailable(appointment, at)] : [],
    writtenAt: at,
  };
  return { changes, incomingKeys };
}

/**
 * Stores a report. Returns 'duplicate' for an event_id stored before. Throws ReportRejected for what
 * can never be stored (unknown appointment or biomarker, no sample drawn, missing file).
 */
export async function ingestLabReport(detail: LabResultsReportedDetail, now: Date): Promise<'stored' | 'duplicate'> {
  if (await reportStored(detail.event_id)) return 'duplicate';
  const appointmentId = await appointmentIdOf(detail);
  await assertKnownBiomarkers(detail);

  for (let attempt = 1; ; attempt += 1) {
    const aggregate = await getAppointmentAggregate(appointmentId);
    if (!aggregate) throw new ReportRejected(`unknown appointment ${appointmentId}`);
    const { status } = aggregate.appointment;
    if (status === 'scheduled' || status === 'cancelled') {
      throw new ReportRejected(`appointment ${appointmentId} is ${status}: no sample was drawn`);
    }
    const { changes, incomingKeys } = await prepare(detail, aggregate, now);
    try {
      // At most 60 + 20 results, 2 × 5 documents, the marker and the completion (state, history, outbox): ≤ 94 items.
      await commit(changes);
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      if (error.failed('marker') && (await reportStored(detail.event_id))) return 'duplicate';
      if (attempt >= 3) throw error;
      continue; // a concurrent report changed the results we compared with: read again
    }
    await Promise.all(incomingKeys.map((key) => deleteObject(key)));
    return 'stored';
  }
}
