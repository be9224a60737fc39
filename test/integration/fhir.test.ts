/**
 * GET /api/v1/appointments/{id}/results/fhir: every exported Bundle is validated against HL7's FHIR R4
 * JSON Schema, then its codes, units, interpretations and references are checked one by one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { type Bundle, fhirErrors, ofType, type Resource } from '../support/fhir-schema';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { apoe, deliver, report, uploadIncoming } from '../support/lab';
import { confirmDraw, scheduleAppointment, storedAppointment, THYROID_PANEL } from '../support/scenario';

const api = useApi();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const lab = (biomarker_id: number, value: number, unit: string, min: number | null, max: number | null, value_operator = 'eq') => ({
  biomarker_id,
  value,
  value_operator,
  unit_id: null,
  unit,
  reference_range_lab: { normal_min: min, normal_max: max, optimal_min: null, optimal_max: null },
  tested_at: '2026-11-20',
  comment: null,
});

/** An appointment planning the thyroid panel (TSH 3, free T4 4) and APOE (100), drawn. */
async function drawn(): Promise<string> {
  const id = await scheduleAppointment(api, key);
  await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [THYROID_PANEL] }, key);
  await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [100] }, key);
  await confirmDraw(api, key, id);
  return id;
}

async function exported(id: string, withKey = key): Promise<Bundle> {
  const res = await api.get(`/api/v1/appointments/${id}/results/fhir`, withKey);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/fhir+json');
  const bundle = JSON.parse(res.body as string) as Bundle;
  expect(fhirErrors(bundle)).toEqual([]);
  return bundle;
}

const observationOf = (bundle: Bundle, text: string) => ofType(bundle, 'Observation').find((o) => o.code.text === text);

describe('GET /api/v1/appointments/{id}/results/fhir', () => {
  let complete: Bundle;
  let documentId: string;
  let appointmentId: string;

  beforeAll(async () => {
    appointmentId = await drawn();
    const s3Key = await uploadIncoming(Buffer.from('%PDF-1.4 report'));
    await deliver(
      report(appointmentId, {
        clinical_results: [lab(3, 5.2, 'mIU/L', 0.4, 4), lab(4, 0.5, 'ng/dL', 0.9, 1.7, 'lt')],
        genetic_results: [apoe],
        documents: [{ s3_key: s3Key, file_name: 'lab-report.pdf', content_type: 'application/pdf' }],
      }),
    );
    complete = await exported(appointmentId);
    documentId = (await api.get(`/api/v1/appointments/${appointmentId}/results`, key)).body.documents[0].id;
  });

  it('answers a Bundle of type collection that is valid FHIR R4, every fullUrl a urn:uuid', () => {
    expect(complete).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    expect(complete.entry.map((e) => e.resource.resourceType)).toEqual(['Patient', 'DiagnosticReport', 'Observation', 'Observation', 'Observation']);
    for (const entry of complete.entry) expect(entry.fullUrl).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('exports a minimal Patient: name, birth date and gender, no contact data', () => {
    const [patient] = ofType(complete, 'Patient');
    expect(patient).toEqual({
      resourceType: 'Patient',
      id: expect.any(String),
      name: [{ family: 'Patient', given: ['Test'] }],
      gender: 'unknown',
      birthDate: '1979-10-01',
    });
  });

  it('makes the DiagnosticReport final once every planned test is in, with the draw time, the report time and the PDF', async () => {
    const diagnostic = ofType(complete, 'DiagnosticReport')[0] as Resource;
    const stored = await storedAppointment(appointmentId);
    expect(diagnostic).toMatchObject({ status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '11502-2' }] } });
    expect(diagnostic.effectiveDateTime).toBe(stored.blood_drawn_at);
    expect(typeof stored.blood_drawn_at).toBe('string');
    expect(Date.parse(diagnostic.issued)).not.toBeNaN();
    expect(diagnostic.presentedForm).toEqual([
      { contentType: 'application/pdf', url: `${api.url()}/api/v1/documents/${documentId}`, title: 'lab-report.pdf (final)', creation: expect.any(String) },
    ]);
  });

  it('references the Patient and every Observation by the fullUrls of the Bundle', () => {
    const diagnostic = ofType(complete, 'DiagnosticReport')[0] as Resource;
    const urls = new Set(complete.entry.map((e) => e.fullUrl));
    expect(urls.has(diagnostic.subject.reference)).toBe(true);
    expect(diagnostic.result.map((r: { reference: string }) => r.reference)).toEqual(complete.entry.slice(2).map((e) => e.fullUrl));
    for (const observation of ofType(complete, 'Observation')) expect(observation.subject).toEqual(diagnostic.subject);
  });

  it('codes a clinical result in LOINC with a UCUM quantity, the lab range and H above it', () => {
    expect(observationOf(complete, 'TSH')).toMatchObject({
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '3016-3' }], text: 'TSH' },
      valueQuantity: { value: 5.2, unit: 'mIU/L', system: 'http://unitsofmeasure.org', code: 'm[IU]/L' },
      referenceRange: [{ low: { value: 0.4, code: 'm[IU]/L' }, high: { value: 4, code: 'm[IU]/L' } }],
      interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'H', display: 'High' }] }],
      effectiveDateTime: '2026-11-20',
    });
  });

  it('exports a value below a detection limit with its comparator, flagged L', () => {
    expect(observationOf(complete, 'Free T4')).toMatchObject({
      code: { coding: [{ code: '3024-7' }] },
      valueQuantity: { value: 0.5, comparator: '<', code: 'ng/dL' },
      interpretation: [{ coding: [{ code: 'L' }] }],
    });
  });

  it('exports a genetic result with the gene and the genotype as components, and no value beside them (obs-7)', () => {
    const genotype = observationOf(complete, 'APOE genotype') as Resource;
    expect(genotype).toMatchObject({
      code: { coding: [{ system: 'http://loinc.org', code: '84413-4' }] },
      component: [
        { code: { coding: [{ code: '48018-6' }] }, valueCodeableConcept: { text: 'APOE' } },
        { code: { coding: [{ code: '84413-4' }] }, valueString: 'e3/e4' },
      ],
      interpretation: [{ text: 'moderate_risk' }],
    });
    expect(Object.keys(genotype).filter((field) => field.startsWith('value'))).toEqual([]);
  });

  it('gives the same resources the same urn:uuid in every export', async () => {
    const again = await exported(appointmentId);
    expect(again.entry.map((e) => e.fullUrl)).toEqual(complete.entry.map((e) => e.fullUrl));
  });

  it('makes the DiagnosticReport partial, with only the received Observations, while a planned test is missing', async () => {
    const id = await drawn();
    await deliver(report(id, { clinical_results: [lab(3, 2, 'mIU/L', 0.4, 4)] }));
    const bundle = await exported(id);
    expect(ofType(bundle, 'DiagnosticReport')[0]?.status).toBe('partial');
    expect(ofType(bundle, 'Observation').map((o) => o.code.text)).toEqual(['TSH']);
    expect(observationOf(bundle, 'TSH')?.interpretation).toEqual([{ coding: [{ system: expect.any(String), code: 'N', display: 'Normal' }] }]);
  });

  it('exports a drawn appointment without results as a valid partial report with no Observation', async () => {
    const bundle = await exported(await drawn());
    expect(ofType(bundle, 'DiagnosticReport')[0]).toMatchObject({ status: 'partial' });
    expect(ofType(bundle, 'Observation')).toEqual([]);
  });

  it('answers 403 to a key of another tenant, 403 without RESULTS_VIEW and 404 for an unknown appointment', async () => {
    const partner = await apiKey({ profileGroups: ['partner-clinic'] });
    const noResults = await apiKey({ scopes: ['TEST_SESSIONS_VIEW'] });
    expect((await api.get(`/api/v1/appointments/${appointmentId}/results/fhir`, partner)).status).toBe(403);
    expect((await api.get(`/api/v1/appointments/${appointmentId}/results/fhir`, noResults)).status).toBe(403);
    expect((await api.get(`/api/v1/appointments/${UNKNOWN_ID}/results/fhir`, key)).status).toBe(404);
  });
});

describe('the FHIR schema the tests validate with', () => {
  it('refuses a Patient with a gender FHIR does not know', () => {
    const bundle = { resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'urn:uuid:1', resource: { resourceType: 'Patient', gender: 'x' } }] };
    expect(fhirErrors(bundle).join()).toContain('gender');
  });
});
