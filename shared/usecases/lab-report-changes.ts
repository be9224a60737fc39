/**
 * What a lab report changes (shared/usecases/ingest-lab-report.ts stores it): the results that replace the
 * stored ones, its documents, the tests a rejected specimen leaves not performed, the critical values, the
 * completion when the last planned result came, and the events announcing each, as one transaction's Changes.
 */
import { LAB } from '../domain/lifecycle';
import { interpretationOf, isCritical, isFinal, missingResults, replacementRefusal, type ResultStatus, type StoredVersion } from '../domain/results';
import { criticalResultReported } from '../events/critical-result-reported';
import { specimenRejected } from '../events/specimen-rejected';
import { labResultsAvailable } from '../events/lab-results-available';
import { labResultsCorrected, labResultsUpdated } from '../events/lab-results-updated';
import type { LabResultsReportedDetail } from '../events/lab-results-reported';
import { type AppointmentAggregate, appointmentLifecycle } from '../store/appointments/records';
import { appointmentUpdate } from '../store/appointments/writes';
import { loadCatalog, plannedBiomarkers } from '../store/catalog';
import { type ItemKey } from '../store/keys';
import * as keys from '../store/keys/items';
import {
  type ClinicalResultRecord,
  type GeneticResultRecord,
  rejectionPut,
  reportMarkerPut,
  resultPut,
  type SupersededVersion,
  supersededBy,
} from '../store/lab-reports';
import { MAX_TRANSACTION_ITEMS, type NamedItem } from '../store/transactions';
import type { Changes } from '../store/transitions';
import { ReportRejected } from './report-rejected';
import { criticalFields } from './lab-report-critical';
import { fileDocuments } from './lab-report-files';

/** A result a report wrote: its biomarker, its status now, and whether it corrected a final value. */
interface Written {
  biomarker_id: number;
  result_status: ResultStatus;
  corrects: boolean;
}

/**
 * The Puts of the reported results, each replacing what is stored and keeping the versions it replaces
 * (supersededBy), and `stored` updated to match; `written` gains each. A result that cannot replace the
 * stored one (shared/domain/results.ts replacementRefusal(): a preliminary value over a final one, a
 * report older than the stored one) refuses the whole report: stored whole or not at all, never answered
 * "stored" with a value left out.
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
    const refusal = replacementRefusal(incoming, existing);
    if (refusal) throw new ReportRejected(`biomarker ${result.biomarker_id}: ${refusal}`);
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
export async function prepare(detail: LabResultsReportedDetail, aggregate: AppointmentAggregate, now: Date, copied: string[]): Promise<Changes> {
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

  items.push(...(await fileDocuments(detail, appointment, at, copied)));
  items.push(reportMarkerPut(detail.event_id, appointment.id, now));

  // Done: the tests with their final (or corrected) answer; a preliminary one is still pending.
  const received = [...clinical.entries(), ...genetic.entries()].filter(([, version]) => isFinal(version)).map(([id]) => id);
  const planned = plannedBiomarkers(aggregate, catalog);
  // A rejected specimen: its tests without a final value are not performed (a final value stands).
  const rejected = detail.rejection ? rejectedTests(detail.rejection, planned, received) : [];
  if (detail.rejection && rejected.length === 0) throw new ReportRejected('the rejection names no test without a final value: nothing to reject');
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
      // Only when a test has a value to read: a draw whose every test was rejected is announced by
      // SpecimenRejected and the completion's status change, never as results a patient could be told of.
      ...(completes && received.length > 0 ? [labResultsAvailable(appointment, at)] : []),
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
