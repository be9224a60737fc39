/** POST /api/v1/appointments/{id}/panels and /biomarkers. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { confirmDraw, ESSENTIALS_PANEL, scheduleAppointment, THYROID_PANEL } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const getAppointment = async (id: string) => (await api.get(`/api/v1/appointments/${id}`, key)).body;

describe('POST /api/v1/appointments/{id}/panels', () => {
  it('attaches panels and answers {success: true}', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL, THYROID_PANEL] }, key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await getAppointment(id)).panels.map((p: { panel_id: string }) => p.panel_id).sort()).toEqual([ESSENTIALS_PANEL, THYROID_PANEL].sort());
  });

  it('keeps the added_at of the first attachment when a panel is attached again', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL] }, key);
    const first = (await getAppointment(id)).panels[0].added_at;
    await new Promise((r) => setTimeout(r, 5));
    await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL, THYROID_PANEL] }, key);
    const panels = (await getAppointment(id)).panels;
    expect(panels.find((p: { panel_id: string }) => p.panel_id === ESSENTIALS_PANEL).added_at).toBe(first);
  });

  it('lists a panel once when the request names it twice', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [THYROID_PANEL, THYROID_PANEL] }, key);
    expect((await getAppointment(id)).panels).toHaveLength(1);
  });

  it('answers 404 naming the unknown panel and attaches none of the others', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL, UNKNOWN_ID] }, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Panel(s) not found: ${UNKNOWN_ID}` });
    expect((await getAppointment(id)).panels).toEqual([]);
  });

  it.each([
    [{ panel_ids: [] }, 'panel_ids must not be empty'],
    [{ panel_ids: ['not-a-uuid'] }, 'panel_ids.0 must be a valid UUID'],
    [{ panel_ids: ESSENTIALS_PANEL }, 'panel_ids must be an array'],
    [{}, 'panel_ids is required'],
  ])('answers 400 for %j', async (body, message) => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/panels`, body, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it('answers 400 for more than 50 distinct panel ids', async () => {
    const id = await scheduleAppointment(api, key);
    const ids = Array.from({ length: 51 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const res = await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: ids }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'panel_ids must list at most 50 distinct ids' });
  });

  it('answers 404 for an unknown appointment', async () => {
    const res = await api.post(`/api/v1/appointments/${UNKNOWN_ID}/panels`, { panel_ids: [ESSENTIALS_PANEL] }, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Appointment not found' });
  });

  it('answers 403 for an appointment outside the key context', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL] }, await apiKey({ profileGroups: ['partner-clinic'] }));
    expect(res.status).toBe(403);
  });

  it('answers 409 after the blood draw and attaches nothing', async () => {
    const id = await scheduleAppointment(api, key);
    await confirmDraw(api, key, id);
    const res = await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL] }, key);
    expect(res.status).toBe(409);
    expect((await getAppointment(id)).panels).toEqual([]);
  });

  it('answers 409 for a cancelled appointment', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'x' }, key);
    const res = await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL] }, key);
    expect(res.status).toBe(409);
  });
});

describe('POST /api/v1/appointments/{id}/biomarkers', () => {
  it('attaches individual biomarkers with their added_at', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [10, 5] }, key);
    expect(res.status).toBe(200);
    const biomarkers = (await getAppointment(id)).individual_biomarkers;
    expect(biomarkers.map((b: { biomarker_id: number }) => b.biomarker_id)).toEqual([5, 10]);
    expect(biomarkers[0].added_at).toEqual(expect.stringMatching(/^\d{4}-/));
  });

  it('answers 404 naming the unknown biomarker ids and attaches nothing', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [1, 9999] }, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Biomarker(s) not found: 9999' });
    expect((await getAppointment(id)).individual_biomarkers).toEqual([]);
  });

  it.each([
    [{ biomarker_ids: [1.5] }, 'biomarker_ids.0 must be an integer'],
    [{ biomarker_ids: ['1'] }, 'biomarker_ids.0 must be a number'],
    [{ biomarker_ids: [0] }, 'biomarker_ids.0 must be a positive integer'],
    [{ biomarker_ids: [] }, 'biomarker_ids must not be empty'],
  ])('answers 400 for %j', async (body, message) => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/biomarkers`, body, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it('answers 409 after the blood draw', async () => {
    const id = await scheduleAppointment(api, key);
    await confirmDraw(api, key, id);
    const res = await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [1] }, key);
    expect(res.status).toBe(409);
  });
});
