/**
 * Results: what was planned for an appointment against what the lab reported, as
 * GET /api/v1/appointments/{id}/results shows them. Planned = the panels' biomarkers plus the
 * individual ones; a planned clinical biomarker without a result is listed as `planned` with its value
 * fields null.
 */
/**
 * Whether a number can be stored as sent: finite, and 0 or of a magnitude from 1E-130 (DynamoDB's smallest)
 * to 2^53 − 1. DynamoDB itself holds up to 1E+125, but its document client refuses to write a number above
 * Number.MAX_SAFE_INTEGER (and would read one back as a BigInt): the bound is what our table takes and gives
 * back as the same number. JSON's `1e309` parses to Infinity and a 100,000-digit HL7 value to Infinity or
 * far beyond: refused where they arrive, naming the field, never thrown by the write. Lab values are far
 * inside (a count per litre is ~1E+12).
 */
export const isStorableNumber = (value: number) =>
  value === 0 || (Number.isFinite(value) && Math.abs(value) >= 1e-130 && Math.abs(value) <= Number.MAX_SAFE_INTEGER);
export const STORABLE_RANGE = 'a finite number of magnitude 1E-130 to 9007199254740991 (2^53 - 1), or 0';
export const STORABLE_NUMBER = `must be ${STORABLE_RANGE}`;

/** eq: the value as measured; lt/le/gt/ge: below/above a detection limit. */
export const VALUE_OPERATORS = ['eq', 'lt', 'le', 'gt', 'ge'] as const;
export type ValueOperator = (typeof VALUE_OPERATORS)[number];

export interface ReportOrder {
  tested_at: string;
  reported_at: string;
}

/**
 * How final a reported value is (issue #29): `preliminary` values may still change, `final` ones are the
 * lab's answer, `corrected` ones replace a final answer. A result stored before statuses existed is final.
 */
export const RESULT_STATUSES = ['preliminary', 'final', 'corrected'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** A clinical value against its ranges: the lab's flag when it sends one, else derived (interpretationOf). */
export const INTERPRETATIONS = ['normal', 'low', 'high', 'critical_low', 'critical_high', 'abnormal'] as const;
export type Interpretation = (typeof INTERPRETATIONS)[number];

export const isCritical = (interpretation: Interpretation | null | undefined) => interpretation === 'critical_low' || interpretation === 'critical_high';

/**
 * What the critical results check logs every run (functions/events/critical-results-check.ts), with `count`:
 * appointments whose critical values waited longer than the stage allows. The prod alarm counts it.
 */
export const CRITICAL_UNACKNOWLEDGED_LOG = 'critical results unacknowledged';
/**
 * What the same check logs every run of the lab reports that matched no order (issue #51), with `count`: those
 * that waited longer than the stage allows to be matched or discarded. The alarm of stages with alarms counts it.
 */
export const UNMATCHED_WAITING_LOG = 'unmatched results waiting';

/** A result as stored, as far as replacing it is concerned. */
export interface StoredVersion extends ReportOrder {
  result_status?: ResultStatus;
}

/**
 * Why an incoming result cannot replace the stored one, or null when it does (issue #48). Status first, and
 * only against a preliminary value: a preliminary value never replaces a final or corrected one, and a final
 * or corrected one always replaces a preliminary one. Otherwise — two preliminary values, or two of the lab's
 * answers (final, corrected) — the later one stands (supersedes()): a correction replaces the final value
 * it corrects, and a final or correction reported after a correction replaces it too. So which of two
 * reports stands never depends on the order they arrive in, only on their statuses and times. The caller
 * refuses the whole report with the reason: a value that does not become current is never answered "stored".
 */
export function replacementRefusal(incoming: ReportOrder & { result_status: ResultStatus }, existing: StoredVersion | undefined): string | null {
  if (!existing) return null;
  const stored = existing.result_status ?? 'final';
  if (incoming.result_status === 'preliminary' && stored !== 'preliminary') return `a preliminary value never replaces a ${stored} one`;
  if (incoming.result_status !== 'preliminary' && stored === 'preliminary') return null;
  return supersedes(incoming, existing) ? null : `it is older than the ${stored} value stored (tested earlier, or reported earlier the same day)`;
}

/**
 * Why the lab could not test a specimen (issue #29): the reason codes of a rejection, as the lab's
 * pre-analytics name them.
 */
export const REJECTION_REASONS = ['haemolysed', 'clotted', 'insufficient_volume', 'wrong_container', 'unlabelled', 'too_old', 'contaminated', 'other'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** A test the lab did not perform, and why: what a not_performed item shows. */
export interface RejectedTest {
  biomarker_id: number;
  reason_code: RejectionReason;
  comment: string | null;
}

/** The reason a not_performed item's comment gives: the lab's words, else the code in plain words. */
export const rejectionText = (rejected: RejectedTest) => rejected.comment ?? `Specimen rejected: ${rejected.reason_code.replaceAll('_', ' ')}`;

/**
 * The status of a report as a whole, which its PDF carries (issue #48): `corrected` when it corrects any
 * value, else `preliminary` when any of its values may still change, else `final` (a rejection alone too).
 */
export function reportResultStatus(results: readonly { result_status: ResultStatus }[]): ResultStatus {
  if (results.some((result) => result.result_status === 'corrected')) return 'corrected';
  return results.some((result) => result.result_status === 'preliminary') ? 'preliminary' : 'final';
}

/** What a document of an appointment is: today only the lab's report (requisitions will join it). */
export const DOCUMENT_KINDS = ['lab_report'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** A result that counts as done: the lab's final (or corrected) answer. */
export const isFinal = (result: { result_status?: ResultStatus }) => (result.result_status ?? 'final') !== 'preliminary';

/** Critical limits of a biomarker (the catalog's): beyond them a value needs a clinician at once. */
export interface CriticalLimits {
  critical_low?: number | null;
  critical_high?: number | null;
}

/**
 * A value's interpretation when the lab sends no flag: beyond a critical limit first, then against the
 * lab's normal range; null when there is nothing to compare with.
 */
export function interpretationOf(
  value: number,
  range: { normal_min: number | null; normal_max: number | null } | null,
  limits: CriticalLimits | undefined,
): Interpretation | null {
  if (limits?.critical_low != null && value < limits.critical_low) return 'critical_low';
  if (limits?.critical_high != null && value > limits.critical_high) return 'critical_high';
  const flag = rangeFlag(value, range);
  if (flag === 'H') return 'high';
  if (flag === 'L') return 'low';
  if (flag === 'N') return 'normal';
  return null;
}

/**
 * A later report replaces an earlier one only when it is not older — tested later, or tested the same day
 * and reported at the same time or later — so a delayed, out-of-order report never overwrites a newer one.
 */
export function supersedes(incoming: ReportOrder, existing: ReportOrder | undefined): boolean {
  if (!existing) return true;
  if (incoming.tested_at !== existing.tested_at) return incoming.tested_at > existing.tested_at;
  // As instants, not as text: `10:30:00-05:00` is after `11:00:00Z`, and an HL7 time (`….000Z`) and a JSON one
  // (`…Z`) of the same second are equal. A stored time Date.parse cannot read compares as text, as it was.
  const [at, before] = [Date.parse(incoming.reported_at), Date.parse(existing.reported_at)];
  return Number.isNaN(at) || Number.isNaN(before) ? incoming.reported_at >= existing.reported_at : at >= before;
}

/** Planned biomarkers that have no result yet. */
export function missingResults(planned: number[], received: Iterable<number>): number[] {
  const have = new Set(received);
  return planned.filter((id) => !have.has(id));
}

interface Range {
  normal_min: number | null;
  normal_max: number | null;
  optimal_min: number | null;
  optimal_max: number | null;
}

/** A reference range in the spec's field order (a stored map keeps none). */
export function orderedRange(range: Range | null | undefined): Range | null {
  if (!range) return null;
  const { normal_min, normal_max, optimal_min, optimal_max } = range;
  return { normal_min, normal_max, optimal_min, optimal_max };
}

interface CatalogBiomarker extends CriticalLimits {
  id: number;
  name: string;
  category: string;
  kind: 'clinical' | 'genetic';
  gene?: string;
  reference_range_service: Range | null;
}

interface StoredClinical {
  biomarker_id: number;
  value: number;
  value_operator: ValueOperator;
  unit_id: number | null;
  unit: string | null;
  reference_range_lab: Range | null;
  tested_at: string;
  comment: string | null;
  result_status?: ResultStatus;
  /** As stored at ingest (the lab's flag or derived then); absent on results stored before interpretations. */
  interpretation?: Interpretation | null;
}

/** A stored result's interpretation: as stored at ingest, or derived now for one stored before interpretations. */
export const interpretationOfStored = (result: StoredClinical, biomarker: CriticalLimits | undefined) =>
  result.interpretation !== undefined ? result.interpretation : interpretationOf(result.value, result.reference_range_lab, biomarker);

/** One item per planned clinical biomarker (received or planned), then received ones that were not planned. */
export function clinicalResultItems(
  planned: number[],
  catalog: ReadonlyMap<number, CatalogBiomarker>,
  received: ReadonlyMap<number, StoredClinical>,
  rejected: ReadonlyMap<number, RejectedTest> = new Map(),
) {
  const plannedClinical = planned.filter((id) => catalog.get(id)?.kind !== 'genetic');
  const unplanned = [...received.keys()].filter((id) => !planned.includes(id)).sort((a, b) => a - b);
  return [...plannedClinical, ...unplanned].map((id) => {
    const biomarker = catalog.get(id);
    const result = received.get(id);
    const described = {
      biomarker_id: id,
      biomarker_name: biomarker?.name ?? `Biomarker ${id}`,
      category: biomarker?.category ?? 'Other',
    };
    if (!result) {
      const rejection = rejected.get(id);
      const empty = {
        result_status: null,
        ...described,
        value: null,
        value_operator: null,
        unit_id: null,
        unit: null,
        reference_range_lab: null,
        reference_range_service: orderedRange(biomarker?.reference_range_service),
        interpretation: null,
        tested_at: null,
      };
      return rejection
        ? { status: 'not_performed' as const, ...empty, comment: rejectionText(rejection) }
        : { status: 'planned' as const, ...empty, comment: null };
    }
    return {
      status: 'received' as const,
      result_status: result.result_status ?? 'final',
      ...described,
      value: result.value,
      value_operator: result.value_operator,
      unit_id: result.unit_id,
      unit: result.unit,
      reference_range_lab: orderedRange(result.reference_range_lab),
      reference_range_service: orderedRange(biomarker?.reference_range_service),
      interpretation: interpretationOfStored(result, biomarker),
      tested_at: result.tested_at,
      comment: result.comment ?? null,
    };
  });
}

/**
 * One item per planned genetic biomarker — the received result, or `planned` with its gene and every
 * other field null — then received genetic results that were not planned.
 */
export function geneticResultItems<R extends { biomarker_id: number }>(
  planned: number[],
  catalog: ReadonlyMap<number, CatalogBiomarker>,
  received: ReadonlyMap<number, R>,
  rejected: ReadonlyMap<number, RejectedTest> = new Map(),
) {
  const plannedGenetic = planned.filter((id) => catalog.get(id)?.kind === 'genetic');
  const unplanned = [...received.keys()].filter((id) => !plannedGenetic.includes(id)).sort((a, b) => a - b);
  return [...plannedGenetic, ...unplanned].map((id) => {
    const result = received.get(id);
    if (result) return { status: 'received' as const, result };
    const biomarker = catalog.get(id);
    const rejection = rejected.get(id);
    const empty = {
      result_status: null,
      biomarker_id: id,
      gene: biomarker?.gene ?? biomarker?.name ?? `Biomarker ${id}`,
      genotype: null,
      clinical_significance: null,
      risk_description: null,
      tested_at: null,
    };
    return rejection
      ? { status: 'not_performed' as const, ...empty, comment: rejectionText(rejection), variants: null }
      : { status: 'planned' as const, ...empty, comment: null, variants: null };
  });
}

/** H above the lab's normal range, L below it, N inside; undefined when there is no bound to compare with. */
export function rangeFlag(value: number, range: { normal_min: number | null; normal_max: number | null } | null): 'H' | 'L' | 'N' | undefined {
  if (!range || (range.normal_min === null && range.normal_max === null)) return undefined;
  if (range.normal_max !== null && value > range.normal_max) return 'H';
  if (range.normal_min !== null && value < range.normal_min) return 'L';
  return 'N';
}

/**
 * The results are `completed` once the appointment is and every planned test, clinical and genetic, has
 * its final answer (`done`: the biomarkers with a final or corrected result; a preliminary one is pending).
 */
export function resultsStatus(appointmentStatus: string, planned: number[], done: Iterable<number>): 'completed' | 'in_progress' {
  return appointmentStatus === 'completed' && missingResults(planned, done).length === 0 ? 'completed' : 'in_progress';
}
