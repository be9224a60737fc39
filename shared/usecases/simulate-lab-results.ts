/**
 * POST /sandbox/appointments/{id}/results (docs/sandbox.md "Simulated results"): the lab's answer to a
 * sandbox appointment, without a lab. The reports of the outcome (shared/domain/simulated-report.ts) are
 * checked against the lab's own report schema and stored by the lab's ingest (ingest-lab-report.ts), one
 * after the other, in the sandbox realm: the same results, statuses, events and webhooks a lab report makes.
 * Only a sandbox key may ask (403 for a live one), so no simulated value ever lands on a real person.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { assertProfileResourceAccess, assertSandboxKey } from '../auth/access';
import { isFinal } from '../domain/results';
import { NothingToSimulate, type PlannedTest, type SimulatedOutcome, type SimulatedReport, simulatedReports } from '../domain/simulated-report';
import { Conflict } from '../errors';
import { LabResultsReportedDetail, MAX_CLINICAL_RESULTS_PER_REPORT, MAX_GENETIC_RESULTS_PER_REPORT, reportIssues } from '../events/lab-results-reported';
import { getAppointmentAggregateOrThrow } from '../store/appointments/reads';
import { loadCatalog, plannedBiomarkers } from '../store/catalog';
import { ingestLabReport, ReportRejected } from './ingest-lab-report';
import { type AppointmentResults, readResults } from './read-results';
import type { Caller } from './request';

/** A report of more results than one report may hold, as several a lab would send (each one transaction). */
function inReportBounds(report: SimulatedReport): SimulatedReport[] {
  const clinical = report.clinical_results ?? [];
  const genetic = report.genetic_results ?? [];
  const parts = Math.max(1, Math.ceil(clinical.length / MAX_CLINICAL_RESULTS_PER_REPORT), Math.ceil(genetic.length / MAX_GENETIC_RESULTS_PER_REPORT));
  if (parts === 1) return [report];
  return Array.from({ length: parts }, (_, part) => ({
    clinical_results: clinical.slice(part * MAX_CLINICAL_RESULTS_PER_REPORT, (part + 1) * MAX_CLINICAL_RESULTS_PER_REPORT),
    genetic_results: genetic.slice(part * MAX_GENETIC_RESULTS_PER_REPORT, (part + 1) * MAX_GENETIC_RESULTS_PER_REPORT),
  }));
}

export async function simulateLabResults(id: string, outcome: SimulatedOutcome, { access, now }: Caller): Promise<AppointmentResults> {
  assertSandboxKey(access, 'simulate the lab');
  const [aggregate, catalog] = await Promise.all([getAppointmentAggregateOrThrow(id), loadCatalog()]);
  const { appointment } = aggregate;
  assertProfileResourceAccess(access, appointment, 'appointment');
  if (appointment.status === 'scheduled' || appointment.status === 'cancelled') {
    throw new Conflict(`The appointment is ${appointment.status}: confirm the blood draw first (POST /appointments/{id}/confirm)`);
  }
  const planned = plannedBiomarkers(aggregate, catalog).flatMap((biomarkerId): PlannedTest[] => {
    const biomarker = catalog.biomarkers.get(biomarkerId);
    return biomarker ? [biomarker] : [];
  });
  let reports;
  try {
    reports = simulatedReports(outcome, planned, aggregate.clinicalResults.filter(isFinal), now.toISOString().slice(0, 10));
  } catch (error) {
    if (error instanceof NothingToSimulate) throw new Conflict(error.message);
    throw error;
  }
  for (const [i, report] of reports.flatMap(inReportBounds).entries()) {
    // One millisecond apart: a correction is ordered after the report it corrects.
    const reportedAt = new Date(now.getTime() + i).toISOString();
    const parsed = v.safeParse(LabResultsReportedDetail, { event_id: randomUUID(), appointment_id: id, reported_at: reportedAt, ...report });
    // The builder's output failing the lab's schema is our bug, never the client's input.
    if (!parsed.success) throw new Error(`simulated report invalid: ${reportIssues(parsed.issues, 'report')}`);
    try {
      await ingestLabReport(parsed.output, now);
    } catch (error) {
      if (error instanceof ReportRejected) throw new Conflict(`The lab would refuse this report: ${error.message}`);
      throw error;
    }
  }
  return readResults(id, access);
}
