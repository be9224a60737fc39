/** A lab report that matched no drawn order (issue #51), as the lab-operations routes answer it. */
import * as v from 'valibot';
import { UNMATCHED_STATUSES } from '../domain/unmatched-results';
import type { UnmatchedResultRecord } from '../store/unmatched-results';
import { date, instant, uuid } from './fields';

export const UnmatchedResult = v.object({
  id: uuid,
  received_at: v.pipe(instant, v.description('when the ingest kept it; it is deleted 90 days later')),
  barcode: v.pipe(v.string(), v.description('the barcode the lab sent (HL7 OBR-2/ORC-2), which no drawn order holds')),
  patient: v.pipe(
    v.nullable(
      v.object({
        name: v.pipe(v.nullable(v.string()), v.description("as the lab sent it: HL7 PID-5 (family name, then given names), or the JSON report's patient.name")),
        date_of_birth: v.pipe(v.nullable(date), v.description("HL7 PID-7, or the JSON report's patient.date_of_birth; null when absent or no real date")),
      }),
    ),
    v.description('whom the lab believes the sample is from; null when it named nobody, and once the result is matched or discarded (removed then)'),
  ),
  biomarkers: v.pipe(
    v.array(
      v.object({
        code: v.pipe(v.string(), v.description('the LOINC code of the test, or our biomarker id where the catalog has no LOINC code')),
        name: v.string(),
      }),
    ),
    v.description('the tests the report carries: its results, and the tests a specimen rejection names'),
  ),
  source: v.pipe(v.picklist(['hl7', 'json']), v.description('an HL7 v2 ORU^R01 message, or a LabResultsReported JSON event')),
  status: v.pipe(v.picklist(UNMATCHED_STATUSES), v.description("waiting (listed); matched (its results are the appointment's now); discarded")),
  appointment_id: v.pipe(v.nullable(uuid), v.description('matched: the appointment that holds its results; null otherwise')),
  closed_at: v.pipe(v.nullable(instant), v.description('when it was matched or discarded; null while it waits')),
  discard_reason: v.pipe(v.nullable(v.string()), v.description('discarded: why; null otherwise')),
});
export type UnmatchedResult = v.InferOutput<typeof UnmatchedResult>;

export const toUnmatchedResult = (record: UnmatchedResultRecord): UnmatchedResult => ({
  id: record.id,
  received_at: record.received_at,
  barcode: record.barcode,
  patient: record.patient ? { name: record.patient.name, date_of_birth: record.patient.date_of_birth } : null,
  biomarkers: record.biomarkers.map(({ code, name }) => ({ code, name })),
  source: record.source,
  status: record.status,
  appointment_id: record.appointment_id ?? null,
  closed_at: record.closed_at ?? null,
  discard_reason: record.discard_reason ?? null,
});
