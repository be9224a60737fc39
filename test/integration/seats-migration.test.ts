/**
 * `npm run data -- seats` (infra/data/seats.ts): appointments booked before seats existed take their seats,
 * once. Their items are written as the service stored them then: no holds_seat, no ends_at.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { seatLegacyAppointments } from '../../infra/data/seats';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_PRENZLAUER_BERG, seedDemoData } from '../support/fixtures';
import { createProfile, slotIn, storedAppointment } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

async function legacyAppointment(options: { status?: string } = {}): Promise<{ id: string; profileId: string; start: string }> {
  const profileId = await createProfile(api, key);
  const [id, start] = [randomUUID(), slotIn(5, BERLIN_PRENZLAUER_BERG)];
  const item = {
    id,
    profile_id: profileId,
    profile_group_slug: 'demo-clinic',
    location_id: BERLIN_PRENZLAUER_BERG,
    scheduled_at: start,
    status: options.status ?? 'scheduled',
    test_method: 'practitioner',
    cancellation_reason: null,
    barcode: null,
    blood_drawn_at: null,
    picked_up_at: null,
    created_at: '2026-11-01T09:00:00Z',
    updated_at: null,
  };
  await dynamo.send(new PutCommand({ TableName: tableName, Item: { ...keys.appointment(id), ...item } }));
  return { id, profileId, start };
}

const seatHolders = async (start: string) => {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.seats(BERLIN_PRENZLAUER_BERG, start), ConsistentRead: true }));
  return [...((Item?.appointment_ids as Set<string> | undefined) ?? [])];
};
const book = (profileId: string, start: string) =>
  api.post('/api/v1/appointments', { profile_id: profileId, location_id: BERLIN_PRENZLAUER_BERG, scheduled_at: start }, key);

describe('npm run data -- seats', () => {
  it('gives a scheduled appointment booked before seats its seat, so its slot is full', async () => {
    const legacy = await legacyAppointment();
    await seatLegacyAppointments();
    expect(await seatHolders(legacy.start)).toEqual([legacy.id]);
    expect((await book(await createProfile(api, key), legacy.start)).status).toBe(409);
  });

  it("counts it among the person's bookings: an overlapping booking of the same person answers 409", async () => {
    const legacy = await legacyAppointment();
    await seatLegacyAppointments();
    const res = await api.post(
      '/api/v1/appointments',
      { profile_id: legacy.profileId, location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01', scheduled_at: legacy.start },
      key,
    );
    expect(res.body).toEqual({ error: `This person already has appointment ${legacy.id} at ${legacy.start}, which overlaps this slot` });
  });

  it('changes nothing when run again', async () => {
    const legacy = await legacyAppointment();
    await seatLegacyAppointments();
    const before = await storedAppointment(legacy.id);
    expect(await seatLegacyAppointments()).toEqual({ seated: 0, skipped: 0 });
    expect([await storedAppointment(legacy.id), await seatHolders(legacy.start)]).toEqual([before, [legacy.id]]);
  });

  it('frees the seat when the appointment is then cancelled', async () => {
    const legacy = await legacyAppointment();
    await seatLegacyAppointments();
    await api.post(`/api/v1/appointments/${legacy.id}/cancel`, { cancellation_reason: 'Patient ill' }, key);
    expect(await seatHolders(legacy.start)).toEqual([]);
  });

  it('gives a cancelled appointment no seat', async () => {
    const legacy = await legacyAppointment({ status: 'cancelled' });
    await seatLegacyAppointments();
    expect(await seatHolders(legacy.start)).toEqual([]);
  });
});
