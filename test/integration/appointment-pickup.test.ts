/** POST /api/v1/appointments/pickup: a courier's batch, moved in one transaction or not at all. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { confirmDraw, scheduleAppointment, storedAppointment } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;
let courier: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
  courier = await apiKey({ scopes: ['TEST_SESSIONS_OPERATE'] });
});

async function drawnAppointment(): Promise<string> {
  const id = await scheduleAppointment(api, key);
  await confirmDraw(api, key, id);
  return id;
}

const pickup = (ids: string[], withKey = courier) => api.post('/api/v1/appointments/pickup', { appointment_ids: ids }, withKey);

describe('POST /api/v1/appointments/pickup', () => {
  it('moves every blood_drawn appointment to in_transit, recording picked_up_at', async () => {
    const [a, b] = [await drawnAppointment(), await drawnAppointment()];
    const res = await pickup([a, b]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    for (const id of [a, b]) expect(await storedAppointment(id)).toMatchObject({ status: 'in_transit', picked_up_at: expect.any(String) });
  });

  it('silently skips appointments already in transit, leaving their pickup time as it was', async () => {
    const a = await drawnAppointment();
    await pickup([a]);
    const firstPickup = (await storedAppointment(a)).picked_up_at;
    const b = await drawnAppointment();
    const res = await pickup([a, b]);
    expect(res.status).toBe(200);
    expect((await storedAppointment(a)).picked_up_at).toBe(firstPickup);
    expect((await storedAppointment(b)).status).toBe('in_transit');
  });

  it('counts a duplicated id once', async () => {
    const a = await drawnAppointment();
    const res = await pickup([a, a]);
    expect(res.status).toBe(200);
    expect((await storedAppointment(a)).status).toBe('in_transit');
  });

  it('answers 409 for a batch with a scheduled appointment and changes nothing at all', async () => {
    const drawn = await drawnAppointment();
    const scheduled = await scheduleAppointment(api, key);
    const res = await pickup([drawn, scheduled]);
    expect(res.status).toBe(409);
    expect(res.body.error).toContain(scheduled);
    expect((await storedAppointment(drawn)).status).toBe('blood_drawn');
  });

  it('answers 409 for a batch with a cancelled appointment', async () => {
    const cancelled = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${cancelled}/cancel`, { cancellation_reason: 'x' }, key);
    expect((await pickup([cancelled])).status).toBe(409);
  });

  it('answers 404 naming the unknown id and changes nothing', async () => {
    const drawn = await drawnAppointment();
    const res = await pickup([drawn, UNKNOWN_ID]);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Appointment(s) not found: ${UNKNOWN_ID}` });
    expect((await storedAppointment(drawn)).status).toBe('blood_drawn');
  });

  it('answers 403 when one appointment is outside the key context, and changes nothing', async () => {
    const drawn = await drawnAppointment();
    const partner = await apiKey({ profileGroups: ['partner-clinic'], scopes: ['TEST_SESSIONS_MANAGE'] });
    expect((await pickup([drawn], partner)).status).toBe(403);
    expect((await storedAppointment(drawn)).status).toBe('blood_drawn');
  });

  it.each([
    [{ appointment_ids: [] }, 'appointment_ids must not be empty'],
    [{ appointment_ids: ['x'] }, 'appointment_ids.0 must be a valid UUID'],
    [
      { appointment_ids: Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`) },
      'appointment_ids must list at most 100 distinct ids',
    ],
  ])('answers 400 for %#', async (body, message) => {
    const res = await api.post('/api/v1/appointments/pickup', body, courier);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it('answers 403 to a key with only TEST_SESSIONS_SCHEDULE', async () => {
    const drawn = await drawnAppointment();
    expect((await pickup([drawn], await apiKey({ scopes: ['TEST_SESSIONS_SCHEDULE'] }))).status).toBe(403);
  });

  it('moves 100 appointments in one request', async () => {
    const ids = await Promise.all(Array.from({ length: 100 }, () => drawnAppointment()));
    const res = await pickup(ids);
    expect(res.status).toBe(200);
    const statuses = await Promise.all(ids.map(async (id) => (await storedAppointment(id)).status));
    expect(new Set(statuses)).toEqual(new Set(['in_transit']));
  });
});

describe('parallel pickups', () => {
  it('moves every appointment of 20 overlapping batches to in_transit exactly once', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, () => drawnAppointment()));
    const before = await Promise.all(ids.map(storedAppointment));
    const batches = Array.from({ length: 20 }, (_, i) => [ids[i % 10], ids[(i + 1) % 10], ids[(i + 3) % 10]] as string[]);
    const results = await Promise.all(batches.map((batch) => pickup(batch)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const after = await Promise.all(ids.map(storedAppointment));
    expect(after.map((item) => item.status)).toEqual(Array(10).fill('in_transit'));
    // nothing but the pickup changed
    after.forEach((item, i) => {
      const { status: _s, picked_up_at: _p, updated_at: _u, history_seq: _h, ...rest } = item;
      const { status: _bs, picked_up_at: _bp, updated_at: _bu, history_seq: _bh, ...restBefore } = before[i] as Record<string, unknown>;
      expect(rest).toEqual(restBefore);
    });
  });
});
