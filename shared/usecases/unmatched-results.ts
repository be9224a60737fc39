/**
 * The service's lab-operations staff at work on the lab reports that matched no drawn order (issue #51,
 * docs/hl7.md "Results that match no order"): the waiting ones listed, one matched to its appointment (the
 * ingest's every rule, events and webhooks included, as if its barcode had matched), or discarded.
 *
 * An unmatched result belongs to no tenant: any key with LAB_RESULTS_MATCH lists and discards them (the keys
 * CLI issues the scope only on a key holding every profile group); a match names an appointment, which must be
 * in the key's access context as on every route.
 *
 * Matching or discarding again is safe: the same match answers the matched result again (a retry whose answer
 * was lost), as does a second discard; a match to another appointment, a discarded one matched or a matched
 * one discarded is a 409.
 */
import { type AccessContext, assertProfileResourceAccess } from '../auth/access';
import { isFinal } from '../domain/results';
import { Conflict, NotFound } from '../errors';
import { getAppointmentAggregate } from '../store/appointments/reads';
import { APPOINTMENT_NOT_FOUND, type AppointmentAggregate } from '../store/appointments/records';
import { loadCatalog, plannedBiomarkers } from '../store/catalog';
import { reportStored } from '../store/lab-reports';
import type { Page, PageRequest } from '../store/pages';
import { TransactionCancelled } from '../store/transactions';
import { deleteUnmatchedFiles } from './keep-unmatched-result';
import {
  type Closing,
  closeUnmatchedResult,
  closeUnmatchedUpdate,
  getUnmatchedResult,
  pageWaitingUnmatchedResults,
  type UnmatchedResultRecord,
} from '../store/unmatched-results';
import { ingestLabReport, ReportRejected } from './ingest-lab-report';
import type { Caller } from './request';

export const UNMATCHED_RESULT_NOT_FOUND = 'Unmatched result not found (or deleted 90 days after it arrived)';

/** The waiting ones, newest first; each shown with the patient the lab named, so each is a read of its own. */
export async function listUnmatchedResults(access: AccessContext, page: PageRequest, now: Date): Promise<Page<UnmatchedResultRecord>> {
  const found = await pageWaitingUnmatchedResults(page, now);
  for (const record of found.items) access.audit?.readUnmatched(record.id, `unmatched result ${record.id}`);
  return found;
}

async function unmatchedOrThrow(id: string, now: Date): Promise<UnmatchedResultRecord> {
  const record = await getUnmatchedResult(id, now);
  if (!record) throw new NotFound(UNMATCHED_RESULT_NOT_FOUND);
  return record;
}

/** What a waiting one is once closed: the patient, the report and its files no longer kept. */
function closed(record: UnmatchedResultRecord, closing: Closing, at: string, keyId: string): UnmatchedResultRecord {
  const { patient: _patient, report: _report, ...kept } = record;
  return { ...kept, ...closing, closed_at: at, closed_by: keyId };
}

/** A closed one asked to close again: the same closing answers it as it is; any other is a conflict. */
function alreadyClosed(record: UnmatchedResultRecord, wanted: Closing): UnmatchedResultRecord {
  if (record.status === 'matched') {
    if (wanted.status === 'matched' && record.appointment_id === wanted.appointment_id) return record;
    throw new Conflict(`the unmatched result was matched to ${wanted.status === 'matched' ? 'another' : 'an'} appointment at ${record.closed_at}`);
  }
  if (wanted.status === 'discarded') return record;
  throw new Conflict(`the unmatched result was discarded at ${record.closed_at}`);
}

/**
 * Why the report cannot be this appointment's, before the ingest is asked: no sample drawn, the report
 * stored already, a final value the report would replace (a match never overwrites a final result: the lab
 * corrects one with a corrected result), or no test the appointment planned (not its tube).
 */
async function refusal(record: UnmatchedResultRecord, aggregate: AppointmentAggregate): Promise<string | undefined> {
  const { appointment } = aggregate;
  if (appointment.status === 'scheduled' || appointment.status === 'cancelled') return `appointment is ${appointment.status}: no sample was drawn`;
  const report = record.report!;
  if (await reportStored(report.event_id)) return 'the results of this report are stored already';
  const reported = [...report.clinical_results, ...report.genetic_results].map((result) => result.biomarker_id);
  const held = [...aggregate.clinicalResults, ...aggregate.geneticResults].filter((stored) => reported.includes(stored.biomarker_id) && isFinal(stored));
  if (held.length > 0) {
    const ids = held.map((stored) => stored.biomarker_id).sort((a, b) => a - b);
    return `the appointment already holds final results for biomarker(s) ${ids.join(', ')}`;
  }
  const tests = [...reported, ...(report.rejection?.biomarker_ids ?? [])];
  const planned = plannedBiomarkers(aggregate, await loadCatalog());
  if (tests.length > 0 && !tests.some((id) => planned.includes(id))) return 'the appointment planned none of the tests of the report: not its sample';
  return undefined;
}

/** Applies a waiting one to a drawn appointment of the key's context, and closes it in the same transaction. */
export async function matchUnmatchedResult(id: string, appointmentId: string, { access, now }: Caller): Promise<UnmatchedResultRecord> {
  const [record, aggregate] = await Promise.all([unmatchedOrThrow(id, now), getAppointmentAggregate(appointmentId)]);
  if (!aggregate) throw new NotFound(APPOINTMENT_NOT_FOUND);
  assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
  const closing: Closing = { status: 'matched', appointment_id: appointmentId };
  // The results are this person's now: the answer is recorded in their profile's access log.
  const shown = (answer: UnmatchedResultRecord) => {
    access.audit?.read(aggregate.appointment.profile_id, `unmatched result ${id}`);
    return answer;
  };
  if (record.status !== 'waiting') return shown(alreadyClosed(record, closing));
  const why = await refusal(record, aggregate);
  if (why) throw new Conflict(why);

  const at = now.toISOString();
  const { barcode: _wrongTube, ...report } = record.report!;
  let outcome: string;
  try {
    outcome = await ingestLabReport({ ...report, appointment_id: appointmentId }, now, {
      alsoWrite: closeUnmatchedUpdate(id, closing, { at, keyId: access.keyId }),
    });
  } catch (error) {
    if (error instanceof ReportRejected) throw new Conflict(`the ingest refuses the report for this appointment: ${error.message}`);
    // Another request matched or discarded it meanwhile: decide on what it did.
    if (error instanceof TransactionCancelled && error.failed('unmatched')) return shown(alreadyClosed(await unmatchedOrThrow(id, now), closing));
    throw error;
  }
  // A concurrent match of the same report stored it first: it closed the unmatched result too.
  if (outcome === 'duplicate') return shown(alreadyClosed(await unmatchedOrThrow(id, now), closing));
  return shown(closed(record, closing, at, access.keyId));
}

/** Closes a waiting one that belongs to no appointment; its files are deleted, its patient and report removed. */
export async function discardUnmatchedResult(id: string, reason: string, { access, now }: Caller): Promise<UnmatchedResultRecord> {
  const record = await unmatchedOrThrow(id, now);
  const closing: Closing = { status: 'discarded', discard_reason: reason };
  if (record.status !== 'waiting') return alreadyClosed(record, closing);
  const at = now.toISOString();
  if (!(await closeUnmatchedResult(id, closing, { at, keyId: access.keyId }))) return alreadyClosed(await unmatchedOrThrow(id, now), closing);
  await deleteUnmatchedFiles(record);
  return closed(record, closing, at, access.keyId);
}
