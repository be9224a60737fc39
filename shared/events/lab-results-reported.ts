/**
 * LabResultsReported: what the lab sends back (EventBridge source `lab-partner`). The lab uploads report
 * files to the bucket's `incoming/` prefix first and lists them under `documents`. Published as
 * docs/events/lab-results-reported.schema.json for the lab's developers.
 */
import * as v from 'valibot';
import { isCalendarDate } from '../domain/calendar';
import { isZonedDateTime } from '../domain/instant';
import { INTERPRETATIONS, REJECTION_REASONS, RESULT_STATUSES, VALUE_OPERATORS } from '../domain/results';
import { BARCODE_PATTERN } from '../domain/sample';
import { INCOMING_PREFIX } from '../documents/bucket-layout';
import { ReferenceRange, storableNumber, text, Variant } from './result-shapes';

export const LAB_RESULTS_REPORTED = 'LabResultsReported';
export const LAB_PARTNER_SOURCE = 'lab-partner';

const unique = (values: unknown[]) => new Set(values).size === values.length;
const date = v.pipe(v.string(), v.isoDate(), v.check(isCalendarDate, 'must be a real date (YYYY-MM-DD)'));
const biomarkerId = v.pipe(v.number(), v.safeInteger(), v.minValue(1));
const resultStatus = v.optional(
  v.pipe(
    v.picklist(RESULT_STATUSES),
    v.description(
      'preliminary: may still change; final (the default): the answer; corrected: replaces a final answer. A preliminary value never replaces a final one.',
    ),
  ),
  'final',
);

export const ClinicalResult = v.strictObject({
  biomarker_id: biomarkerId,
  value: storableNumber,
  value_operator: v.pipe(v.picklist(VALUE_OPERATORS), v.description('eq: the value as measured; lt/le/gt/ge: below/above a detection limit.')),
  unit_id: v.nullable(v.pipe(v.number(), v.safeInteger())),
  unit: v.nullable(text(32)),
  reference_range_lab: v.nullable(ReferenceRange),
  tested_at: date,
  comment: v.optional(v.nullable(text(2000)), null),
  result_status: resultStatus,
  interpretation: v.optional(
    v.pipe(
      v.nullable(v.picklist(INTERPRETATIONS)),
      v.description("the lab's flag; absent or null: derived from the catalog's critical limits and the lab's range"),
    ),
    null,
  ),
});

export const GeneticResult = v.strictObject({
  biomarker_id: biomarkerId,
  gene: text(64),
  genotype: text(64),
  clinical_significance: text(100),
  risk_description: text(2000),
  tested_at: date,
  comment: v.optional(v.nullable(text(2000)), null),
  variants: v.array(Variant),
  result_status: resultStatus,
});

/** A key the lab uploaded: the upload prefix, then 1–900 characters S3 keys allow without escaping. */
const INCOMING_KEY = new RegExp(`^${INCOMING_PREFIX}[A-Za-z0-9!_.*'()/-]{1,900}$`);

export const ReportedDocument = v.strictObject({
  s3_key: v.pipe(v.string(), v.regex(INCOMING_KEY, `must be a key under ${INCOMING_PREFIX}`)),
  file_name: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  content_type: v.picklist(['application/pdf']),
});

/**
 * Who the lab believes the sample is from, as its system holds the person: read ONLY when the report's barcode
 * matches no drawn order, kept on that unmatched result for the people who match it by hand (docs/hl7.md
 * "Results that match no order"), removed once it is matched or discarded. A report that finds its
 * appointment never stores it: the appointment's profile is the person.
 */
export const ReportedPatient = v.pipe(
  v.strictObject({
    name: v.optional(v.nullable(text(200)), null),
    date_of_birth: v.optional(v.nullable(date), null),
  }),
  v.description(
    "The person as the lab's system names them (HL7 PID-5 and PID-7). Kept only while the barcode matches no drawn order; never stored with results.",
  ),
);

/** A report's bounds: one report is one DynamoDB transaction (at most 100 items), stored entirely or not at all. */
export const MAX_CLINICAL_RESULTS_PER_REPORT = 60;
export const MAX_GENETIC_RESULTS_PER_REPORT = 20;

export const LabResultsReportedDetail = v.pipe(
  v.strictObject({
    event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per report; a report sent twice is stored once.')),
    appointment_id: v.optional(v.pipe(v.string(), v.uuid())),
    barcode: v.optional(v.pipe(v.string(), v.regex(BARCODE_PATTERN))),
    // An instant with its zone (Z or ±HH:MM), as the API takes them: it is compared with our clock and other reports.
    reported_at: v.pipe(v.string(), v.isoTimestamp(), v.check(isZonedDateTime, 'must be an ISO 8601 date and time with its zone (Z or ±HH:MM)')),
    clinical_results: v.optional(v.pipe(v.array(ClinicalResult), v.maxLength(MAX_CLINICAL_RESULTS_PER_REPORT)), []),
    genetic_results: v.optional(v.pipe(v.array(GeneticResult), v.maxLength(MAX_GENETIC_RESULTS_PER_REPORT)), []),
    documents: v.optional(v.pipe(v.array(ReportedDocument), v.maxLength(5)), []),
    patient: v.optional(ReportedPatient),
    rejection: v.optional(
      v.pipe(
        v.strictObject({
          reason_code: v.picklist(REJECTION_REASONS),
          comment: v.optional(v.nullable(text(2000)), null),
          biomarker_ids: v.optional(v.pipe(v.array(biomarkerId), v.minLength(1), v.maxLength(60))),
        }),
        v.description(
          'The specimen could not be tested: the named tests (all planned ones without a final result when absent) become not_performed ' +
            'with the reason; the person must be drawn again.',
        ),
      ),
    ),
  }),
  v.check((detail) => Boolean(detail.appointment_id ?? detail.barcode), 'must name the appointment_id or the barcode'),
  // One result per biomarker and report: a transaction cannot write one item twice.
  v.check((detail) => unique(detail.clinical_results.map((r) => r.biomarker_id)), 'must list each clinical biomarker once'),
  v.check((detail) => unique(detail.genetic_results.map((r) => r.biomarker_id)), 'must list each genetic biomarker once'),
  v.check((detail) => unique(detail.documents.map((d) => d.s3_key)), 'must list each document once'),
);
export type LabResultsReportedDetail = v.InferOutput<typeof LabResultsReportedDetail>;

/**
 * Why a report does not match the schema, safe to log: paths, expected types and our own rule texts only
 * (the received values are patient results), at most 10. `root` names the report where a path is empty.
 */
export function reportIssues(issues: readonly v.BaseIssue<unknown>[], root: string): string {
  return issues
    .slice(0, 10)
    .map((issue) => {
      // A field we do not know is named by the lab, and a name can be anything: say where, never what.
      if (issue.type === 'strict_object') {
        const parent = issue.path && v.getDotPath({ ...issue, path: issue.path.slice(0, -1) as typeof issue.path });
        return `${parent || root}: a field the schema does not have`;
      }
      return `${v.getDotPath(issue) ?? root}: ${issue.type === 'check' ? issue.message : `expected ${issue.expected ?? 'a valid value'}`}`;
    })
    .join('; ');
}
