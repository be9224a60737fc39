/**
 * Storing a LabResultsReported report: results, genetic results and documents of one appointment, and
 * its completion when every planned result is in (the transition in_transit|blood_drawn → completed, by
 * the lab, with LabResultsAvailable) — one transaction per report (the event schema bounds a report to
 * fit in one), so nothing is half-stored and a retry is harmless.
 *
 * Its files too: every upload is checked before any is copied to `documents/`, a copy made for a report
 * that then fails is deleted again, and the uploads in `incoming/` (named by the lab, often after the
 * patient) are deleted once the report is stored — also when a retry finds it stored already.
 */
import { createHash } from 'node:crypto';
import { LAB } from '../domain/lifecycle';
import { isDeepStrictEqual } from 'node:util';
import {
  type Interpretation,
  interpretationOf,
  interpretationOfStored,
  isCritical,
  isFinal,
  missingResults,
  replaces,
  type ResultStatus,
  type StoredVersion,
} from '../domain/results';
import { copyObject, deleteObject, objectSize } from '../documents/s3';
import { errorNames, logger } from '../logger';
import { criticalResultReported } from '../events/critical-result-reported';
import { specimenRejected } from '../events/specimen-rejected';
import { labResultsAvailable } from '../events/lab-results-available';
import { labResultsCorrected, labResultsUpdated } from '../events/lab-results-updated';
import type { LabResultsReportedDetail } from '../events/lab-results-reported';
import { getAppointmentAggregate } from '../store/appointments/reads';
import { type AppointmentAggregate, appointmentLifecycle, type AppointmentRecord } from '../store/appointments/records';
import { appointmentUpdate } from '../store/appointments/writes';
import { type Catalog, loadCatalog, plannedBiomarkers } from '../store/catalog';
import { type DocumentRecord, documentPuts } from '../store/documents';
import { index, type ItemKey, keys } from '../store/keys';
import {
  appointmentIdOfBarcode,
  type ClinicalResultRecord,
  type GeneticResultRecord,
  rejectionPut,
  reportMarkerPut,
  reportStored,
  resultPut,
  type SupersededVersion,
  supersededBy,
} from '../store/lab-reports';
import { MAX_TRANSACTION_ITEMS, type NamedItem, TransactionCancelled } from '../store/transactions';
import type { Changes } from '../store/transitions';
import { commit } from './commit';
import { BUSINESS_METRICS, countBusiness, MetricUnit } from '../metrics';

/** A report that can never be stored as sent. The message is logged: ids and rules only, never values. */
export class ReportRejected extends Error {
  override name = 'ReportRejected';
}

async function appointmentIdOf(detail: LabResultsReportedDetail): Promise<string> {
  if (detail.appointment_id) return detail.appointment_id;
  const id = await appointmentIdOfBarcode(detail.barcode as string);
  // Not the barcode itself: this message is logged, and a barcode links the logs to a person's sample.
  if (!id) throw new ReportRejected('no appointment has the barcode of the report');
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

/** A result a report wrote: its biomarker, its status now, and whether it corrected a final value. */
interface Written {
  biomarker_id: number;
  result_status: ResultStatus;
  corrects: boolean;
}

/**
 * The Puts of the reported results that replace what is stored (shared/domain/results.ts replaces(): a
 * preliminary value never over a final one), each keeping the versions it replaces (supersededBy), and
 * `stored` updated to match; `written` gains each.
 */
function replacingPuts<R extends StoredVersion & { superseded?: SupersededVersion<R>[] }>(
  results: { biomarker_id: number; tested_at: string; result_status: ResultStatus }[],
  stored: Map<number, R>,
  itemKey: (biomarkerId: number) => ItemKey,
  detail: LabResultsReportedDetail,
  written: Written[],
): NamedItem[] {
  return results.flatMap((result) => {
    const incoming = { tested_at: result.tested_at, reported_at: detail.reported_at, result_status: result.result_status };
    const existing = stored.get(result.biomarker_id);
    if (!replaces(incoming, existing)) return [];
    stored.set(result.biomarker_id, incoming as R);
    const corrects = result.result_status === 'corrected' && existing !== undefined && isFinal(existing);
    written.push({ biomarker_id: result.biomarker_id, result_status: result.result_status, corrects });
    const superseded = supersededBy(existing);
    return [resultPut(itemKey(result.biomarker_id), { ...result, ...(superseded ? { superseded } : {}) }, detail, existing)];
  });
}

/**
 * The report's items, completion included when it brings the last planned result. Copies each upload to
 * its final key (unless an earlier attempt did), adding each key it copies to `copied`.
 */
async function prepare(detail: LabResultsReportedDetail, aggregate: AppointmentAggregate, now: Date, copied: string[]): Promise<Changes> {
  const { appointment } = aggregate;
  const at = now.toISOString();

  const catalog = await loadCatalog();
  const clinical = new Map<number, ClinicalResultRecord>(aggregate.clinicalResults.map((r) => [r.biomarker_id, r]));
  const genetic = new Map<number, GeneticResultRecord>(aggregate.geneticResults.map((r) => [r.biomarker_id, r]));
  const written: Written[] = [];
  // Each value's interpretation is kept as reported: the lab's flag, else derived now from its range and the catalog's critical limits.
  const interpreted = detail.clinical_results.map((result) => ({
    ...result,
    interpretation: result.interpretation ?? interpretationOf(result.value, result.reference_range_lab, catalog.biomarkers.get(result.biomarker_id)),
  }));
  const items: NamedItem[] = [
    ...replacingPuts(interpreted, clinical, (id) => keys.clinicalResult(appointment.id, id), detail, written),
    ...replacingPuts(detail.genetic_results, genetic, (id) => keys.geneticResult(appointment.id, id), detail, written),
  ];

  // Every file checked before any is copied: a report refused for its second file leaves nothing under documents/.
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
    };
    items.push(...documentPuts(record));
  }
  items.push(reportMarkerPut(detail.event_id, appointment.id, now));

  // Done: the tests with their final (or corrected) answer; a preliminary one is still pending.
  const received = [...clinical.entries(), ...genetic.entries()].filter(([, version]) => isFinal(version)).map(([id]) => id);
  const planned = plannedBiomarkers(aggregate, catalog);
  // A rejected specimen: its tests without a final value are not performed (a final value stands).
  const rejected = detail.rejection ? rejectedTests(detail.rejection, planned, received) : [];
  for (const biomarker_id of rejected) {
    items.push(
      rejectionPut(appointment.id, {
        biomarker_id,
        reason_code: detail.rejection!.reason_code,
        comment: detail.rejection!.comment,
        reported_at: detail.reported_at,
        event_id: detail.event_id,
      }),
    );
  }
  if (items.length > MAX_TRANSACTION_ITEMS - 6)
    throw new ReportRejected(`the report needs ${items.length} writes, more than one transaction takes: send the rejection on its own`);
  const done = [...received, ...aggregate.rejectedTests.map((test) => test.biomarker_id), ...rejected];
  const canComplete = appointment.status === 'blood_drawn' || appointment.status === 'in_transit';
  const completes = canComplete && missingResults(planned, done).length === 0;
  // Critical values: those this report brought need a clinician's acknowledgement again.
  const writtenIds = new Set(written.map((w) => w.biomarker_id));
  const newlyCritical = interpreted.filter((r) => writtenIds.has(r.biomarker_id) && isCritical(r.interpretation)).map((r) => r.biomarker_id);
  const critical = criticalFields(
    appointment,
    aggregate.clinicalResults,
    interpreted.filter((r) => writtenIds.has(r.biomarker_id)),
    newlyCritical,
    catalog,
    at,
  );
  if (critical && !completes) items.push(appointmentUpdate(appointment.id, critical));
  const changes: Changes = {
    transitions: completes
      ? [
          {
            lifecycle: appointmentLifecycle,
            before: appointment,
            after: { ...appointment, status: 'completed', completed_at: at, updated_at: at, ...critical },
            actor: LAB,
            at,
          },
        ]
      : [],
    items,
    events: [
      ...(rejected.length > 0 ? [specimenRejected(appointment, rejected, detail.rejection!.reason_code, at)] : []),
      // At once, beside the results: a clinician must see it (ids and biomarker ids, never a value).
      ...(newlyCritical.length > 0 ? [criticalResultReported(appointment, newlyCritical, at)] : []),
      // Ids and statuses only: what changed, for clients that show progress; a correction called out on its own.
      ...(written.length > 0
        ? [
            labResultsUpdated(
              appointment,
              written.map(({ biomarker_id, result_status }) => ({ biomarker_id, result_status })),
              at,
            ),
          ]
        : []),
      ...(written.some((w) => w.corrects)
        ? [
            labResultsCorrected(
              appointment,
              written.filter((w) => w.corrects).map((w) => w.biomarker_id),
              at,
            ),
          ]
        : []),
      ...(completes ? [labResultsAvailable(appointment, at)] : []),
    ],
    writtenAt: at,
  };
  return changes;
}

/**
 * The tests a rejection makes not performed: the ones it names (each must be planned), or every planned
 * one; those with a final value already keep it.
 */
function rejectedTests(rejection: NonNullable<LabResultsReportedDetail['rejection']>, planned: number[], final: number[]): number[] {
  const named = rejection.biomarker_ids ?? planned;
  const unplanned = named.filter((id) => !planned.includes(id));
  if (unplanned.length > 0) throw new ReportRejected(`the rejection names test(s) the appointment did not plan: ${unplanned.join(', ')}`);
  return [...new Set(named)].filter((id) => !final.includes(id)).sort((a, b) => a - b);
}

type CriticalFields = Pick<
  AppointmentRecord,
  'critical_biomarker_ids' | 'critical_reported_at' | 'critical_acknowledged_at' | 'critical_acknowledged_by' | 'critical_waiting_since'
> &
  Partial<ReturnType<typeof index.unacknowledgedCritical>>;

/**
 * The appointment's critical fields after the report, or undefined when they do not change. The tests
 * critical now are those whose current value is (the report's where it wrote one, else the stored one);
 * a report that brought a critical value resets the acknowledgement, one that only cleared one (a
 * correction) updates the list and keeps it. A new critical value also lists the appointment on GSI2 for
 * the critical results check (functions/events/critical-results-check.ts), waiting since the oldest
 * critical value nobody acknowledged: a second one does not restart the clock.
 */
function criticalFields(
  appointment: AppointmentRecord,
  stored: ClinicalResultRecord[],
  written: { biomarker_id: number; interpretation: Interpretation | null }[],
  newlyCritical: number[],
  catalog: Catalog,
  at: string,
): Partial<CriticalFields> | undefined {
  const now = new Map<number, Interpretation | null>(stored.map((r) => [r.biomarker_id, interpretationOfStored(r, catalog.biomarkers.get(r.biomarker_id))]));
  for (const r of written) now.set(r.biomarker_id, r.interpretation);
  const ids = [...now]
    .filter(([, interpretation]) => isCritical(interpretation))
    .map(([id]) => id)
    .sort((a, b) => a - b);
  if (newlyCritical.length > 0) {
    const waiting = (!appointment.critical_acknowledged_at && appointment.critical_waiting_since) || at;
    return {
      critical_biomarker_ids: ids,
      critical_reported_at: at,
      critical_acknowledged_at: null,
      critical_acknowledged_by: null,
      critical_waiting_since: waiting,
      ...index.unacknowledgedCritical(waiting, appointment.id),
    };
  }
  if (appointment.critical_biomarker_ids !== undefined && !isDeepStrictEqual(appointment.critical_biomarker_ids, ids)) return { critical_biomarker_ids: ids };
  return undefined;
}

/** The report is stored: its uploads in incoming/ are no longer needed (a failure here throws: EventBridge retries). */
async function deleteUploads(detail: LabResultsReportedDetail): Promise<void> {
  await Promise.all(detail.documents.map((document) => deleteObject(document.s3_key)));
}

/**
 * The report failed after copying files to documents/: delete those copies, unless the report is stored
 * after all (a commit whose answer was lost, or a concurrent delivery of the same event that used them).
 * Best effort: the ingest's own error is what is thrown; a copy left behind is found again by the retry.
 */
async function discardCopies(eventId: string, copied: string[]): Promise<void> {
  if (copied.length === 0) return;
  try {
    if (await reportStored(eventId)) return;
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

/**
 * Stores a report. Returns 'duplicate' for an event_id stored before. Throws ReportRejected for what
 * can never be stored (unknown appointment or biomarker, no sample drawn, missing file).
 */
export async function ingestLabReport(detail: LabResultsReportedDetail, now: Date): Promise<'stored' | 'duplicate'> {
  // A retry after the uploads' delete failed, or a late duplicate: the uploads may still be there.
  if (await reportStored(detail.event_id)) {
    await deleteUploads(detail);
    return 'duplicate';
  }
  const appointmentId = await appointmentIdOf(detail);
  await assertKnownBiomarkers(detail);

  const copied: string[] = [];
  let outcome: 'stored' | 'duplicate';
  try {
    outcome = await storeReport(detail, appointmentId, now, copied);
  } catch (error) {
    await discardCopies(detail.event_id, copied);
    throw error;
  }
  await deleteUploads(detail);
  return outcome;
}

/**
 * A stored report as business metrics: one more report ingested, and, when it completed the appointment,
 * how long the lab took from the draw to the last final value (the turnaround clinics ask about).
 */
function countIngested(appointment: AppointmentRecord, changes: Changes): void {
  countBusiness(BUSINESS_METRICS.resultsIngested);
  const completed = changes.transitions.length > 0 ? changes.writtenAt : undefined;
  if (completed && appointment.blood_drawn_at) {
    const seconds = Math.max(0, (Date.parse(completed) - Date.parse(appointment.blood_drawn_at)) / 1000);
    countBusiness(BUSINESS_METRICS.drawToFinalTurnaround, Math.round(seconds), MetricUnit.Seconds);
  }
}

async function storeReport(detail: LabResultsReportedDetail, appointmentId: string, now: Date, copied: string[]): Promise<'stored' | 'duplicate'> {
  for (let attempt = 1; ; attempt += 1) {
    const aggregate = await getAppointmentAggregate(appointmentId);
    if (!aggregate) throw new ReportRejected(`unknown appointment ${appointmentId}`);
    const { status } = aggregate.appointment;
    if (status === 'scheduled' || status === 'cancelled') {
      throw new ReportRejected(`appointment ${appointmentId} is ${status}: no sample was drawn`);
    }
    const changes = await prepare(detail, aggregate, now, copied);
    try {
      // At most 60 + 20 results, 2 × 5 documents, the marker, the completion (state, history) and one outbox
      // item holding every event (the status change, LabResultsUpdated, LabResultsCorrected, LabResultsAvailable): ≤ 94 items.
      await commit(changes);
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      if (error.failed('marker') && (await reportStored(detail.event_id))) return 'duplicate';
      if (attempt >= 3) throw error;
      continue; // a concurrent report changed the results we compared with: read again
    }
    countIngested(aggregate.appointment, changes);
    return 'stored';
  }
}
