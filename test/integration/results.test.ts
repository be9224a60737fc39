/**
 * LabResultsReported ingest and GET /api/v1/appointments/{id}/results: planned vs received, partial and
 * complete reports, duplicates, out-of-order reports, genetic results, and reports that must be refused.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { apoe, clinical, deliver, report } from '../support/lab';
import { confirmDraw, scheduleAppointment, THYROID_PANEL } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

/** A drawn appointment planning the thyroid panel (biomarkers 3, 4) and biomarker 10 individually. */
async function drawnAppointment(options: { genetic?: boolean } = {}): Promise<{ id: string; barcode: string }> {
  const id = await scheduleAppointment(api, key);
  await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [THYROID_PANEL] }, key);
  await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: options.genetic ? [10, 100] : [10] }, key);
  const barcode = await confirmDraw(api, key, id);
  return { id, barcode };
}

const results = async (id: string) => (await api.get(`/api/v1/appointments/${id}/results`, key)).body;
const statusOf = async (id: string) => (await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.appointment(id) }))).Item?.status;
const byId = (items: { biomarker_id: number }[], id: number) => items.find((item) => item.biomarker_id === id);

describe('GET /api/v1/appointments/{id}/results', () => {
  it('lists every planned clinical biomarker as planned, with null values, before any report', async () => {
    const { id } = await drawnAppointment();
    const body = await results(id);
    expect(body.status).toBe('in_progress');
    expect(body.clinical_results.map((r: { biomarker_id: number }) => r.biomarker_id)).toEqual([3, 4, 10]);
    expect(body.clinical_results[0]).toEqual({
      status: 'planned',
      result_status: null,
      biomarker_id: 3,
      biomarker_name: 'TSH',
      category: 'Thyroid',
      value: null,
      value_operator: null,
      unit_id: null,
      unit: null,
      reference_range_lab: null,
      reference_range_service: { normal_min: 0.4, normal_max: 4, optimal_min: 0.5, optimal_max: 2.5 },
      interpretation: null,
      tested_at: null,
      comment: null,
    });
    expect(body.genetic_results).toEqual([]);
    expect(body.documents).toEqual([]);
  });

  it('answers 403 to a key without RESULTS_VIEW', async () => {
    const { id } = await drawnAppointment();
    const res = await api.get(`/api/v1/appointments/${id}/results`, await apiKey({ scopes: ['TEST_SESSIONS_VIEW'] }));
    expect(res.status).toBe(403);
  });

  it('answers 403 for an appointment outside the key context', async () => {
    const { id } = await drawnAppointment();
    const res = await api.get(`/api/v1/appointments/${id}/results`, await apiKey({ profileGroups: ['partner-clinic'] }));
    expect(res.status).toBe(403);
  });

  it('answers 404 for an unknown appointment', async () => {
    expect((await api.get(`/api/v1/appointments/${UNKNOWN_ID}/results`, key)).status).toBe(404);
  });

  it('answers 400 for an id that is not a UUID', async () => {
    expect((await api.get('/api/v1/appointments/nope/results', key)).status).toBe(400);
  });
});

describe('LabResultsReported ingest', () => {
  it('stores a partial report: received values next to planned ones, the appointment not completed', async () => {
    const { id } = await drawnAppointment();
    expect(await deliver(report(id, { clinical_results: [clinical(3, 2.1)] }))).toEqual({ outcome: 'stored' });
    const body = await results(id);
    expect(byId(body.clinical_results, 3)).toMatchObject({ status: 'received', value: 2.1, value_operator: 'eq', unit: 'ng/mL', tested_at: '2026-11-20' });
    expect(byId(body.clinical_results, 4)).toMatchObject({ status: 'planned', value: null });
    expect(body.status).toBe('in_progress');
    expect(await statusOf(id)).toBe('blood_drawn');
  });

  it('completes the appointment when every planned result is in, and puts one LabResultsAvailable', async () => {
    const { id } = await drawnAppointment();
    await api.post('/api/v1/appointments/pickup', { appointment_ids: [id] }, key);
    eventBridge.client.resetHistory();
    await deliver(report(id, { clinical_results: [clinical(3, 2.1), clinical(4, 1.2)] }));
    await deliver(report(id, { clinical_results: [clinical(10, 0.4)] }));
    expect(await statusOf(id)).toBe('completed');
    expect((await results(id)).status).toBe('completed');
    const available = eventBridge.entries().filter((e) => e.DetailType === 'LabResultsAvailable');
    expect(available).toHaveLength(1);
    expect(JSON.parse(available[0]?.Detail as string)).toMatchObject({ appointment_id: id, profile_group_slug: 'demo-clinic' });
  });

  it('stores a report sent twice with the same event_id once', async () => {
    const { id } = await drawnAppointment();
    const first = report(id, { clinical_results: [clinical(3, 2.1)] });
    await deliver(first);
    const again = await deliver({ ...first, clinical_results: [clinical(3, 9.9)] });
    expect(again).toEqual({ outcome: 'duplicate' });
    expect(byId((await results(id)).clinical_results, 3)).toMatchObject({ value: 2.1 });
  });

  it('refuses an older report that arrives after a newer one, naming the test, and keeps the newer value', async () => {
    const { id } = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(3, 2.5, '2026-11-21')] }));
    await expect(deliver(report(id, { clinical_results: [clinical(3, 1.0, '2026-11-19')] }))).rejects.toThrow(
      'biomarker 3: it is older than the final value stored',
    );
    expect(byId((await results(id)).clinical_results, 3)).toMatchObject({ value: 2.5, tested_at: '2026-11-21' });
  });

  it('refuses a whole report when one of its results is older than the stored one, storing none of the others', async () => {
    const { id } = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(3, 2.5, '2026-11-21')] }));
    await expect(deliver(report(id, { clinical_results: [clinical(4, 1.2, '2026-11-21'), clinical(3, 1.0, '2026-11-19')] }))).rejects.toThrow('biomarker 3');
    expect(byId((await results(id)).clinical_results, 4)).toMatchObject({ status: 'planned' });
  });

  it('refuses a report dated more than 5 minutes ahead of the service clock and stores nothing', async () => {
    const { id } = await drawnAppointment();
    const ahead = new Date(Date.now() + 6 * 60_000).toISOString();
    await expect(deliver(report(id, { reported_at: ahead, clinical_results: [clinical(3, 2.1)] }))).rejects.toThrow(
      'reported_at is more than 5 minutes ahead of the service',
    );
    expect(byId((await results(id)).clinical_results, 3)).toMatchObject({ status: 'planned' });
  });

  it('accepts a report whose clock leads the service by less than 5 minutes', async () => {
    const { id } = await drawnAppointment();
    const ahead = new Date(Date.now() + 4 * 60_000).toISOString();
    expect(await deliver(report(id, { reported_at: ahead, clinical_results: [clinical(3, 2.1)] }))).toEqual({ outcome: 'stored' });
  });

  it('refuses a report whose test is dated later than the day after the report', async () => {
    const { id } = await drawnAppointment();
    await expect(deliver(report(id, { reported_at: '2026-11-20T10:00:00Z', clinical_results: [clinical(3, 2.1, '2026-11-22')] }))).rejects.toThrow(
      'tested_at is later than the day after reported_at for biomarker(s) 3',
    );
  });

  it('refuses a value of 1e309 (Infinity once parsed) with a reason naming the field, and stores nothing', async () => {
    const { id } = await drawnAppointment();
    const detail = JSON.parse(JSON.stringify(report(id, { clinical_results: [clinical(4, 1), clinical(3, 7)] })).replace('"value":7', '"value":1e309'));
    expect(detail.clinical_results[1].value).toBe(Infinity);
    await expect(deliver(detail)).rejects.toThrow('clinical_results.1.value: must be a finite number of magnitude 1E-130 to 9007199254740991 (2^53 - 1), or 0');
    expect(byId((await results(id)).clinical_results, 4)).toMatchObject({ status: 'planned' });
  });

  it('refuses a value smaller than the table holds (1e-200) with a reason naming the field', async () => {
    const { id } = await drawnAppointment();
    await expect(deliver(report(id, { clinical_results: [clinical(3, 1e-200)] }))).rejects.toThrow('clinical_results.0.value');
  });

  it('refuses a reference range bound beyond what the table gives back as the same number (1e16) with a reason naming it', async () => {
    const { id } = await drawnAppointment();
    const bad = { ...clinical(3, 2), reference_range_lab: { normal_min: 0, normal_max: 1e16, optimal_min: null, optimal_max: null } };
    await expect(deliver(report(id, { clinical_results: [bad] }))).rejects.toThrow('clinical_results.0.reference_range_lab.normal_max');
  });

  it('refuses a report with a field the schema does not have, saying where and never its name (a lab may name it anything)', async () => {
    const { id } = await drawnAppointment();
    const error = await deliver(report(id, { clinical_results: [{ ...clinical(3, 2), 'Erika Muster 1984-08-12': true }] })).catch((e: Error) => e);
    expect((error as Error).message).toContain('clinical_results.0: a field the schema does not have');
    expect((error as Error).message).not.toContain('Erika');
  });

  it('refuses a unit_id beyond a safe integer with a reason naming the field', async () => {
    const { id } = await drawnAppointment();
    await expect(deliver(report(id, { clinical_results: [{ ...clinical(3, 2), unit_id: 1e20 }] }))).rejects.toThrow('clinical_results.0.unit_id');
  });

  it('stores and answers a value of 0, one of 1E-130 and one of 2^53 - 1 as sent', async () => {
    const { id } = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(3, 1e-130), clinical(4, Number.MAX_SAFE_INTEGER), clinical(10, 0)] }));
    const stored = (await results(id)).clinical_results;
    expect([3, 4, 10].map((biomarker) => byId(stored, biomarker))).toMatchObject([{ value: 1e-130 }, { value: Number.MAX_SAFE_INTEGER }, { value: 0 }]);
  });

  it('replaces a result with a newer report of the same biomarker', async () => {
    const { id } = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(3, 2.5, '2026-11-19')] }));
    await deliver(report(id, { clinical_results: [clinical(3, 3.1, '2026-11-21')] }));
    expect(byId((await results(id)).clinical_results, 3)).toMatchObject({ value: 3.1 });
  });

  it('lists a received result for a biomarker that was not planned', async () => {
    const { id } = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(1, 88)] }));
    expect(byId((await results(id)).clinical_results, 1)).toMatchObject({ status: 'received', biomarker_name: 'Ferritin', value: 88 });
  });

  it('lists a planned genetic test as planned, with its gene and every other field null, until the lab reports it', async () => {
    const { id } = await drawnAppointment({ genetic: true });
    await deliver(report(id, { clinical_results: [clinical(3, 2.1), clinical(4, 1.2), clinical(10, 0.4)] }));
    const body = await results(id);
    expect(body.genetic_results).toEqual([
      {
        status: 'planned',
        result_status: null,
        biomarker_id: 100,
        gene: 'APOE',
        genotype: null,
        clinical_significance: null,
        risk_description: null,
        tested_at: null,
        comment: null,
        variants: null,
      },
    ]);
    expect(body.status).toBe('in_progress');
  });

  it('completes the results only when the planned genetic test is received too', async () => {
    const { id } = await drawnAppointment({ genetic: true });
    await api.post('/api/v1/appointments/pickup', { appointment_ids: [id] }, key);
    await deliver(report(id, { clinical_results: [clinical(3, 2.1), clinical(4, 1.2), clinical(10, 0.4)] }));
    expect(await statusOf(id)).toBe('in_transit');
    await deliver(report(id, { genetic_results: [apoe] }));
    expect(await statusOf(id)).toBe('completed');
    expect((await results(id)).status).toBe('completed');
  });

  it('stores genetic results with their variants, conditions and SNVs', async () => {
    const { id } = await drawnAppointment({ genetic: true });
    await deliver(report(id, { genetic_results: [apoe] }));
    const body = await results(id);
    expect(body.genetic_results).toEqual([{ status: 'received', result_status: 'final', ...apoe }]);
    expect(body.clinical_results.map((r: { biomarker_id: number }) => r.biomarker_id)).toEqual([3, 4, 10]);
  });

  it('finds the appointment by barcode when the lab sends no appointment_id', async () => {
    const { id, barcode } = await drawnAppointment();
    await deliver({ ...report(id, { clinical_results: [clinical(4, 1.1)] }), appointment_id: undefined, barcode });
    expect(byId((await results(id)).clinical_results, 4)).toMatchObject({ status: 'received' });
  });

  it('refuses a report for an unknown appointment, so that it goes to the dead-letter queue', async () => {
    await expect(deliver(report(UNKNOWN_ID, { clinical_results: [clinical(3, 1)] }))).rejects.toThrow(`unknown appointment ${UNKNOWN_ID}`);
  });

  it('refuses a report with an unknown biomarker and stores none of its other results', async () => {
    const { id } = await drawnAppointment();
    await expect(deliver(report(id, { clinical_results: [clinical(3, 1), clinical(4242, 1)] }))).rejects.toThrow('unknown biomarker(s) or wrong kind: 4242');
    expect(byId((await results(id)).clinical_results, 3)).toMatchObject({ status: 'planned' });
  });

  it('refuses a report whose value is not a number and stores nothing', async () => {
    const { id } = await drawnAppointment();
    await expect(deliver(report(id, { clinical_results: [clinical(3, 1), { ...clinical(4, 1), value: '1.2' }] }))).rejects.toThrow(
      'invalid LabResultsReported payload',
    );
    expect(byId((await results(id)).clinical_results, 3)).toMatchObject({ status: 'planned' });
  });

  it('refuses a report that lists one biomarker twice and stores nothing', async () => {
    const { id } = await drawnAppointment();
    await expect(deliver(report(id, { clinical_results: [clinical(3, 1), clinical(3, 2)] }))).rejects.toThrow('invalid LabResultsReported payload');
    expect(byId((await results(id)).clinical_results, 3)).toMatchObject({ status: 'planned' });
  });

  it('refuses a report for an appointment whose blood was never drawn', async () => {
    const id = await scheduleAppointment(api, key);
    await expect(deliver(report(id, { clinical_results: [clinical(3, 1)] }))).rejects.toThrow('no sample was drawn');
  });
});
