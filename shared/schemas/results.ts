/** Result representations: the body of GET /api/v1/appointments/{id}/results. */
import * as v from 'valibot';
import {
  clinicalResultItems,
  DOCUMENT_KINDS,
  geneticResultItems,
  INTERPRETATIONS,
  interpretationOfStored,
  orderedRange,
  type RejectedTest,
  RESULT_STATUSES,
  VALUE_OPERATORS,
} from '../domain/results';
import { ReferenceRange, Variant } from '../events/result-shapes';
import type { Catalog } from '../store/catalog';
import type { ClinicalResultRecord, DocumentLink, GeneticResultRecord, SupersededVersion } from '../store/lab-reports';
import type { AppointmentRecord } from '../store/appointments/records';
import { date, instant, uuid } from './fields';

const biomarkerId = v.pipe(v.number(), v.integer());
const describedBiomarker = { biomarker_id: biomarkerId, biomarker_name: v.string(), category: v.string() };
const resultStatus = v.pipe(
  v.picklist(RESULT_STATUSES),
  v.description(
    "preliminary: may still change; final: the lab's answer; corrected: replaces a final answer (the value it replaced stays in the appointment's history)",
  ),
);
const interpretation = v.pipe(
  v.nullable(v.picklist(INTERPRETATIONS)),
  v.description(
    "the lab's flag when it sent one, else derived: beyond the catalog's critical limits, then against the lab's normal range; null: nothing to compare with",
  ),
);

/** A document of the appointment: which report it is, so that a client picks the newest final one without opening each. */
export const ResultsDocument = v.object({
  id: uuid,
  file_name: v.string(),
  kind: v.pipe(v.picklist(DOCUMENT_KINDS), v.description('lab_report: a report file the lab sent')),
  result_status: v.pipe(
    v.picklist(RESULT_STATUSES),
    v.description('the report as a whole: corrected when it corrects any value, else preliminary when any of its values is preliminary, else final'),
  ),
  created_at: v.pipe(instant, v.description('when the report holding it was stored')),
});
export type ResultsDocument = v.InferOutput<typeof ResultsDocument>;

/** The link as the results answer it. */
export const toResultsDocument = ({ id, file_name, kind, result_status, added_at }: DocumentLink): ResultsDocument => ({
  id,
  file_name,
  kind,
  result_status,
  created_at: added_at,
});

/** A planned clinical test the lab has not reported yet: its value fields are null. */
export const PlannedClinicalResult = v.object({
  status: v.literal('planned'),
  result_status: v.null(),
  ...describedBiomarker,
  value: v.null(),
  value_operator: v.null(),
  unit_id: v.null(),
  unit: v.null(),
  reference_range_lab: v.null(),
  reference_range_service: v.nullable(ReferenceRange),
  interpretation: v.null(),
  tested_at: v.null(),
  comment: v.null(),
});

/** A planned clinical test the lab could not perform (a rejected specimen): value fields null, the reason in comment. */
export const NotPerformedClinicalResult = v.object({
  ...PlannedClinicalResult.entries,
  status: v.literal('not_performed'),
  comment: v.pipe(v.string(), v.description("why: the lab's words, else the rejection's reason code")),
});

export const ReceivedClinicalResult = v.object({
  status: v.literal('received'),
  result_status: resultStatus,
  ...describedBiomarker,
  value: v.number(),
  value_operator: v.pipe(v.picklist(VALUE_OPERATORS), v.description('eq: the value as measured; lt/le/gt/ge: below/above a detection limit')),
  unit_id: v.nullable(biomarkerId),
  unit: v.nullable(v.string()),
  reference_range_lab: v.pipe(v.nullable(ReferenceRange), v.description("the lab's range for this sample")),
  reference_range_service: v.pipe(v.nullable(ReferenceRange), v.description("the service's own range")),
  interpretation,
  tested_at: date,
  comment: v.nullable(v.string()),
});

export const GeneticResultItem = v.object({
  status: v.literal('received'),
  result_status: resultStatus,
  biomarker_id: biomarkerId,
  gene: v.string(),
  genotype: v.string(),
  clinical_significance: v.pipe(v.string(), v.description('e.g. moderate_risk')),
  risk_description: v.string(),
  tested_at: date,
  comment: v.nullable(v.string()),
  variants: v.array(Variant),
});
export type GeneticResultItem = v.InferOutput<typeof GeneticResultItem>;

/** A planned genetic test the lab has not reported yet: its gene, every other field null. */
export const PlannedGeneticResult = v.object({
  status: v.literal('planned'),
  result_status: v.null(),
  biomarker_id: biomarkerId,
  gene: v.string(),
  genotype: v.null(),
  clinical_significance: v.null(),
  risk_description: v.null(),
  tested_at: v.null(),
  comment: v.null(),
  variants: v.null(),
});
export type PlannedGeneticResult = v.InferOutput<typeof PlannedGeneticResult>;

export const NotPerformedGeneticResult = v.object({
  ...PlannedGeneticResult.entries,
  status: v.literal('not_performed'),
  comment: v.pipe(v.string(), v.description("why: the lab's words, else the rejection's reason code")),
});

export const AppointmentResults = v.object({
  status: v.pipe(
    v.picklist(['in_progress', 'completed']),
    v.description('completed once the appointment is completed and every planned test, clinical and genetic, has its final (or corrected) result'),
  ),
  clinical_results: v.pipe(
    v.array(v.variant('status', [ReceivedClinicalResult, PlannedClinicalResult, NotPerformedClinicalResult])),
    v.description('one item per planned clinical biomarker (received or planned), then received results that were not planned'),
  ),
  genetic_results: v.pipe(
    v.array(v.variant('status', [GeneticResultItem, PlannedGeneticResult, NotPerformedGeneticResult])),
    v.description('one item per planned genetic biomarker (received or planned), then received results that were not planned'),
  ),
  documents: v.pipe(
    v.array(ResultsDocument),
    v.description(
      'lab report files, newest first: download each with GET /api/v1/documents/{id}; the newest final one is the first whose result_status is not preliminary',
    ),
  ),
  critical: v.pipe(
    v.nullable(
      v.object({
        biomarker_ids: v.pipe(v.array(biomarkerId), v.description('the tests whose current value is critical')),
        reported_at: v.pipe(instant, v.description('when the last report that brought a critical value arrived')),
        acknowledged_at: v.pipe(v.nullable(instant), v.description('when a clinician acknowledged them (POST …/results/acknowledge); null until then')),
        acknowledged_by: v.pipe(v.nullable(v.string()), v.description('the key id that acknowledged them')),
      }),
    ),
    v.description('null while no value was ever critical; a new critical value resets the acknowledgement'),
  ),
});
export type AppointmentResults = v.InferOutput<typeof AppointmentResults>;

export function toGeneticResult(result: GeneticResultRecord): GeneticResultItem {
  return {
    status: 'received',
    result_status: result.result_status ?? 'final',
    biomarker_id: result.biomarker_id,
    gene: result.gene,
    genotype: result.genotype,
    clinical_significance: result.clinical_significance,
    risk_description: result.risk_description,
    tested_at: result.tested_at,
    comment: result.comment ?? null,
    variants: result.variants,
  };
}

/**
 * The results body from what shared/usecases/read-results.ts read: every planned test next to what was
 * received. GET /appointments/{id}/results answers it; the person's export embeds it.
 */
export function toAppointmentResults(read: {
  status: AppointmentResults['status'];
  planned: number[];
  catalog: Catalog;
  clinical: ReadonlyMap<number, ClinicalResultRecord>;
  genetic: ReadonlyMap<number, GeneticResultRecord>;
  rejected?: ReadonlyMap<number, RejectedTest>;
  aggregate: { documents: DocumentLink[]; appointment: AppointmentRecord };
}): AppointmentResults {
  const { appointment } = read.aggregate;
  return {
    status: read.status,
    clinical_results: clinicalResultItems(read.planned, read.catalog.biomarkers, read.clinical, read.rejected),
    genetic_results: geneticResultItems(read.planned, read.catalog.biomarkers, read.genetic, read.rejected).map((item) =>
      item.status === 'received' ? toGeneticResult(item.result) : item,
    ),
    documents: read.aggregate.documents.map(toResultsDocument).reverse(),
    critical: appointment.critical_reported_at
      ? {
          biomarker_ids: appointment.critical_biomarker_ids ?? [],
          reported_at: appointment.critical_reported_at,
          acknowledged_at: appointment.critical_acknowledged_at ?? null,
          acknowledged_by: appointment.critical_acknowledged_by ?? null,
        }
      : null,
  };
}

const reportedBy = {
  reported_at: v.pipe(v.string(), v.description('when the lab reported this version')),
  event_id: v.pipe(
    v.nullable(uuid),
    v.description("the lab's report (LabResultsReported event_id) that sent it; null for results stored before versions were kept"),
  ),
};

/** One version of a clinical result, as the lab sent it. */
export const ClinicalResultVersion = v.object({
  result_status: resultStatus,
  value: v.number(),
  value_operator: v.picklist(VALUE_OPERATORS),
  unit_id: v.nullable(biomarkerId),
  unit: v.nullable(v.string()),
  reference_range_lab: v.nullable(ReferenceRange),
  interpretation,
  tested_at: date,
  comment: v.nullable(v.string()),
  ...reportedBy,
});

export const GeneticResultVersion = v.object({
  result_status: resultStatus,
  gene: v.string(),
  genotype: v.string(),
  clinical_significance: v.string(),
  risk_description: v.string(),
  tested_at: date,
  comment: v.nullable(v.string()),
  variants: v.array(Variant),
  ...reportedBy,
});

/** GET /appointments/{id}/results/history: every version of every reported result, the current one first. */
export const AppointmentResultsHistory = v.object({
  appointment_id: uuid,
  clinical_results: v.array(
    v.object({
      biomarker_id: biomarkerId,
      biomarker_name: v.string(),
      versions: v.pipe(v.array(ClinicalResultVersion), v.description('newest first: the value shown now, then each one it replaced')),
    }),
  ),
  genetic_results: v.array(
    v.object({
      biomarker_id: biomarkerId,
      gene: v.string(),
      versions: v.pipe(v.array(GeneticResultVersion), v.description('newest first: the finding shown now, then each one it replaced')),
    }),
  ),
});
export type AppointmentResultsHistory = v.InferOutput<typeof AppointmentResultsHistory>;

const clinicalVersion = (result: SupersededVersion<ClinicalResultRecord>, catalog: Catalog) => ({
  result_status: result.result_status ?? 'final',
  value: result.value,
  value_operator: result.value_operator,
  unit_id: result.unit_id,
  unit: result.unit,
  reference_range_lab: orderedRange(result.reference_range_lab),
  interpretation: interpretationOfStored(result, catalog.biomarkers.get(result.biomarker_id)),
  tested_at: result.tested_at,
  comment: result.comment ?? null,
  reported_at: result.reported_at,
  event_id: result.event_id ?? null,
});

/** A version of a genetic finding: the finding as the results show it, without its place in the list, and its report. */
const geneticVersion = (result: SupersededVersion<GeneticResultRecord>) => {
  const { status: _status, biomarker_id: _biomarker, ...finding } = toGeneticResult(result);
  return { ...finding, reported_at: result.reported_at, event_id: result.event_id ?? null };
};

export function toResultsHistory(
  appointmentId: string,
  read: { catalog: Catalog; aggregate: { clinicalResults: ClinicalResultRecord[]; geneticResults: GeneticResultRecord[] } },
): AppointmentResultsHistory {
  const byId = <T extends { biomarker_id: number }>(results: T[]) => [...results].sort((a, b) => a.biomarker_id - b.biomarker_id);
  return {
    appointment_id: appointmentId,
    clinical_results: byId(read.aggregate.clinicalResults).map((result) => ({
      biomarker_id: result.biomarker_id,
      biomarker_name: read.catalog.biomarkers.get(result.biomarker_id)?.name ?? `Biomarker ${result.biomarker_id}`,
      versions: [result, ...(result.superseded ?? [])].map((version) => clinicalVersion(version, read.catalog)),
    })),
    genetic_results: byId(read.aggregate.geneticResults).map((result) => ({
      biomarker_id: result.biomarker_id,
      gene: result.gene,
      versions: [result, ...(result.superseded ?? [])].map(geneticVersion),
    })),
  };
}
