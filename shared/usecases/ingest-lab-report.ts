/**
 * Storing a LabResultsReported report: results, genetic results and documents of one appointment, and
 * its completion when every planned result is in (the transition in_transit|blood_drawn → completed, by
 * the lab, with LabResultsAvailable) — one transaction per report (the event schema bounds a report to
 * fit in one), so nothing is half-stored and a retry is harmless.
 *
 * Its files too: every upload is checked before any is copied to `documents/`, a copy made for a report
 * that then fails is deleted again, and the uploads in `incoming/` (named by the lab, often after the
 * patient) are deleted once the report is stored — also when a retry finds it stored already.
 *
 * A report whose barcode no drawn order holds is kept as an unmatched result (keep-unmatched-result.ts, issue
 * #51) after the checks that need no appointment, and applied through here again once someone matches it.
 *
 * Here: finding the appointment, the retries of the transaction and the business metrics. What a report
 * changes is lab-report-changes.ts (its critical values lab-report-critical.ts), its files lab-report-files.ts.
 */
import { isBeyondClockSkew, MAX_CLOCK_SKEW_MS } from '../domain/instant';
import type { LabResultsReportedDetail } from '../events/lab-results-reported';
import { getAppointmentAggregate } from '../store/appointments/reads';
import { type AppointmentRecord } from '../store/appointments/records';
import { type Catalog, loadCatalog } from '../store/catalog';
import { appointmentIdOfBarcode, reportStored } from '../store/lab-reports';
import { type NamedItem, TransactionCancelled } from '../store/transactions';
import { closeUnmatchedUpdate, getUnmatchedResult, type UnmatchedResultRecord, type UnmatchedSource } from '../store/unmatched-results';
import type { Changes } from '../store/transitions';
import { commit } from './commit';
import { BUSINESS_METRICS, countBusiness, MetricUnit } from '../metrics';
import { prepare } from './lab-report-changes';
import { deleteUnmatchedFiles, keepUnmatched, unmatchedIdOf } from './keep-unmatched-result';
import { deleteUploads, discardCopies } from './lab-report-files';
import { ReportRejected } from './report-rejected';

export { ReportRejected };

export type IngestOutcome = 'stored' | 'duplicate' | 'unmatched';

/**
 * The appointment the report names, or the one holding its barcode; undefined when no drawn order holds the
 * barcode (the report is then kept as an unmatched result). A report naming an appointment_id we do not
 * have is refused later (storeReport): that is the lab's bug, not a mislabelled tube.
 */
async function appointmentIdOf(detail: LabResultsReportedDetail): Promise<string | undefined> {
  if (detail.appointment_id) return detail.appointment_id;
  return appointmentIdOfBarcode(detail.barcode as string);
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

/**
 * A report from the future would outrank every later one, a correction included (shared/domain/results.ts
 * supersedes()): its time may lead our clock by a drift at most, as a courier's may, and a test may be
 * dated no later than the day after it was reported (a lab east of UTC writes its own calendar day).
 */
function assertReportTimes(detail: LabResultsReportedDetail, now: Date): void {
  if (isBeyondClockSkew(detail.reported_at, now)) {
    throw new ReportRejected(`reported_at is more than ${MAX_CLOCK_SKEW_MS / 60_000} minutes ahead of the service's clock`);
  }
  const latestTestDay = new Date(Date.parse(detail.reported_at) + 86_400_000).toISOString().slice(0, 10);
  const late = [...detail.clinical_results, ...detail.genetic_results].filter((result) => result.tested_at > latestTestDay).map((r) => r.biomarker_id);
  if (late.length > 0) throw new ReportRejected(`tested_at is later than the day after reported_at for biomarker(s) ${late.join(', ')}`);
}

export interface IngestOptions {
  /** How the lab sent it, as an unmatched result shows it: a JSON event (the default) or an HL7 message. */
  readonly source?: UnmatchedSource;
  /** A write of the caller's that must happen with the report or not at all, in its transaction (a match closing its unmatched result). */
  readonly alsoWrite?: NamedItem;
}

/**
 * Stores a report. Returns 'duplicate' for an event_id stored (or kept unmatched) before, 'unmatched' for a
 * report whose barcode no drawn order holds: kept for matching by hand (keep-unmatched-result.ts). Throws
 * ReportRejected for what can never be stored (unknown appointment_id or biomarker, no sample drawn, missing file).
 */
export async function ingestLabReport(detail: LabResultsReportedDetail, now: Date, options: IngestOptions = {}): Promise<IngestOutcome> {
  // A retry after the uploads' delete failed, or a late duplicate: the uploads may still be there.
  if (await reportStored(detail.event_id)) {
    await deleteUploads(detail);
    return 'duplicate';
  }
  assertReportTimes(detail, now);
  const [appointmentId, waiting] = await Promise.all([appointmentIdOf(detail), waitingUnmatched(detail, now, options)]);
  await assertKnownBiomarkers(detail);
  if (!appointmentId) return keepUnmatched(detail, now, options.source ?? 'json');

  // The lab sent this report again once its barcode's draw was confirmed: the copy kept unmatched is this one.
  const closing = waiting && closeUnmatchedUpdate(waiting.id, { status: 'matched', appointment_id: appointmentId }, { at: now.toISOString(), keyId: 'ingest' });
  const copied: string[] = [];
  let outcome: 'stored' | 'duplicate';
  try {
    outcome = await storeReport(detail, appointmentId, now, copied, options.alsoWrite ?? closing);
  } catch (error) {
    await discardCopies(detail.event_id, appointmentId, copied);
    throw error;
  }
  // Stored meanwhile by a concurrent delivery: for another appointment (two matches of one unmatched result
  // racing), the copies made for this one are no report's.
  if (outcome === 'duplicate') await discardCopies(detail.event_id, appointmentId, copied);
  await deleteUploads(detail);
  if (closing && outcome === 'stored') await deleteUnmatchedFiles(waiting);
  return outcome;
}

/**
 * The unmatched result this report was kept as, while it waits: a report found by its barcode only (a match
 * by hand closes its own), read beside the barcode so the ingest waits no longer.
 */
async function waitingUnmatched(detail: LabResultsReportedDetail, now: Date, options: IngestOptions): Promise<UnmatchedResultRecord | undefined> {
  if (detail.appointment_id || options.alsoWrite) return undefined;
  const kept = await getUnmatchedResult(unmatchedIdOf(detail.event_id), now);
  return kept?.status === 'waiting' ? kept : undefined;
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

async function storeReport(
  detail: LabResultsReportedDetail,
  appointmentId: string,
  now: Date,
  copied: string[],
  alsoWrite: NamedItem | undefined,
): Promise<'stored' | 'duplicate'> {
  for (let attempt = 1; ; attempt += 1) {
    const aggregate = await getAppointmentAggregate(appointmentId);
    if (!aggregate) throw new ReportRejected(`unknown appointment ${appointmentId}`);
    const { status } = aggregate.appointment;
    if (status === 'scheduled' || status === 'cancelled') {
      throw new ReportRejected(`appointment ${appointmentId} is ${status}: no sample was drawn`);
    }
    const prepared = await prepare(detail, aggregate, now, copied);
    const changes = alsoWrite ? { ...prepared, items: [...(prepared.items ?? []), alsoWrite] } : prepared;
    try {
      // At most 60 + 20 results, 2 × 5 documents, the marker, the completion (state, history), one outbox
      // item holding every event (the status change, LabResultsUpdated, LabResultsCorrected, LabResultsAvailable)
      // and the caller's one write: ≤ 95 items.
      await commit(changes);
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      if (error.failed('marker') && (await reportStored(detail.event_id))) return 'duplicate';
      // The caller's own precondition: its to explain (a match that lost to another).
      if (alsoWrite && error.failed(alsoWrite.name)) throw error;
      if (attempt >= 3) throw error;
      continue; // a concurrent report changed the results we compared with: read again
    }
    countIngested(aggregate.appointment, changes);
    return 'stored';
  }
}
