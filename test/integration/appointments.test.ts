/** POST/GET/PATCH appointments, AppointmentRescheduled, cancel, and a profile's appointment list. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_DIR } from '../../infra/contract/event-schemas';
import { relayOutbox } from '../../shared/usecases/publish-events';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, apiKeyWithId, BERLIN_INACTIVE, BERLIN_MITTE, BERLIN_PRENZLAUER_BERG, HELSINKI_KAMPPI, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { confirmDraw, createProfile, ESSENTIALS_PANEL, inDays, scheduleAppointment, slotIn, storedAppointment } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

describe('POST /api/v1/appointments', () => {
  it('answers 201 with only the create fields, status scheduled and the profile without timestamps', async () => {
    const profileId = await createProfile(api, key);
    const ok = await api.post('/api/v1/appointments', { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(3) }, key);
    expect(ok.status).toBe(201);
    expect(Object.keys(ok.body).sort()).toEqual(['id', 'location_id', 'profile', 'profile_id', 'recollection_of', 'scheduled_at', 'status', 'test_method']);
    expect(ok.body).toMatchObject({ profile_id: profileId, location_id: BERLIN_MITTE, status: 'scheduled', test_method: 'practitioner' });
    expect(ok.body.profile).not.toHaveProperty('created_at');
    expect(ok.body.profile).not.toHaveProperty('transactional_emails_enabled');
  });

  it('stores scheduled_at as a UTC instant with Z, whatever offset was sent', async () => {
    const profileId = await createProfile(api, key);
    const slot = slotIn(2);
    // The same instant written in a +02:00 wall clock.
    const withOffset = `${new Date(Date.parse(slot) + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
    const res = await api.post('/api/v1/appointments', { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: withOffset }, key);
    expect(res.body.scheduled_at).toBe(slot);
  });

  it.each([
    [
      'a time without timezone',
      { scheduled_at: '2026-12-24T10:00:00' },
      'scheduled_at must be an ISO 8601 date-time with a timezone (Z or an offset such as +02:00)',
    ],
    [
      'an impossible date',
      { scheduled_at: '2027-02-30T10:00:00Z' },
      'scheduled_at must be an ISO 8601 date-time with a timezone (Z or an offset such as +02:00)',
    ],
    ['a past time', { scheduled_at: '2020-01-01T10:00:00Z' }, 'scheduled_at must be in the future'],
    ['a time beyond the booking horizon', { scheduled_at: inDays(400) }, 'scheduled_at must be at most 365 days ahead'],
    ['a profile id that is not a UUID', { profile_id: 'abc' }, 'profile_id must be a valid UUID'],
    ['an unknown field', { notes: 'x' }, 'notes is not an allowed field'],
  ])('answers 400 for %s', async (_, override, message) => {
    const profileId = await createProfile(api, key);
    const res = await api.post('/api/v1/appointments', { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(3), ...override }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await api.post('/api/v1/appointments', { profile_id: UNKNOWN_ID, location_id: BERLIN_MITTE, scheduled_at: slotIn(3) }, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Profile not found' });
  });

  it('answers 404 for an inactive location', async () => {
    const profileId = await createProfile(api, key);
    const res = await api.post('/api/v1/appointments', { profile_id: profileId, location_id: BERLIN_INACTIVE, scheduled_at: slotIn(3) }, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Location not found' });
  });

  it('answers 403 for a profile outside the key context', async () => {
    const partnerKey = await apiKey({ profileGroups: ['partner-clinic'] });
    const profileId = await createProfile(api, partnerKey, 'partner-clinic');
    const res = await api.post('/api/v1/appointments', { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(3) }, key);
    expect(res.status).toBe(403);
  });

  it('answers 403 for a location outside the key location groups', async () => {
    const profileId = await createProfile(api, key);
    const res = await api.post('/api/v1/appointments', { profile_id: profileId, location_id: HELSINKI_KAMPPI, scheduled_at: slotIn(3, HELSINKI_KAMPPI) }, key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This API key has no access to this location' });
  });

  it('answers 403 to a key without TEST_SESSIONS_SCHEDULE', async () => {
    const res = await api.post(
      '/api/v1/appointments',
      { profile_id: UNKNOWN_ID, location_id: BERLIN_MITTE, scheduled_at: slotIn(3) },
      await apiKey({ scopes: ['TEST_SESSIONS_VIEW'] }),
    );
    expect(res.status).toBe(403);
  });
});

describe('GET /api/v1/appointments/{id}', () => {
  it('answers every appointment field with the embedded profile, timestamps included', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.get(`/api/v1/appointments/${id}`, key);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'barcode',
      'cancellation_reason',
      'created_at',
      'id',
      'individual_biomarkers',
      'lab_order',
      'location_id',
      'panels',
      'preparation',
      'profile',
      'profile_id',
      'recollection_of',
      'requisition',
      'scheduled_at',
      'shipments',
      'specimens_to_collect',
      'status',
      'test_method',
      'updated_at',
    ]);
    expect(res.body).toMatchObject({
      status: 'scheduled',
      barcode: null,
      recollection_of: null,
      lab_order: null,
      cancellation_reason: null,
      updated_at: null,
      panels: [],
      individual_biomarkers: [],
      shipments: [],
    });
    expect(res.body.profile).toHaveProperty('created_at');
    expect(res.body.profile).not.toHaveProperty('transactional_emails_enabled');
  });

  it('is readable with TEST_SESSIONS_VIEW', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.get(`/api/v1/appointments/${id}`, await apiKey({ scopes: ['TEST_SESSIONS_VIEW'] }));
    expect(res.status).toBe(200);
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const res = await api.get('/api/v1/appointments/123', key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'id must be a valid UUID' });
  });

  it('answers 404 for an unknown appointment', async () => {
    const res = await api.get(`/api/v1/appointments/${UNKNOWN_ID}`, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Appointment not found' });
  });

  it('answers 403 for an appointment of a profile outside the key context', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.get(`/api/v1/appointments/${id}`, await apiKey({ profileGroups: ['partner-clinic'] }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This API key has no access to this appointment' });
  });
});

describe('PATCH /api/v1/appointments/{id}', () => {
  it('reschedules and relocates, answering the full appointment with updated_at', async () => {
    const id = await scheduleAppointment(api, key);
    const when = slotIn(10, BERLIN_PRENZLAUER_BERG);
    const res = await api.patch(`/api/v1/appointments/${id}`, { scheduled_at: when, location_id: BERLIN_PRENZLAUER_BERG }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, scheduled_at: when, location_id: BERLIN_PRENZLAUER_BERG, updated_at: expect.any(String), panels: [] });
    expect(await storedAppointment(id)).toMatchObject({ scheduled_at: when, location_id: BERLIN_PRENZLAUER_BERG });
  });

  it('answers 400 for an empty patch', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.patch(`/api/v1/appointments/${id}`, {}, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'body must change scheduled_at or location_id' });
  });

  it('answers 400 for a datetime without a timezone designator and changes nothing', async () => {
    const id = await scheduleAppointment(api, key);
    const before = await storedAppointment(id);
    const res = await api.patch(`/api/v1/appointments/${id}`, { scheduled_at: '2026-12-30T10:00' }, key);
    expect(res.status).toBe(400);
    expect(await storedAppointment(id)).toEqual(before);
  });

  it('answers 400 for a past scheduled_at', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.patch(`/api/v1/appointments/${id}`, { scheduled_at: '2021-06-01T10:00:00Z' }, key);
    expect(res.status).toBe(400);
  });

  it('answers 404 for an inactive new location', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.patch(`/api/v1/appointments/${id}`, { location_id: BERLIN_INACTIVE }, key);
    expect(res.status).toBe(404);
  });

  it('answers 403 for a new location outside the key context', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.patch(`/api/v1/appointments/${id}`, { location_id: HELSINKI_KAMPPI }, key);
    expect(res.status).toBe(403);
  });

  it('answers 404 for an unknown appointment', async () => {
    const res = await api.patch(`/api/v1/appointments/${UNKNOWN_ID}`, { scheduled_at: slotIn(4) }, key);
    expect(res.status).toBe(404);
  });

  it('answers 409 once the blood draw is confirmed, and changes nothing', async () => {
    const id = await scheduleAppointment(api, key);
    await confirmDraw(api, key, id);
    const before = await storedAppointment(id);
    const res = await api.patch(`/api/v1/appointments/${id}`, { scheduled_at: slotIn(4) }, key);
    expect(res.status).toBe(409);
    expect(await storedAppointment(id)).toEqual(before);
  });

  it('answers 409 for a cancelled appointment', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'Patient ill' }, key);
    const res = await api.patch(`/api/v1/appointments/${id}`, { scheduled_at: slotIn(4) }, key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The appointment is cancelled and can no longer be changed' });
  });
});

describe('AppointmentRescheduled', () => {
  let mover: { keyId: string; plaintext: string };
  beforeAll(async () => {
    mover = await apiKeyWithId();
  });

  /** PATCHes the appointment with the mover's key; answers the status and the details of the events it put, by type. */
  async function patch(id: string, body: Record<string, string>) {
    eventBridge.client.resetHistory();
    const res = await api.patch(`/api/v1/appointments/${id}`, body, mover.plaintext);
    const details = eventBridge.entries().map((entry) => ({ type: entry.DetailType, detail: JSON.parse(entry.Detail as string) }));
    return { status: res.status, details };
  }

  it('is the one event a move puts, naming the slot it left and the slot it took, the mover key and the new location group', async () => {
    const from = slotIn(11);
    const id = await scheduleAppointment(api, key, { scheduledAt: from });
    const to = slotIn(12, BERLIN_PRENZLAUER_BERG);
    const { status, details } = await patch(id, { scheduled_at: to, location_id: BERLIN_PRENZLAUER_BERG });
    expect(status).toBe(200);
    expect(details).toEqual([
      {
        type: 'AppointmentRescheduled',
        detail: {
          event_id: expect.any(String),
          occurred_at: expect.any(String),
          appointment_id: id,
          profile_id: (await storedAppointment(id)).profile_id,
          profile_group_slug: 'demo-clinic',
          location_group_slug: 'berlin',
          from: { scheduled_at: from, location_id: BERLIN_MITTE },
          to: { scheduled_at: to, location_id: BERLIN_PRENZLAUER_BERG },
          source: 'api',
          actor: mover.keyId,
        },
      },
    ]);
  });

  it('carries a detail the published JSON Schema accepts', async () => {
    const id = await scheduleAppointment(api, key);
    const { details } = await patch(id, { scheduled_at: slotIn(13) });
    const schema = JSON.parse(readFileSync(join(EVENTS_DIR, 'appointment-rescheduled.schema.json'), 'utf8'));
    const validate = addFormats(new Ajv({ strict: false, allErrors: true })).compile(schema);
    expect(details).toHaveLength(1);
    expect(validate(details[0]!.detail), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    [
      'the same scheduled_at, written with an offset',
      (at: string) => ({ scheduled_at: `${new Date(Date.parse(at) + 3_600_000).toISOString().slice(0, 19)}+01:00` }),
    ],
    ['the same location_id', () => ({ location_id: BERLIN_MITTE })],
    ['the same scheduled_at and location_id', (at: string) => ({ scheduled_at: at, location_id: BERLIN_MITTE })],
  ])('is not put for a PATCH of %s, which moves nothing', async (_, body) => {
    const at = slotIn(14);
    const id = await scheduleAppointment(api, key, { scheduledAt: at });
    const { status, details } = await patch(id, body(at));
    expect(status).toBe(200);
    expect(details).toEqual([]);
  });

  it('is not put for a move into a full slot, answered 409', async () => {
    // Prenzlauer Berg has one seat per slot.
    const id = await scheduleAppointment(api, key, { locationId: BERLIN_PRENZLAUER_BERG, scheduledAt: slotIn(15, BERLIN_PRENZLAUER_BERG) });
    const full = slotIn(15, BERLIN_PRENZLAUER_BERG);
    await scheduleAppointment(api, key, { locationId: BERLIN_PRENZLAUER_BERG, scheduledAt: full });
    const { status, details } = await patch(id, { scheduled_at: full });
    expect(status).toBe(409);
    expect(details).toEqual([]);
  });

  it('is published by the outbox relay when EventBridge was down at the move, which still answered 200', async () => {
    const id = await scheduleAppointment(api, key);
    eventBridge.failNextPuts();
    const { status } = await patch(id, { scheduled_at: slotIn(16) });
    expect(status).toBe(200);
    eventBridge.client.reset();
    eventBridge.client.resolves({ FailedEntryCount: 0, Entries: [] });
    await relayOutbox(new Date(Date.now() + 60_000));
    const relayed = eventBridge.entries().filter((entry) => entry.DetailType === 'AppointmentRescheduled');
    expect(relayed.map((entry) => JSON.parse(entry.Detail as string).appointment_id)).toEqual([id]);
  });
});

describe('POST /api/v1/appointments/{id}/cancel', () => {
  it('cancels a scheduled appointment and answers it with status cancelled and the reason', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'Patient rescheduled by phone' }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'cancelled', cancellation_reason: 'Patient rescheduled by phone', updated_at: expect.any(String) });
  });

  it('keeps the line breaks of a reason written on several lines', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'Patient ill.\r\n\tCalls back on Monday.' }, key);
    expect(res.body.cancellation_reason).toBe('Patient ill.\r\n\tCalls back on Monday.');
  });

  it('keeps the attached panels listed after cancellation', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/panels`, { panel_ids: [ESSENTIALS_PANEL] }, key);
    const res = await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'No show' }, key);
    expect(res.body.panels).toEqual([{ panel_id: ESSENTIALS_PANEL, added_at: expect.any(String) }]);
  });

  it('accepts TEST_SESSIONS_MANAGE', async () => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'x' }, await apiKey({ scopes: ['TEST_SESSIONS_MANAGE'] }));
    expect(res.status).toBe(200);
  });

  it.each([
    [{}, 'cancellation_reason is required'],
    [{ cancellation_reason: '' }, 'cancellation_reason must not be empty'],
    [{ cancellation_reason: 'x'.repeat(501) }, 'cancellation_reason must be at most 500 characters'],
    [{ cancellation_reason: 'No show\u0007' }, 'cancellation_reason must not contain control or invisible formatting characters, or unpaired surrogates'],
  ])('answers 400 for %j', async (body, message) => {
    const id = await scheduleAppointment(api, key);
    const res = await api.post(`/api/v1/appointments/${id}/cancel`, body, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it('answers 409 for an appointment already cancelled', async () => {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'first' }, key);
    const res = await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'second' }, key);
    expect(res.status).toBe(409);
    expect((await storedAppointment(id))?.cancellation_reason).toBe('first');
  });

  it('answers 409 once the blood is drawn', async () => {
    const id = await scheduleAppointment(api, key);
    await confirmDraw(api, key, id);
    const res = await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'too late' }, key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The appointment is blood_drawn; only scheduled appointments can be cancelled' });
  });

  it('answers 404 for an unknown appointment', async () => {
    const res = await api.post(`/api/v1/appointments/${UNKNOWN_ID}/cancel`, { cancellation_reason: 'x' }, key);
    expect(res.status).toBe(404);
  });

  it('answers 403 for another tenant and leaves the appointment scheduled', async () => {
    const id = await scheduleAppointment(api, key);
    const other = await apiKey({ profileGroups: ['partner-clinic'] });
    const res = await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'x' }, other);
    expect(res.status).toBe(403);
    expect((await storedAppointment(id))?.status).toBe('scheduled');
  });
});

describe('GET /api/v1/profiles/{id}/appointments', () => {
  it('lists the profile appointments, newest scheduled_at first', async () => {
    const profileId = await createProfile(api, key);
    const soon = await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(2) });
    const later = await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(20) });
    const middle = await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(9) });
    const res = await api.get(`/api/v1/profiles/${profileId}/appointments`, key);
    expect(res.status).toBe(200);
    expect(res.body.map((a: { id: string }) => a.id)).toEqual([later, middle, soon]);
  });

  it('follows a reschedule in its order', async () => {
    const profileId = await createProfile(api, key);
    const first = await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(2) });
    const second = await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(5) });
    await api.patch(`/api/v1/appointments/${first}`, { scheduled_at: slotIn(30) }, key);
    const res = await api.get(`/api/v1/profiles/${profileId}/appointments`, key);
    expect(res.body.map((a: { id: string }) => a.id)).toEqual([first, second]);
  });

  it('pages with limit and X-Next-Cursor', async () => {
    const profileId = await createProfile(api, key);
    const ids = [];
    for (let day = 2; day <= 6; day += 1) ids.push(await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(day) }));
    const first = await api.get(`/api/v1/profiles/${profileId}/appointments?limit=3`, key);
    const second = await api.get(`/api/v1/profiles/${profileId}/appointments?limit=3&cursor=${first.headers.get('x-next-cursor')}`, key);
    expect([...first.body, ...second.body].map((a: { id: string }) => a.id)).toEqual(ids.reverse());
    expect(second.headers.get('x-next-cursor')).toBeNull();
  });

  /** A profile with two appointments, and the X-Next-Cursor of its first page of one, issued to `key`. */
  async function profileWithCursor(): Promise<{ profileId: string; cursor: string }> {
    const profileId = await createProfile(api, key);
    for (const day of [2, 3]) await scheduleAppointment(api, key, { profileId, scheduledAt: slotIn(day) });
    const page = await api.get(`/api/v1/profiles/${profileId}/appointments?limit=1`, key);
    return { profileId, cursor: page.headers.get('x-next-cursor') as string };
  }

  it("answers 400 to profile A's cursor on profile B's list", async () => {
    const { cursor } = await profileWithCursor();
    const profileB = await createProfile(api, key);
    await scheduleAppointment(api, key, { profileId: profileB });
    const res = await api.get(`/api/v1/profiles/${profileB}/appointments?cursor=${cursor}`, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'cursor is invalid; use the X-Next-Cursor value of the previous page' });
  });

  it('answers 400 to a cursor issued to another key of the same tenant', async () => {
    const { profileId, cursor } = await profileWithCursor();
    const res = await api.get(`/api/v1/profiles/${profileId}/appointments?cursor=${cursor}`, await apiKey());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'cursor is invalid; use the X-Next-Cursor value of the previous page' });
  });

  it('answers an empty array for a profile without appointments', async () => {
    const profileId = await createProfile(api, key);
    const res = await api.get(`/api/v1/profiles/${profileId}/appointments`, key);
    expect(res.body).toEqual([]);
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await api.get(`/api/v1/profiles/${UNKNOWN_ID}/appointments`, key);
    expect(res.status).toBe(404);
  });

  it('answers 403 for a profile outside the key context', async () => {
    const profileId = await createProfile(api, key);
    await scheduleAppointment(api, key, { profileId });
    const res = await api.get(`/api/v1/profiles/${profileId}/appointments`, await apiKey({ profileGroups: ['partner-clinic'] }));
    expect(res.status).toBe(403);
    expect(res.body).not.toBeInstanceOf(Array);
  });
});
