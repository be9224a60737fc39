/**
 * An appointment's results as every results route reads them (the JSON results, the FHIR export, the PDF
 * report): the aggregate and the catalog in parallel, the access check (then the read is recorded in the
 * access log as the `view` the route shows), what was planned against what was received, the results status
 * and when the last report came.
 */
import type { AccessContext } from '../auth/access';
import { assertProfileResourceAccess } from '../auth/access';
import { isFinal, resultsStatus } from '../domain/results';
import type { AppointmentAggregate } from '../store/appointments/records';
import { getAppointmentAggregateOrThrow } from '../store/appointments/reads';
import { type Catalog, loadCatalog, plannedBiomarkers } from '../store/catalog';
import type { ClinicalResultRecord, GeneticResultRecord, RejectedTestRecord } from '../store/lab-reports';

export interface AppointmentResults {
  aggregate: AppointmentAggregate;
  catalog: Catalog;
  /** The biomarkers planned: the panels' and the individual ones. */
  planned: number[];
  clinical: ReadonlyMap<number, ClinicalResultRecord>;
  genetic: ReadonlyMap<number, GeneticResultRecord>;
  /** Planned tests the lab could not perform (a rejected specimen) and have no result. */
  rejected: ReadonlyMap<number, RejectedTestRecord>;
  status: 'completed' | 'in_progress';
  /** The latest report's time as a UTC instant (the lab may send any ISO 8601 form); null before any. */
  reportedAt: string | null;
}

/** How the results are shown, as the access log names the read: `appointment <id> results FHIR`. */
export type ResultsView = 'results' | 'results history' | 'results FHIR' | 'results report';

export async function readResults(id: string, access: AccessContext, view: ResultsView = 'results'): Promise<AppointmentResults> {
  const [aggregate, catalog] = await Promise.all([getAppointmentAggregateOrThrow(id), loadCatalog()]);
  assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
  access.audit?.read(aggregate.appointment.profile_id, `appointment ${id} ${view}`);
  const planned = plannedBiomarkers(aggregate, catalog);
  const clinical = new Map(aggregate.clinicalResults.map((result) => [result.biomarker_id, result]));
  const genetic = new Map(aggregate.geneticResults.map((result) => [result.biomarker_id, result]));
  const rejected = new Map(aggregate.rejectedTests.map((test) => [test.biomarker_id, test]));
  const reported = [...aggregate.clinicalResults, ...aggregate.geneticResults].map((r) => new Date(r.reported_at).toISOString()).sort();
  return {
    aggregate,
    catalog,
    planned,
    clinical,
    genetic,
    rejected,
    // Done: a final (or corrected) value, or a test the lab could not perform.
    status: resultsStatus(aggregate.appointment.status, planned, [
      ...[...aggregate.clinicalResults, ...aggregate.geneticResults].filter(isFinal).map((result) => result.biomarker_id),
      ...rejected.keys(),
    ]),
    reportedAt: reported.at(-1) ?? null,
  };
}
