/**
 * An appointment's results as a FHIR R4 Bundle (type `collection`), for systems that speak FHIR: a
 * minimal Patient, a DiagnosticReport, one Observation per received clinical result and one per
 * received genetic result. Every resource is identified by a `urn:uuid:` fullUrl derived from our ids,
 * so exporting twice gives the same references. Planned tests not yet received are not Observations:
 * the report's status says `partial` until they are.
 */
import { derivedUuid } from '../derived-uuid';
import { type Interpretation, interpretationOfStored, isFinal, orderedRange, rejectionText, type ResultStatus, type ValueOperator } from '../domain/results';
import type { AppointmentAggregate } from '../store/appointments/records';
import type { BiomarkerRecord } from '../store/catalog';
import type { ClinicalResultRecord, GeneticResultRecord, RejectedTestRecord } from '../store/lab-reports';
import type { ProfileRecord } from '../store/profiles';
import { patient, serviceRequestIdentifier, urn } from './resources';
import {
  DATA_ABSENT_REASON,
  DIAGNOSTIC_SERVICE,
  GENE_STUDIED_CODE,
  GENOTYPE_CODE,
  INTERPRETATION,
  LAB_REPORT_CODE,
  LOINC,
  OBSERVATION_CATEGORY,
  SAMPLE_BARCODE_SYSTEM,
  UCUM,
  ucumOf,
} from './codes';

type Json = Record<string, unknown>;

export const FHIR_JSON = 'application/fhir+json';

/** A stored instant as FHIR's instant: the lab may send any ISO 8601 form, FHIR takes one. */
const fhirInstant = (instant: string) => new Date(instant).toISOString();

const COMPARATORS: Record<ValueOperator, string | undefined> = { eq: undefined, lt: '<', le: '<=', gt: '>', ge: '>=' };

/** Our interpretations as v3 ObservationInterpretation codes (critical ones are LL and HH). */
const INTERPRETATION_CODES: Record<Interpretation, { code: string; display: string }> = {
  normal: { code: 'N', display: 'Normal' },
  low: { code: 'L', display: 'Low' },
  high: { code: 'H', display: 'High' },
  critical_low: { code: 'LL', display: 'Critical low' },
  critical_high: { code: 'HH', display: 'Critical high' },
  abnormal: { code: 'A', display: 'Abnormal' },
};

/** FHIR's Observation.status is our result_status, word for word. */
const observationStatus = (status: ResultStatus | undefined): ResultStatus => status ?? 'final';

function quantity(value: number, unit: string | null): Json {
  const code = ucumOf(unit);
  return { value, ...(unit ? { unit } : {}), ...(code ? { system: UCUM, code } : {}) };
}

function clinicalObservation(id: string, result: ClinicalResultRecord, biomarker: BiomarkerRecord | undefined, subject: Json): Json {
  const name = biomarker?.name ?? `Biomarker ${result.biomarker_id}`;
  const range = orderedRange(result.reference_range_lab);
  const interpretation = interpretationOfStored(result, biomarker);
  const comparator = COMPARATORS[result.value_operator];
  return {
    resourceType: 'Observation',
    id,
    status: observationStatus(result.result_status),
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }] }],
    // Our name goes in text: a coding's display must be LOINC's own name, which we do not keep.
    code: { ...(biomarker?.loinc ? { coding: [{ system: LOINC, code: biomarker.loinc }] } : {}), text: name },
    subject,
    effectiveDateTime: result.tested_at,
    issued: fhirInstant(result.reported_at),
    valueQuantity: { ...quantity(result.value, result.unit), ...(comparator ? { comparator } : {}) },
    ...(interpretation ? { interpretation: [{ coding: [{ system: INTERPRETATION, ...INTERPRETATION_CODES[interpretation] }] }] } : {}),
    ...(range && (range.normal_min !== null || range.normal_max !== null)
      ? {
          referenceRange: [
            {
              ...(range.normal_min !== null ? { low: quantity(range.normal_min, result.unit) } : {}),
              ...(range.normal_max !== null ? { high: quantity(range.normal_max, result.unit) } : {}),
            },
          ],
        }
      : {}),
    ...(result.comment ? { note: [{ text: result.comment }] } : {}),
  };
}

/** A lab's free text that says something (the ingest accepts empty strings, FHIR strings may not be empty). */
const said = (text: string | null | undefined): text is string => typeof text === 'string' && text.trim() !== '';

/**
 * A genotype as FHIR genomics models it: the gene studied and the genotype as components. The genotype's
 * code is also the Observation's, so the Observation itself carries no value (FHIR invariant obs-7).
 */
function geneticObservation(id: string, result: GeneticResultRecord, biomarker: BiomarkerRecord | undefined, subject: Json): Json {
  const components = [
    ...(said(result.gene) ? [{ code: { coding: [GENE_STUDIED_CODE] }, valueCodeableConcept: { text: result.gene } }] : []),
    ...(said(result.genotype) ? [{ code: { coding: [GENOTYPE_CODE] }, valueString: result.genotype }] : []),
  ];
  const notes = [result.risk_description, result.comment].filter(said).map((text) => ({ text }));
  return {
    resourceType: 'Observation',
    id,
    status: observationStatus(result.result_status),
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }] }],
    code: { coding: [GENOTYPE_CODE], text: biomarker?.name ?? (said(result.gene) ? `${result.gene} genotype` : 'Genotype') },
    subject,
    effectiveDateTime: result.tested_at,
    issued: fhirInstant(result.reported_at),
    ...(said(result.clinical_significance) ? { interpretation: [{ text: result.clinical_significance }] } : {}),
    ...(components.length > 0 ? { component: components } : {}),
    ...(notes.length > 0 ? { note: notes } : {}),
  };
}

/**
 * A test the lab could not perform: an Observation `cancelled`, with no value and `dataAbsentReason`
 * not-performed, the lab's reason as a note.
 */
function notPerformedObservation(id: string, rejected: RejectedTestRecord, biomarker: BiomarkerRecord | undefined, subject: Json): Json {
  return {
    resourceType: 'Observation',
    id,
    status: 'cancelled',
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }] }],
    code: {
      ...(biomarker?.loinc ? { coding: [{ system: LOINC, code: biomarker.loinc }] } : {}),
      text: biomarker?.name ?? `Biomarker ${rejected.biomarker_id}`,
    },
    subject,
    issued: fhirInstant(rejected.reported_at),
    dataAbsentReason: { coding: [{ system: DATA_ABSENT_REASON, code: 'not-performed', display: 'Not Performed' }] },
    note: [{ text: rejectionText(rejected) }],
  };
}

export interface ResultsExport {
  aggregate: AppointmentAggregate;
  biomarkers: ReadonlyMap<number, BiomarkerRecord>;
  /** Our results status: `completed` once every planned test has its final answer. */
  status: 'completed' | 'in_progress';
  /** How many planned tests have no value at all yet. */
  missing: number;
  /** The latest report's time (UTC), null before any. */
  reportedAt: string | null;
  profile: ProfileRecord;
  /** The API's base URL, for the links to the report files. */
  baseUrl: string;
  now: Date;
}

/**
 * DiagnosticReport.status: `partial` while a planned test has no value yet, `preliminary` while every one
 * has a value but some may still change, then `final`, or `corrected` once any value was corrected.
 */
function reportStatus(status: ResultsExport['status'], results: { result_status?: ResultStatus }[], missing: number): string {
  if (status === 'completed') return results.some((result) => result.result_status === 'corrected') ? 'corrected' : 'final';
  return missing === 0 && results.some((result) => !isFinal(result)) ? 'preliminary' : 'partial';
}

export function resultsBundle({ aggregate, biomarkers, status, missing, reportedAt, profile, baseUrl, now }: ResultsExport): Json {
  const { appointment } = aggregate;
  const subject = { reference: urn(profile.id) };
  const observations = [
    ...aggregate.clinicalResults.map((r) => {
      const id = derivedUuid([appointment.id, 'clinical', r.biomarker_id]);
      return { fullUrl: urn(id), resource: clinicalObservation(id, r, biomarkers.get(r.biomarker_id), subject) };
    }),
    ...aggregate.geneticResults.map((r) => {
      const id = derivedUuid([appointment.id, 'genetic', r.biomarker_id]);
      return { fullUrl: urn(id), resource: geneticObservation(id, r, biomarkers.get(r.biomarker_id), subject) };
    }),
    // A value that came after all stands; only the tests still without one are shown not performed.
    ...aggregate.rejectedTests
      .filter(
        (test) =>
          !aggregate.clinicalResults.some((r) => r.biomarker_id === test.biomarker_id) &&
          !aggregate.geneticResults.some((r) => r.biomarker_id === test.biomarker_id),
      )
      .map((test) => {
        const id = derivedUuid([appointment.id, 'not-performed', test.biomarker_id]);
        return { fullUrl: urn(id), resource: notPerformedObservation(id, test, biomarkers.get(test.biomarker_id), subject) };
      }),
  ];
  const report = {
    resourceType: 'DiagnosticReport',
    id: appointment.id,
    ...(appointment.barcode ? { identifier: [{ system: SAMPLE_BARCODE_SYSTEM, value: appointment.barcode }] } : {}),
    // The order's ServiceRequests (GET /appointments/{id}/order/fhir), by identifier: they are not in this bundle.
    ...(appointment.requisition
      ? {
          basedOn: appointment.requisition.tests.map((test) => ({
            type: 'ServiceRequest',
            identifier: serviceRequestIdentifier(appointment.id, test.biomarker_id),
          })),
        }
      : {}),
    status: reportStatus(status, [...aggregate.clinicalResults, ...aggregate.geneticResults], missing),
    category: [{ coding: [{ system: DIAGNOSTIC_SERVICE, code: 'LAB', display: 'Laboratory' }] }],
    code: { coding: [LAB_REPORT_CODE], text: 'Laboratory report' },
    subject,
    ...(appointment.blood_drawn_at ? { effectiveDateTime: appointment.blood_drawn_at } : {}),
    ...(reportedAt ? { issued: reportedAt } : {}),
    ...(observations.length > 0 ? { result: observations.map((o) => ({ reference: o.fullUrl })) } : {}),
    ...(aggregate.documents.length > 0
      ? {
          // Newest first, as the results list them; the title says which report each is, as result_status does there.
          presentedForm: [...aggregate.documents].reverse().map((d) => ({
            contentType: 'application/pdf',
            url: `${baseUrl.replace(/\/$/, '')}/api/v1/documents/${d.id}`,
            title: `${d.file_name} (${d.result_status})`,
            creation: d.added_at,
          })),
        }
      : {}),
  };
  return {
    resourceType: 'Bundle',
    id: derivedUuid([appointment.id, 'bundle', now.toISOString()]),
    meta: { lastUpdated: now.toISOString() },
    type: 'collection',
    timestamp: now.toISOString(),
    entry: [{ fullUrl: urn(profile.id), resource: patient(profile) }, { fullUrl: urn(appointment.id), resource: report }, ...observations],
  };
}
