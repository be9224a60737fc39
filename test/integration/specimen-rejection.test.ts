/**
 * Rejected specimens and recollection (issue #29): the lab rejects a whole sample or named tests with a
 * reason, those tests are not performed, and a new appointment draws them again. Also: a draw needs
 * something to test, and the drawn appointment shows its barcode.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { fhirErrors } from '../support/fhir-schema';
import { apiKey, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/event-types';
import { clinical, deliver, report } from '../support/lab';
import { dispatchPut, startReceiver } from '../support/webhooks';
import { confirmDraw, createProfile, newBarcode, scheduleAppointment, slotIn } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

/** A drawn appointment of a new person planning haemoglobin (2) and TSH (3). */
async function drawnAppointment(profileId?: string): Promise<{ id: string; profileId: string }> {
  const person = profileId ?? (await createProfile(api, key));
  const id = await scheduleAppointment(api, key, { profileId: person });
  await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2, 3] }, key);
  await confirmDraw(api, key, id);
  return { id, profileId: person };
}

const reject = (id: string, rejection: Record<string, unknown>) => deliver(report(id, { rejection }));
const results = async (id: string) => (await api.get(`/api/v1/appointments/${id}/results`, key)).body;
const book = (body: Record<string, unknown>) => api.post('/api/v1/appointments', { location_id: BERLIN_MITTE, scheduled_at: slotIn(20), ...body }, key);

describe('a rejected specimen', () => {
  it('shows every planned test not performed, with the reason in its comment', async () => {
    const { id } = await drawnAppointment();
    await reject(id, { reason_code: 'haemolysed' });
    const items = (await results(id)).clinical_results.map((item: Record<string, unknown>) => [item.biomarker_id, item.status, item.value, item.comment]);
    expect(items).toEqual([
      [2, 'not_performed', null, 'Specimen rejected: haemolysed'],
      [3, 'not_performed', null, 'Specimen rejected: haemolysed'],
    ]);
  });

  it("gives the lab's own words when it sends a comment", async () => {
    const { id } = await drawnAppointment();
    await reject(id, { reason_code: 'insufficient_volume', comment: 'Tube half full', biomarker_ids: [3] });
    expect((await results(id)).clinical_results.map((item: { status: string; comment: string | null }) => [item.status, item.comment])).toEqual([
      ['planned', null],
      ['not_performed', 'Tube half full'],
    ]);
  });

  it('keeps a final value the lab had already sent for a test of the rejected sample', async () => {
    const { id } = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(2, 14)] }));
    await reject(id, { reason_code: 'clotted' });
    expect((await results(id)).clinical_results.map((item: { status: string }) => item.status)).toEqual(['received', 'not_performed']);
  });

  it('completes the results once every planned test has a value or was not performed', async () => {
    const { id } = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(2, 14)] }));
    await reject(id, { reason_code: 'clotted', biomarker_ids: [3] });
    expect((await results(id)).status).toBe('completed');
  });

  it('publishes SpecimenRejected with the tests and the reason code, and no value', async () => {
    const { id } = await drawnAppointment();
    await reject(id, { reason_code: 'haemolysed', comment: 'Visible haemolysis', biomarker_ids: [2] });
    const rejected = eventBridge.entries().filter((entry) => entry.DetailType === 'SpecimenRejected' && entry.Detail!.includes(id));
    expect(rejected.map((entry) => JSON.parse(entry.Detail!))).toEqual([
      {
        event_id: expect.any(String),
        occurred_at: expect.any(String),
        appointment_id: id,
        profile_id: expect.any(String),
        profile_group_slug: 'demo-clinic',
        biomarker_ids: [2],
        reason_code: 'haemolysed',
      },
    ]);
  });

  it('announces a draw whose every test was rejected by SpecimenRejected and the status change only, to a subscriber of every type', async () => {
    const hooks = await startReceiver();
    const subscribed = await api.post('/api/v1/webhooks', { url: hooks.url, event_types: [...WEBHOOK_EVENT_TYPES] }, await apiKey());
    expect(subscribed.status).toBe(201);
    const { id } = await drawnAppointment();
    eventBridge.client.resetHistory();
    await reject(id, { reason_code: 'clotted' });
    await dispatchPut(eventBridge);
    await hooks.close();
    const received = hooks.received.map((r) => JSON.parse(r.body) as { type: string; data: { appointment_id: string; status?: string } });
    expect(received.map((message) => [message.type, message.data.status ?? null]).sort()).toEqual([
      ['AppointmentStatusChanged', 'completed'],
      ['SpecimenRejected', null],
    ]);
  });

  it('still publishes LabResultsAvailable when a test of the rejected draw has a final value', async () => {
    const { id } = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(2, 14)] }));
    eventBridge.client.resetHistory();
    await reject(id, { reason_code: 'clotted', biomarker_ids: [3] });
    expect(eventBridge.entries().map((entry) => entry.DetailType)).toContain('LabResultsAvailable');
  });

  it('is refused when every test it names already has a final value: nothing to reject', async () => {
    const { id } = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(2, 14)] }));
    await expect(reject(id, { reason_code: 'clotted', biomarker_ids: [2] })).rejects.toThrow('the rejection names no test without a final value');
  });

  it('is refused whole when it names a test the appointment did not plan', async () => {
    const { id } = await drawnAppointment();
    await expect(reject(id, { reason_code: 'haemolysed', biomarker_ids: [9] })).rejects.toThrow();
    expect((await results(id)).clinical_results.map((item: { status: string }) => item.status)).toEqual(['planned', 'planned']);
  });

  it('exports a not performed test to FHIR as a cancelled Observation with dataAbsentReason not-performed', async () => {
    const { id } = await drawnAppointment();
    await reject(id, { reason_code: 'haemolysed', biomarker_ids: [2] });
    const bundle = JSON.parse((await api.get(`/api/v1/appointments/${id}/results/fhir`, key)).body as string);
    expect(fhirErrors(bundle)).toEqual([]);
    const observations = bundle.entry
      .map((entry: { resource: Record<string, unknown> }) => entry.resource)
      .filter((r: { resourceType: string }) => r.resourceType === 'Observation');
    expect(observations).toEqual([
      expect.objectContaining({
        status: 'cancelled',
        dataAbsentReason: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/data-absent-reason', code: 'not-performed', display: 'Not Performed' }] },
      }),
    ]);
  });
});

describe('POST /api/v1/appointments with recollection_of', () => {
  it('attaches the rejected tests and names the appointment it draws again', async () => {
    const { id, profileId } = await drawnAppointment();
    await reject(id, { reason_code: 'haemolysed', biomarker_ids: [3] });
    const created = await book({ profile_id: profileId, recollection_of: id });
    expect(created.status).toBe(201);
    expect(created.body.recollection_of).toBe(id);
    const appointment = (await api.get(`/api/v1/appointments/${created.body.id}`, key)).body;
    expect(appointment.individual_biomarkers.map((link: { biomarker_id: number }) => link.biomarker_id)).toEqual([3]);
  });

  it('answers 409 for an appointment with no rejected specimen', async () => {
    const { id, profileId } = await drawnAppointment();
    const res = await book({ profile_id: profileId, recollection_of: id });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `recollection_of: appointment ${id} has no rejected specimen to draw again` });
  });

  it("answers 400 for another person's appointment", async () => {
    const { id } = await drawnAppointment();
    await reject(id, { reason_code: 'haemolysed' });
    const res = await book({ profile_id: await createProfile(api, key), recollection_of: id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'recollection_of must be an appointment of the same profile' });
  });

  it('answers 404 for an unknown appointment', async () => {
    const res = await book({ profile_id: await createProfile(api, key), recollection_of: UNKNOWN_ID });
    expect(res.status).toBe(404);
  });

  it("answers 403 for an appointment outside the key's profile groups", async () => {
    const { id, profileId } = await drawnAppointment();
    await reject(id, { reason_code: 'haemolysed' });
    const narrow = await apiKey({ profileGroups: ['partner-clinic'] });
    const res = await api.post(
      '/api/v1/appointments',
      { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(20), recollection_of: id },
      narrow,
    );
    expect(res.status).toBe(403);
  });
});

describe('the draw', () => {
  it('answers 409 to a confirm with no panel and no biomarker, saying what to attach', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/confirm`, { barcode: newBarcode() }, key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'The appointment has no panel and no biomarker to test; attach them first (POST /appointments/{id}/panels or /biomarkers)',
    });
  });

  it('shows the barcode on the appointment once the blood is drawn', async () => {
    const id = await scheduleAppointment(api, key);
    expect((await api.get(`/api/v1/appointments/${id}`, key)).body.barcode).toBeNull();
    const barcode = await confirmDraw(api, key, id);
    expect((await api.get(`/api/v1/appointments/${id}`, key)).body.barcode).toBe(barcode);
  });
});
