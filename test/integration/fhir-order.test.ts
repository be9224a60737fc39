/**
 * GET /api/v1/appointments/{id}/order/fhir (issue #50): the lab order as FHIR R4, validated against HL7's
 * FHIR R4 JSON Schema, then its ServiceRequests, Specimens and references checked one by one; and the
 * results' DiagnosticReport naming the same ServiceRequests in basedOn.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { type Bundle, fhirErrors, ofType } from '../support/fhir-schema';
import { apiKey, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { clinical, deliver, report } from '../support/lab';
import { confirmDraw, createProfile, newBarcode, scheduleAppointment, storedAppointment } from '../support/scenario';

const api = useApi();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

/** A drawn appointment testing haemoglobin (2, EDTA), INR (11, citrate) and ferritin (1) and TSH (3), both serum. */
async function drawn(): Promise<{ id: string; barcode: string }> {
  const id = await scheduleAppointment(api, key);
  await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [1, 2, 3, 11] }, key);
  return { id, barcode: await confirmDraw(api, key, id) };
}

async function fhirOf(path: string): Promise<Bundle> {
  const res = await api.get(path, key);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/fhir+json');
  const bundle = JSON.parse(res.body as string) as Bundle;
  expect(fhirErrors(bundle)).toEqual([]);
  return bundle;
}

const order = (id: string) => fhirOf(`/api/v1/appointments/${id}/order/fhir`);
const requisitionOf = async (id: string) => (await api.get(`/api/v1/appointments/${id}`, key)).body.requisition.number as string;
const resolve = (bundle: Bundle, reference: string) => bundle.entry.find((e) => e.fullUrl === reference)?.resource;

describe('GET /api/v1/appointments/{id}/order/fhir', () => {
  it('answers 409 before the draw', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.get(`/api/v1/appointments/${id}/order/fhir`, key);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^No requisition yet/);
  });

  it('answers a valid FHIR R4 collection identified by the requisition number, with one ServiceRequest per test', async () => {
    const { id } = await drawn();
    const bundle = await order(id);
    const number = await requisitionOf(id);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection', identifier: { system: 'urn:lab-api:requisition', value: number } });
    expect(ofType(bundle, 'ServiceRequest').map((request) => request.code.coding[0].code)).toEqual(['2276-4', '718-7', '3016-3', '34714-6']);
  });

  it('makes each ServiceRequest an active order under the requisition, coded by LOINC, for the Patient', async () => {
    const { id } = await drawn();
    const bundle = await order(id);
    const [patient] = ofType(bundle, 'Patient');
    for (const request of ofType(bundle, 'ServiceRequest')) {
      expect(request).toMatchObject({
        status: 'active',
        intent: 'order',
        requisition: { system: 'urn:lab-api:requisition', value: await requisitionOf(id) },
        code: { coding: [{ system: 'http://loinc.org' }] },
        subject: { reference: `urn:uuid:${patient?.id}` },
      });
    }
  });

  it('points each ServiceRequest at the Specimen of its tube: the barcode, the v2-0487 type and the container', async () => {
    const { id, barcode } = await drawn();
    const bundle = await order(id);
    const tubes = ofType(bundle, 'ServiceRequest').map((request) => {
      const specimen = resolve(bundle, request.specimen[0].reference)!;
      expect(specimen.identifier).toEqual([{ system: 'urn:lab-api:sample-barcode', value: barcode }]);
      return [request.code.text, specimen.type.coding[0].code, specimen.container[0].type.text];
    });
    expect(tubes).toEqual([
      ['Ferritin', 'SER', 'SST (gold)'],
      ['Haemoglobin', 'WB', 'EDTA (lavender)'],
      ['TSH', 'SER', 'SST (gold)'],
      ['Prothrombin time (INR)', 'PLAS', 'sodium citrate (light blue)'],
    ]);
  });

  it('has one Specimen per tube, collected at the draw, naming the requests tested on it', async () => {
    const { id } = await drawn();
    const bundle = await order(id);
    const drawnAt = (await storedAppointment(id)).blood_drawn_at as string;
    const specimens = ofType(bundle, 'Specimen');
    expect(specimens.map((specimen) => [specimen.type.coding[0].code, specimen.request.length])).toEqual([
      ['SER', 2],
      ['WB', 1],
      ['PLAS', 1],
    ]);
    for (const specimen of specimens) expect(Date.parse(specimen.collection.collectedDateTime)).toBe(Date.parse(drawnAt));
  });

  it('shows a test completed once the lab reported its final value, the others still active', async () => {
    const { id } = await drawn();
    await deliver(report(id, { clinical_results: [clinical(2, 14)] }));
    const statuses = ofType(await order(id), 'ServiceRequest').map((request) => [request.code.text, request.status]);
    expect(statuses).toEqual([
      ['Ferritin', 'active'],
      ['Haemoglobin', 'completed'],
      ['TSH', 'active'],
      ['Prothrombin time (INR)', 'active'],
    ]);
  });

  it("is what the results' DiagnosticReport names in basedOn, by each ServiceRequest's identifier", async () => {
    const { id } = await drawn();
    const identifiers = ofType(await order(id), 'ServiceRequest').map((request) => request.identifier[0]);
    expect(identifiers.map((identifier) => identifier.system)).toEqual(Array(4).fill('urn:lab-api:service-request'));
    const results = await fhirOf(`/api/v1/appointments/${id}/results/fhir`);
    expect(ofType(results, 'DiagnosticReport')[0]?.basedOn).toEqual(identifiers.map((identifier) => ({ type: 'ServiceRequest', identifier })));
  });

  it("orders a home kit's tests on its capillary blood, collected at the activation", async () => {
    const kit = await api.post('/api/v1/home-kit-orders', { profile_id: await createProfile(api, key), delivery_address: { location_id: BERLIN_MITTE } }, key);
    await api.post(`/api/v1/home-kit-orders/${kit.body.id}/biomarkers`, { biomarker_ids: [6] }, key);
    await api.post(`/api/v1/home-kit-orders/${kit.body.id}/dispatch`, { tracking_number: 'DHL-0001' }, key);
    const activated = await api.post(`/api/v1/home-kit-orders/${kit.body.id}/activate`, { barcode: newBarcode() }, key);
    const [specimen] = ofType(await order(activated.body.appointment_id), 'Specimen');
    expect(specimen).toMatchObject({ type: { coding: [{ code: 'BLDC' }] }, container: [{ type: { text: 'dried blood spot card' } }] });
  });

  it('names an erased person by id alone: no name and no birth date on the Patient', async () => {
    const profileId = await createProfile(api, key);
    const id = await scheduleAppointment(api, key, { profileId });
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2] }, key);
    await confirmDraw(api, key, id);
    expect((await api.post(`/api/v1/profiles/${profileId}/erase`, {}, key)).status).toBe(200);
    const [patient] = ofType(await order(id), 'Patient');
    expect(patient).toEqual({ resourceType: 'Patient', id: profileId, gender: 'unknown' });
  });

  it('answers 403 to a key of another tenant or without the scopes, and 404 for an unknown appointment', async () => {
    const { id } = await drawn();
    const partner = await apiKey({ profileGroups: ['partner-clinic'] });
    const shipmentsOnly = await apiKey({ scopes: ['TEST_SESSIONS_OPERATE'] });
    expect((await api.get(`/api/v1/appointments/${id}/order/fhir`, partner)).status).toBe(403);
    expect((await api.get(`/api/v1/appointments/${id}/order/fhir`, shipmentsOnly)).status).toBe(403);
    expect((await api.get(`/api/v1/appointments/${UNKNOWN_ID}/order/fhir`, key)).status).toBe(404);
  });

  it('is readable with RESULTS_VIEW alone', async () => {
    const { id } = await drawn();
    expect((await api.get(`/api/v1/appointments/${id}/order/fhir`, await apiKey({ scopes: ['RESULTS_VIEW'] }))).status).toBe(200);
  });
});
