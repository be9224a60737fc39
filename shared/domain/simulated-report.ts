/**
 * The lab's answers a sandbox key can ask for (docs/sandbox.md "Simulated results"), as the reports the lab
 * would send: POST /sandbox/appointments/{id}/results hands each one to the same ingest as the lab's own.
 * Pure and deterministic, so that a partner's test sees the same values every time:
 *
 * - normal:    every planned test, final, in the middle of its normal range (genetic: no variant found);
 * - partial:   the first half of the planned tests of each kind (rounded up), final: the results stay in progress;
 * - critical:  as normal, and the first planned clinical test beyond its critical limit (critical_high);
 * - rejected:  the specimen could not be tested (haemolysed): every planned test not performed, draw again;
 * - corrected: a correction of the first clinical value (10 % higher), after a normal report when none
 *              was final yet.
 */
import type { RejectionReason } from './results';

export const SIMULATED_OUTCOMES = ['normal', 'partial', 'critical', 'rejected', 'corrected'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

/** What the builder needs of a planned biomarker (the catalog's record). */
export interface PlannedTest {
  id: number;
  name: string;
  kind: 'clinical' | 'genetic';
  gene?: string;
  unit_id: number | null;
  unit: string | null;
  reference_range_service: { normal_min: number | null; normal_max: number | null; optimal_min: number | null; optimal_max: number | null } | null;
  critical_low?: number | null;
  critical_high?: number | null;
}

/** A clinical value already reported and final: what `corrected` corrects. */
export interface ReportedValue {
  biomarker_id: number;
  value: number;
  unit_id: number | null;
  unit: string | null;
  reference_range_lab: PlannedTest['reference_range_service'];
  tested_at: string;
}

/** One report, the fields of a LabResultsReported detail but its ids and times (the caller adds them). */
export interface SimulatedReport {
  clinical_results?: Record<string, unknown>[];
  genetic_results?: Record<string, unknown>[];
  rejection?: { reason_code: RejectionReason; comment: string };
}

export class NothingToSimulate extends Error {
  override name = 'NothingToSimulate';
}

const SIMULATED_REJECTION: RejectionReason = 'haemolysed';
const round = (value: number) => Math.round(value * 100) / 100;

/** The middle of the normal range, or near the one bound there is. */
function normalValue(range: PlannedTest['reference_range_service']): number {
  const min = range?.normal_min ?? null;
  const max = range?.normal_max ?? null;
  if (min !== null && max !== null) return round((min + max) / 2);
  if (max !== null) return round(max / 2);
  if (min !== null) return round(min * 1.5);
  return 1;
}

/** Beyond the high critical limit (or below the low one); without limits, far above the range, flagged by the lab. */
function criticalResult(test: PlannedTest): { value: number; interpretation?: 'critical_high' | 'critical_low' } {
  if (test.critical_high != null) return { value: round(test.critical_high * 1.2) };
  if (test.critical_low != null) return { value: round(test.critical_low * 0.5) };
  return { value: round((test.reference_range_service?.normal_max ?? 100) * 3), interpretation: 'critical_high' };
}

function clinicalResult(test: PlannedTest, testedAt: string, value: number) {
  return {
    biomarker_id: test.id,
    value,
    value_operator: 'eq',
    unit_id: test.unit_id,
    unit: test.unit,
    reference_range_lab: test.reference_range_service,
    tested_at: testedAt,
    comment: null,
    result_status: 'final',
  };
}

function geneticResult(test: PlannedTest, testedAt: string) {
  return {
    biomarker_id: test.id,
    gene: test.gene ?? test.name,
    genotype: 'reference/reference',
    clinical_significance: 'normal',
    risk_description: 'No variant found (a simulated sandbox result).',
    tested_at: testedAt,
    comment: null,
    variants: [],
    result_status: 'final',
  };
}

const halfOf = <T>(items: T[]) => items.slice(0, Math.ceil(items.length / 2));

/**
 * The reports that make `outcome` of an appointment planning `planned`, in the order to send them.
 * `finalValues`: the clinical values reported and final so far. Throws NothingToSimulate when the outcome
 * needs a test the appointment does not plan (critical or corrected without a clinical test).
 */
export function simulatedReports(outcome: SimulatedOutcome, planned: PlannedTest[], finalValues: ReportedValue[], testedAt: string): SimulatedReport[] {
  const clinical = planned.filter((test) => test.kind === 'clinical');
  const genetic = planned.filter((test) => test.kind === 'genetic');
  const normal = (tests: { clinical: PlannedTest[]; genetic: PlannedTest[] }): SimulatedReport => ({
    clinical_results: tests.clinical.map((test) => clinicalResult(test, testedAt, normalValue(test.reference_range_service))),
    genetic_results: tests.genetic.map((test) => geneticResult(test, testedAt)),
  });
  switch (outcome) {
    case 'normal':
      return [normal({ clinical, genetic })];
    case 'partial':
      return [normal({ clinical: halfOf(clinical), genetic: halfOf(genetic) })];
    case 'critical': {
      const [first, ...others] = clinical;
      if (!first) throw new NothingToSimulate('The appointment plans no clinical test that could be critical');
      const critical = criticalResult(first);
      const report = normal({ clinical: others, genetic });
      return [{ ...report, clinical_results: [{ ...clinicalResult(first, testedAt, critical.value), ...critical }, ...(report.clinical_results ?? [])] }];
    }
    case 'rejected':
      return [{ rejection: { reason_code: SIMULATED_REJECTION, comment: 'Specimen rejected: haemolysed (a simulated sandbox result).' } }];
    case 'corrected': {
      const first = clinical[0];
      if (!first) throw new NothingToSimulate('The appointment plans no clinical test whose value could be corrected');
      const reported = finalValues.find((value) => value.biomarker_id === first.id);
      const before = reported ?? {
        ...clinicalResult(first, testedAt, normalValue(first.reference_range_service)),
        reference_range_lab: first.reference_range_service,
      };
      const correction = {
        biomarker_id: first.id,
        value: round(before.value * 1.1),
        value_operator: 'eq',
        unit_id: before.unit_id,
        unit: before.unit,
        reference_range_lab: before.reference_range_lab,
        tested_at: before.tested_at,
        comment: 'Corrected value (a simulated sandbox result).',
        result_status: 'corrected',
      };
      return [...(reported ? [] : [normal({ clinical, genetic })]), { clinical_results: [correction] }];
    }
  }
}
