/**
 * Orders a lab can accept (issue #50, parts 2 and 3): an attach refuses a test the order's collection method
 * cannot collect, and every appointment and kit answer says what the patient must know (preparation) and
 * which containers to draw or fill (specimens_to_collect).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { attachTests } from '../../shared/store/appointments/writes';
import { type BiomarkerRecord, loadCatalog, putBiomarker } from '../../shared/store/catalog';
import { dynamo, tableName } from '../../shared/store/client';
import { attachKitTests, getHomeKitOrderOrThrow } from '../../shared/store/home-kit-orders';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_MITTE, BIOMARKERS, seedDemoData } from '../support/fixtures';
import { CARDIOGENETICS_PANEL, ESSENTIALS_PANEL, HEART_PANEL, newBarcode, scheduleAppointment, THYROID_PANEL } from '../support/scenario';
import { canonical } from '../support/table';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const instructions = (id: number) => BIOMARKERS.find((biomarker) => biomarker.id === id)!.preparation.instructions!;
const INR_REFUSED = 'Biomarker 11 (Prothrombin time (INR)) cannot be collected by a home kit (test_method home); its collection_methods: practitioner';

async function profile(language: 'en' | 'de' | 'fi' = 'en'): Promise<string> {
  const res = await api.post(
    '/api/v1/profiles',
    { profile_group_slug: 'demo-clinic', first_name: 'Erika', last_name: 'Muster', date_of_birth: '1980-02-03', language },
    key,
  );
  expect(res.status).toBe(201);
  return res.body.id;
}

async function kit(language: 'en' | 'de' | 'fi' = 'en'): Promise<string> {
  const res = await api.post('/api/v1/home-kit-orders', { profile_id: await profile(language), delivery_address: { location_id: BERLIN_MITTE } }, key);
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Every item of a partition as stored, canonical: what a refused request must leave as it was. */
async function partition(pk: string): Promise<string> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({ TableName: tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }),
  );
  return canonical(Items);
}

/**
 * A catalog test under a new id: HbA1c's record with `changes`, a field set to undefined left out (as a record
 * stored before issue #50's data apply lacks it); then read into the catalog the functions cache.
 */
async function catalogTest(id: number, changes: { [field in keyof BiomarkerRecord]?: BiomarkerRecord[field] | undefined }): Promise<void> {
  const record = { ...BIOMARKERS.find((biomarker) => biomarker.id === 6)!, id, name: `Test ${id}`, ...changes };
  await putBiomarker(Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as unknown as BiomarkerRecord);
  await loadCatalog({ fresh: true });
}

describe('attaching a test a home kit cannot collect', () => {
  it('answers 400 naming the biomarker and the method, and stores nothing', async () => {
    const id = await kit();
    const before = await partition(keys.homeKitOrder(id).PK);
    const res = await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [5, 11] }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: INR_REFUSED });
    expect(await partition(keys.homeKitOrder(id).PK)).toBe(before);
  });

  it('answers 400 naming the panel and the method for a panel of venous tests, and stores nothing', async () => {
    const id = await kit();
    const before = await partition(keys.homeKitOrder(id).PK);
    const res = await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL, ESSENTIALS_PANEL] }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: `Panel ${ESSENTIALS_PANEL} (Essentials) cannot be collected by a home kit (test_method home); its collection_methods: practitioner`,
    });
    expect(await partition(keys.homeKitOrder(id).PK)).toBe(before);
  });

  it('attaches the tests a kit can take: vitamin D, HbA1c, the genetic tests and the Cardiogenetics panel', async () => {
    const id = await kit();
    expect((await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [5, 6, 100, 101, 102] }, key)).status).toBe(200);
    const res = await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
    expect(res.status).toBe(200);
    expect(res.body.individual_biomarkers.map((link: { biomarker_id: number }) => link.biomarker_id)).toEqual([5, 6, 100, 101, 102]);
    expect(res.body.panels).toEqual([{ panel_id: CARDIOGENETICS_PANEL, added_at: expect.any(String) }]);
  });

  it('attaches a test stored before the catalog had collection methods (no field): not refused', async () => {
    await catalogTest(2001, { collection_methods: undefined });
    const id = await kit();
    const res = await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [2001] }, key);
    expect(res.status).toBe(200);
    expect(res.body.individual_biomarkers).toEqual([{ biomarker_id: 2001, added_at: expect.any(String) }]);
  });
});

describe('attaching to an appointment at a location (a practitioner draws it)', () => {
  it('attaches every seeded test and panel, the venous-only INR and the home tests included', async () => {
    const id = await scheduleAppointment(api, key);
    expect((await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [11, 5, 100] }, key)).status).toBe(200);
    const panels = [ESSENTIALS_PANEL, HEART_PANEL, THYROID_PANEL, CARDIOGENETICS_PANEL];
    expect((await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: panels }, key)).status).toBe(200);
    const { body } = await api.get(`/api/v1/appointments/${id}`, key);
    expect(body.individual_biomarkers.map((link: { biomarker_id: number }) => link.biomarker_id).sort((a: number, b: number) => a - b)).toEqual([5, 11, 100]);
    expect(body.panels.map((link: { panel_id: string }) => link.panel_id).sort()).toEqual([...panels].sort());
  });

  it('answers 400 naming a home-only test and the practitioner method, and stores nothing', async () => {
    await catalogTest(2002, { name: 'Home only', collection_methods: ['home'] });
    const id = await scheduleAppointment(api, key);
    const before = await partition(keys.appointment(id).PK);
    const res = await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2002] }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "Biomarker 2002 (Home only) cannot be collected by a practitioner's draw (test_method practitioner); its collection_methods: home",
    });
    expect(await partition(keys.appointment(id).PK)).toBe(before);
  });
});

describe('tests attached before the rule are never judged again', () => {
  it('confirms the draw of an appointment holding a test its method cannot collect', async () => {
    await catalogTest(2003, { name: 'Home only too', collection_methods: ['home'] });
    const id = await scheduleAppointment(api, key);
    // As stored before the rule existed: the link written as the attach of that time wrote it.
    await attachTests(id, { biomarkerIds: [2003] }, new Date().toISOString());
    const res = await api.post(`/api/v1/appointments/${id}/confirm`, { barcode: newBarcode() }, key);
    expect(res.status).toBe(200);
    expect((await api.get(`/api/v1/appointments/${id}`, key)).body).toMatchObject({ status: 'blood_drawn', individual_biomarkers: [{ biomarker_id: 2003 }] });
  });

  it('dispatches and activates a kit holding the venous-only INR, and orders it from the lab', async () => {
    const id = await kit();
    await attachKitTests(await getHomeKitOrderOrThrow(id), { biomarkerIds: [11] }, new Date().toISOString());
    expect((await api.post(`/api/v1/home-kit-orders/${id}/dispatch`, { tracking_number: 'DHL-5001' }, key)).status).toBe(200);
    eventBridge.client.resetHistory();
    const res = await api.post(`/api/v1/home-kit-orders/${id}/activate`, { barcode: newBarcode() }, key);
    expect(res.status).toBe(200);
    const order = eventBridge.entries().find((entry) => entry.DetailType === 'LabOrderRequested');
    expect(JSON.parse(order?.Detail as string)).toMatchObject({ appointment_id: res.body.appointment_id, biomarker_ids: [11] });
  });
});

describe('preparation: what the patient must know', () => {
  it('answers the strictest fasting and the distinct instructions in German for a German profile', async () => {
    const id = await scheduleAppointment(api, key, { profileId: await profile('de') });
    await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [HEART_PANEL, THYROID_PANEL] }, key);
    const res = await api.get(`/api/v1/appointments/${id}`, key);
    expect(res.status).toBe(200);
    // TSH (3) and free T4 (4) share one instruction, as do LDL (7) and triglycerides (9), whose 12 hours are the strictest.
    expect(res.body.preparation).toEqual({ fasting_hours: 12, instructions: [instructions(3).de, instructions(7).de] });
  });

  it("answers a kit's instructions in Finnish for a Finnish profile", async () => {
    const id = await kit('fi');
    const res = await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [5, 100, 101] }, key);
    expect(res.status).toBe(200);
    expect(res.body.preparation).toEqual({ fasting_hours: 0, instructions: [instructions(100).fi] });
  });

  it('answers no fasting and no instruction, and no container, for an order without tests', async () => {
    const appointment = await api.get(`/api/v1/appointments/${await scheduleAppointment(api, key)}`, key);
    expect(appointment.body).toMatchObject({ preparation: { fasting_hours: 0, instructions: [] }, specimens_to_collect: [] });
    const order = await api.get(`/api/v1/home-kit-orders/${await kit()}`, key);
    expect(order.body).toMatchObject({ preparation: { fasting_hours: 0, instructions: [] }, specimens_to_collect: [] });
  });
});

describe('specimens_to_collect: the containers to draw or fill', () => {
  it('counts the tubes of the Essentials, Heart health and Thyroid panels and a lone INR, in biomarker id order', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [THYROID_PANEL, HEART_PANEL, ESSENTIALS_PANEL] }, key);
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [11] }, key);
    const res = await api.get(`/api/v1/appointments/${id}`, key);
    // Serum of 1, 3, 4, 7, 8, 9, 10: 7 × 0.5 ml = 3.5 ml, two SSTs of 2.5 ml; HbA1c and vitamin D share one card.
    expect(res.body.specimens_to_collect).toEqual([
      { type: 'serum', container: 'SST (gold)', count: 2 },
      { type: 'whole_blood', container: 'EDTA (lavender)', count: 1 },
      { type: 'capillary_blood', container: 'dried blood spot card', count: 1 },
      { type: 'plasma', container: 'sodium citrate (light blue)', count: 1 },
    ]);
  });

  it('draws a test once when it is in a panel and attached alone too', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [HEART_PANEL] }, key);
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [7, 8] }, key);
    // Four serum tests, 2 ml: one SST. LDL (7) and HDL (8) counted twice would be 3 ml, two tubes.
    expect((await api.get(`/api/v1/appointments/${id}`, key)).body.specimens_to_collect).toEqual([{ type: 'serum', container: 'SST (gold)', count: 1 }]);
  });

  it("fills one saliva tube with a kit's three genetic tests and one card with its two blood spot tests", async () => {
    const id = await kit();
    await api.post(`/api/v1/home-kit-orders/${id}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key);
    const res = await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [101, 6, 5] }, key);
    expect(res.body.specimens_to_collect).toEqual([
      { type: 'capillary_blood', container: 'dried blood spot card', count: 1 },
      { type: 'saliva', container: 'saliva collection tube', count: 1 },
    ]);
  });

  it("answers the same on the list of a profile's kits as on the kit", async () => {
    const id = await kit('de');
    await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [5, 100] }, key);
    const one = (await api.get(`/api/v1/home-kit-orders/${id}`, key)).body;
    const list = await api.get(`/api/v1/profiles/${one.profile_id}/home-kit-orders`, key);
    expect(list.body[0]).toMatchObject({ preparation: one.preparation, specimens_to_collect: one.specimens_to_collect });
    expect(one.specimens_to_collect).toHaveLength(2);
    expect(one.preparation.instructions).toEqual([instructions(100).de]);
  });

  it('skips a test stored before the catalog had a specimen and a preparation, answering the others (never a 500)', async () => {
    await catalogTest(2004, { specimen: undefined, preparation: undefined, collection_methods: undefined });
    const id = await kit();
    const res = await api.post(`/api/v1/home-kit-orders/${id}/biomarkers`, { biomarker_ids: [2004, 100] }, key);
    expect(res.status).toBe(200);
    expect(res.body.preparation).toEqual({ fasting_hours: 0, instructions: [instructions(100).en] });
    expect(res.body.specimens_to_collect).toEqual([{ type: 'saliva', container: 'saliva collection tube', count: 1 }]);
  });

  it('answers them on a cancelled appointment too (the cancel answer), and not on the list of appointments', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [9] }, key);
    const cancelled = await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'patient ill' }, key);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ preparation: { fasting_hours: 12 }, specimens_to_collect: [{ type: 'serum', container: 'SST (gold)', count: 1 }] });
    const list = await api.get(`/api/v1/profiles/${cancelled.body.profile_id}/appointments`, key);
    expect(list.body[0]).not.toHaveProperty('preparation');
    expect(list.body[0]).not.toHaveProperty('specimens_to_collect');
  });
});
