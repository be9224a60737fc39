/**
 * The requisition a draw or a kit's activation makes (issue #50): its number, unique and unguessable,
 * shown on the appointment and the kit, and carried by LabOrderRequested (schema_version 2) with each
 * test's LOINC code and specimen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_DIR } from '../../infra/contract/event-schemas';
import { REQUISITION_NUMBER_PATTERN } from '../../shared/domain/requisition';
import { type BiomarkerRecord, loadCatalog, putBiomarker } from '../../shared/store/catalog';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_MITTE, BIOMARKERS, seedDemoData } from '../support/fixtures';
import { deliver, report } from '../support/lab';
import { confirmDraw, createProfile, drawableAppointment, newBarcode, scheduleAppointment, slotIn, storedAppointment } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

interface RequisitionSummary {
  number: string;
  created_at: string;
}

const appointment = async (id: string) =>
  (await api.get(`/api/v1/appointments/${id}`, key)).body as { requisition: RequisitionSummary | null; blood_drawn_at?: string };

/** The LabOrderRequested details put on the bus for this appointment. */
const labOrders = (appointmentId: string) =>
  eventBridge
    .entries()
    .filter((entry) => entry.DetailType === 'LabOrderRequested')
    .map((entry) => JSON.parse(entry.Detail as string))
    .filter((detail) => detail.appointment_id === appointmentId);

async function drawn(): Promise<string> {
  const id = await drawableAppointment(api, key);
  await confirmDraw(api, key, id);
  return id;
}

/** A dispatched kit with vitamin D (5) and HbA1c (6), both collectable at home, activated. */
async function activatedKit(): Promise<{ kitId: string; appointmentId: string; kit: { requisition: RequisitionSummary | null } }> {
  const created = await api.post(
    '/api/v1/home-kit-orders',
    { profile_id: await createProfile(api, key), delivery_address: { location_id: BERLIN_MITTE } },
    key,
  );
  const kitId = created.body.id as string;
  await api.post(`/api/v1/home-kit-orders/${kitId}/biomarkers`, { biomarker_ids: [5, 6] }, key);
  await api.post(`/api/v1/home-kit-orders/${kitId}/dispatch`, { tracking_number: 'DHL-0001' }, key);
  const activated = await api.post(`/api/v1/home-kit-orders/${kitId}/activate`, { barcode: newBarcode() }, key);
  return { kitId, appointmentId: activated.body.appointment_id, kit: activated.body };
}

describe('the requisition of a draw', () => {
  it('is null on a scheduled appointment', async () => {
    const id = await scheduleAppointment(api, key);
    expect((await appointment(id)).requisition).toBeNull();
  });

  it('is made when the draw is confirmed: RQ- and three groups of Crockford base32, dated at the draw', async () => {
    const id = await drawableAppointment(api, key);
    const before = Date.now();
    await confirmDraw(api, key, id);
    const { requisition } = await appointment(id);
    expect(requisition?.number).toMatch(REQUISITION_NUMBER_PATTERN);
    expect(Date.parse(requisition!.created_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('stays the same when the draw is confirmed again with the same barcode', async () => {
    const id = await drawableAppointment(api, key);
    const barcode = await confirmDraw(api, key, id);
    const first = (await appointment(id)).requisition;
    expect((await api.post(`/api/v1/appointments/${id}/confirm`, { barcode }, key)).status).toBe(200);
    expect((await appointment(id)).requisition).toEqual(first);
  });

  it('differs between draws, and each number is claimed once in the table, by its appointment', async () => {
    const ids = await Promise.all([drawn(), drawn(), drawn()]);
    const numbers = await Promise.all(ids.map(async (id) => (await appointment(id)).requisition!.number));
    expect(new Set(numbers).size).toBe(3);
    for (const [index, number] of numbers.entries()) {
      const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.requisition(number) }));
      expect(Item).toMatchObject({ number, appointment_id: ids[index] });
    }
  });

  it('puts a LabOrderRequested the published version 2 schema accepts', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2, 11, 100] }, key);
    await confirmDraw(api, key, id);
    const schema = JSON.parse(readFileSync(join(EVENTS_DIR, 'lab-order-requested.schema.json'), 'utf8'));
    const validate = addFormats(new Ajv({ strict: false, allErrors: true })).compile(schema);
    const [order] = labOrders(id);
    expect(validate(order), JSON.stringify(validate.errors)).toBe(true);
  });

  it("waits (503) while the catalog lacks a planned test's specimen, and records no draw", async () => {
    const { specimen, ...unmigrated } = BIOMARKERS.find((biomarker) => biomarker.id === 2)!;
    expect(specimen).toBeDefined();
    await putBiomarker({ ...unmigrated, id: 2901, name: 'Unmigrated' } as unknown as BiomarkerRecord);
    await loadCatalog({ fresh: true });
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2901] }, key);
    const res = await api.post(`/api/v1/appointments/${id}/confirm`, { barcode: newBarcode() }, key);
    expect(res.status).toBe(503);
    expect(res.body.error).toMatch(/^The test catalog lacks the LOINC code or specimen of a planned test/);
    expect(await storedAppointment(id)).toMatchObject({ status: 'scheduled', barcode: null });
    expect(labOrders(id)).toEqual([]);
  });

  it('is carried by the one LabOrderRequested of the draw, schema_version 2, with each test by its LOINC code and specimen', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2, 11] }, key);
    await confirmDraw(api, key, id);
    const [order, ...more] = labOrders(id);
    expect(more).toEqual([]);
    expect(order).toMatchObject({
      schema_version: 2,
      requisition_number: (await appointment(id)).requisition!.number,
      tests: [
        { biomarker_id: 2, loinc: '718-7', specimen: { type: 'whole_blood', container: 'EDTA (lavender)' } },
        { biomarker_id: 11, loinc: '34714-6', specimen: { type: 'plasma', container: 'sodium citrate (light blue)' } },
      ],
    });
  });

  it('is a new one for the recollection of a rejected specimen', async () => {
    const profileId = await createProfile(api, key);
    const first = await scheduleAppointment(api, key, { profileId });
    await api.post(`/api/v1/appointments/${first}/biomarkers`, { biomarker_ids: [2] }, key);
    await confirmDraw(api, key, first);
    await deliver(report(first, { rejection: { reason_code: 'haemolysed' } }));
    const booked = await api.post(
      '/api/v1/appointments',
      { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(20), recollection_of: first },
      key,
    );
    await confirmDraw(api, key, booked.body.id);
    const [original, recollection] = [await appointment(first), await appointment(booked.body.id)];
    expect(recollection.requisition?.number).toMatch(REQUISITION_NUMBER_PATTERN);
    expect(recollection.requisition?.number).not.toBe(original.requisition?.number);
  });
});

describe('the containers of a drawn appointment', () => {
  it('are those of its requisition, whatever the catalog says since', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2] }, key);
    await confirmDraw(api, key, id);
    const haemoglobin = BIOMARKERS.find((biomarker) => biomarker.id === 2)!;
    await putBiomarker({ ...haemoglobin, specimen: { type: 'serum', container: 'SST (gold)', min_volume_ml: 0.5 } } as BiomarkerRecord);
    await loadCatalog({ fresh: true });
    try {
      const scheduled = await scheduleAppointment(api, key);
      await api.post(`/api/v1/appointments/${scheduled}/biomarkers`, { biomarker_ids: [2] }, key);
      const tubes = async (appointmentId: string) => (await api.get(`/api/v1/appointments/${appointmentId}`, key)).body.specimens_to_collect;
      expect(await tubes(scheduled)).toEqual([{ type: 'serum', container: 'SST (gold)', count: 1 }]);
      expect(await tubes(id)).toEqual([{ type: 'whole_blood', container: 'EDTA (lavender)', count: 1 }]);
    } finally {
      await putBiomarker(haemoglobin as BiomarkerRecord);
      await loadCatalog({ fresh: true });
    }
  });
});

describe('the requisition of a home kit', () => {
  it('is null on a kit not yet activated', async () => {
    const created = await api.post(
      '/api/v1/home-kit-orders',
      { profile_id: await createProfile(api, key), delivery_address: { location_id: BERLIN_MITTE } },
      key,
    );
    expect(created.body.requisition).toBeNull();
  });

  it('is made at activation and shown alike on the kit and on the appointment it became', async () => {
    const { kit, appointmentId } = await activatedKit();
    expect(kit.requisition?.number).toMatch(REQUISITION_NUMBER_PATTERN);
    expect((await appointment(appointmentId)).requisition).toEqual(kit.requisition);
  });

  it("is the requisition_number of the kit's LabOrderRequested", async () => {
    const { kit, appointmentId } = await activatedKit();
    expect(labOrders(appointmentId).map((order) => order.requisition_number)).toEqual([kit.requisition?.number]);
  });
});
