/** What the results routes answer (JSON, history, FHIR, the PDF report), a lab document, and the sandbox's simulated lab. Joined with the other resources in shared/contract/operations.ts. */
import * as v from 'valibot';
import type { RouteName } from '../../routes';
import { AppointmentResults, AppointmentResultsHistory } from '../../schemas/results';
import * as examples from '../examples';
import { type OperationDoc, READ_NOT_RECORDED } from '../operation-doc';

export const resultsOperations = {
  getAppointmentResults: {
    tag: 'Results',
    summary: "Get an appointment's results",
    description: 'Planned tests appear with status planned, next to received clinical and genetic results and the lab report documents.',
    responses: { 200: { description: 'The results.', schema: AppointmentResults, example: examples.appointmentResults } },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },
  acknowledgeAppointmentResults: {
    tag: 'Results',
    summary: 'Acknowledge critical results',
    description:
      "Records that a clinician saw the critical values: the results' critical.acknowledged_at and acknowledged_by (this key's id). " +
      'Acknowledging again changes nothing; a new critical value resets the acknowledgement.',
    responses: { 200: { description: 'The results, acknowledged.', schema: AppointmentResults } },
    errors: { 404: 'appointment not found', 409: 'no critical value to acknowledge; or a new critical value arrived meanwhile', 503: READ_NOT_RECORDED },
  },
  getAppointmentResultsHistory: {
    tag: 'Results',
    summary: 'Every version of the results',
    description:
      'Per reported test, every version the lab sent, newest first: the value shown now (preliminary, final or corrected), then each one it replaced, ' +
      "with when the lab reported it and the report's event_id. A correction never erases the value it corrects.",
    responses: { 200: { description: 'The versions of each reported result.', schema: AppointmentResultsHistory } },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },
  getAppointmentResultsFhir: {
    tag: 'Results',
    summary: 'Export the results as FHIR R4',
    description:
      'The results as a FHIR R4 Bundle of type collection (application/fhir+json): a minimal Patient (id, name, birthDate, gender), ' +
      'a DiagnosticReport (status partial until every planned test is received, then final; effectiveDateTime the blood draw; issued ' +
      'the last report; the lab report PDFs as presentedForm links to GET /api/v1/documents/{id}), one Observation per received clinical ' +
      'result (LOINC code, valueQuantity in UCUM, the lab range as referenceRange, interpretation H/L/N) and one per genetic result ' +
      '(gene and genotype as components). fullUrls are urn:uuid: references, stable across exports. Same access rules as the results.',
    responses: {
      200: {
        description: 'The FHIR R4 Bundle (validated against the HL7 FHIR R4 JSON schema in the test suite).',
        content: { type: 'application/fhir+json', schema: { type: 'object', description: 'A FHIR R4 Bundle: https://hl7.org/fhir/R4/bundle.html' } },
      },
    },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },
  getAppointmentResultsReport: {
    tag: 'Results',
    summary: 'Download the results report (PDF)',
    description:
      'A PDF the service renders from the results: patient name and birth date, sample date, location, barcode; per biomarker ' +
      'its value and unit, an H/L flag and a bar showing the normal and optimal ranges with a marker at the value; genetic ' +
      'findings in plain words; tests still pending listed as pending; page numbers. Names in Latin, Greek, Cyrillic and CJK ' +
      "scripts render as written. Written in the profile's language (en, de or fi): labels, dates (24.11.2026 in de and fi), " +
      'decimal commas, pending, preliminary, corrected, not performed and the critical legend. Same access rules as the results.',
    responses: {
      200: {
        description: 'The PDF.',
        content: { type: 'application/pdf', schema: { type: 'string', contentMediaType: 'application/pdf' } },
        headers: {
          'Content-Disposition': { description: 'attachment with the file name', required: true },
          'Content-Language': { description: "the language the report is written in: the profile's (en, de or fi)", required: true },
        },
      },
    },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },
  getDocument: {
    tag: 'Results',
    summary: 'Download a lab report document',
    description:
      'The raw file bytes with their Content-Type (application/pdf). The id comes from the documents array of the results. A file above 4 MiB is answered with a 303 to a presigned URL valid for 60 seconds.',
    responses: {
      200: {
        description: 'The file.',
        content: { type: 'application/pdf', schema: { type: 'string', contentMediaType: 'application/pdf' } },
        headers: { 'Content-Disposition': { description: 'attachment with the file name', required: true } },
      },
      303: {
        description: 'A large file: fetch it from Location (valid 60 seconds, no API key).',
        schema: v.object({ url: v.pipe(v.string(), v.url()) }),
        headers: { Location: { description: 'the presigned download URL', required: true } },
      },
    },
    errors: { 404: 'document not found', 503: READ_NOT_RECORDED },
  },
  simulateSandboxResults: {
    tag: 'Sandbox',
    summary: "Simulate the lab's answer",
    description:
      "For sandbox keys only (lab_test_…): the lab's answer to a sandbox appointment whose blood draw is confirmed, stored by the same ingest as a " +
      'real lab report, so its results, statuses, events and webhooks follow as they would. Outcomes: normal, partial, critical, rejected, corrected ' +
      '(a correction of the first clinical value, after a normal report when none was final). Answers the results as GET /appointments/{id}/results does.',
    responses: { 200: { description: 'The results after the simulated report.', schema: AppointmentResults } },
    errors: {
      403: 'a live key (only a sandbox key may simulate the lab)',
      404: 'appointment not found',
      409: 'the blood draw is not confirmed; or the outcome needs a clinical test the appointment does not plan',
      503: READ_NOT_RECORDED,
    },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
