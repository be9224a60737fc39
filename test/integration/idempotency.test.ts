/** Idempotency-Key on creates: a retried create answers the first result instead of creating twice. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { slotIn } from '../support/slots';
import { apiKey, BERLIN_MITTE, seedDemoData } from '../support/fixtures';

const api = useApi();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const profile = { profile_group_slug: 'demo-clinic', first_name: 'Ida', last_name: 'Empotent', date_of_birth: '1975-06-30' };

const create = (idempotencyKey: string | undefined, body: Record<string, unknown> = profile, withKey = key) =>
  api.request('POST', '/api/v1/profiles', {
    key: withKey,
    body,
    headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
  });

describe('Idempotency-Key', () => {
  it('answers a retried create with the first result, creating one profile', async () => {
    const idempotencyKey = randomUUID();
    const first = await create(idempotencyKey);
    const retry = await create(idempotencyKey);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
  });

  it('marks a replayed answer with Idempotent-Replayed: true', async () => {
    const idempotencyKey = randomUUID();
    await create(idempotencyKey);
    const retry = await create(idempotencyKey);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not mark the first answer as replayed', async () => {
    const first = await create(randomUUID());
    expect(first.headers.get('idempotent-replayed')).toBeNull();
  });

  it('creates again under another Idempotency-Key', async () => {
    const first = await create(randomUUID());
    const second = await create(randomUUID());
    expect(second.body.id).not.toBe(first.body.id);
  });

  it('creates every time without the header', async () => {
    const first = await create(undefined);
    const second = await create(undefined);
    expect(second.body.id).not.toBe(first.body.id);
  });

  it('answers 422 when a key is reused for a different body', async () => {
    const idempotencyKey = randomUUID();
    await create(idempotencyKey);
    const reused = await create(idempotencyKey, { ...profile, first_name: 'Other' });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ error: 'This Idempotency-Key was already used for a different request' });
  });

  it('keeps the first record when a reuse with another body is refused: a retry still replays', async () => {
    const idempotencyKey = randomUUID();
    const first = await create(idempotencyKey);
    expect((await create(idempotencyKey, { ...profile, first_name: 'Other' })).status).toBe(422);
    const retry = await create(idempotencyKey);
    expect(retry.body.id).toBe(first.body.id);
  });

  it('ignores an empty Idempotency-Key instead of sharing it between clients', async () => {
    const ours = await create('');
    const theirs = await create('', profile, await apiKey());
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(ours.body.id);
  });

  it('keeps the keys of two API keys apart', async () => {
    const idempotencyKey = randomUUID();
    const ours = await create(idempotencyKey);
    const theirs = await create(idempotencyKey, profile, await apiKey());
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(ours.body.id);
  });

  it('keeps the routes apart: the same key on POST /profiles, then on POST /appointments, creates both', async () => {
    const idempotencyKey = randomUUID();
    const profileCreated = await create(idempotencyKey);
    const body = { profile_id: profileCreated.body.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(3) };
    const appointment = await api.request('POST', '/api/v1/appointments', { key, body, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(profileCreated.status).toBe(201);
    expect(appointment.status).toBe(201);
    expect(appointment.body).toMatchObject({ profile_id: profileCreated.body.id, status: 'scheduled' });
  });

  it('does not remember a refused request: a corrected retry with the same key creates', async () => {
    const idempotencyKey = randomUUID();
    const refused = await create(idempotencyKey, { ...profile, profile_group_slug: 'no-such-group' });
    expect(refused.status).toBe(404);
    const corrected = await create(idempotencyKey);
    expect(corrected.status).toBe(201);
  });

  it('creates one appointment for 5 parallel creates with one key; the others wait or repeat it', async () => {
    const profileId = (await create(undefined)).body.id;
    const idempotencyKey = randomUUID();
    const body = {
      profile_id: profileId,
      location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
      scheduled_at: slotIn(3),
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => api.request('POST', '/api/v1/appointments', { key, body, headers: { 'Idempotency-Key': idempotencyKey } })),
    );
    for (const result of results) expect([201, 409]).toContain(result.status);
    const created = new Set(results.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(created.size).toBe(1);
    const list = await api.get(`/api/v1/profiles/${profileId}/appointments`, key);
    expect(list.body).toHaveLength(1);
  });
});
