/** GET /api/v1/locations and GET /api/v1/locations/{id}: active locations of the key's location groups. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { dateInZone } from '../../shared/domain/calendar';
import { putLocation } from '../../shared/store/locations';
import { apiKey, BERLIN_INACTIVE, BERLIN_MITTE, BERLIN_PRENZLAUER_BERG, HELSINKI_KAMPPI, LOCATIONS, seedDemoData, UNKNOWN_ID } from '../support/fixtures';

const api = useApi();
let berlinKey: string;

beforeAll(async () => {
  await seedDemoData();
  berlinKey = await apiKey({ scopes: ['LOCATIONS_VIEW'], locationGroups: ['berlin'] });
});

const LOCATION_FIELDS = [
  'id',
  'name',
  'company_name',
  'address_line_1',
  'address_line_2',
  'city',
  'state',
  'postal_code',
  'country_name',
  'country_code',
  'timezone',
  'contact_phone',
  'email',
  'website',
  'google_maps_url',
  'image_url',
  'open_hours',
  'slot_minutes',
  'capacity_per_slot',
  'closures',
].sort();

describe('GET /api/v1/locations', () => {
  it('lists the active locations of the key location groups, by name', async () => {
    const res = await api.get('/api/v1/locations', berlinKey);
    expect(res.status).toBe(200);
    expect(res.body.map((l: { id: string }) => l.id)).toEqual([BERLIN_MITTE, BERLIN_PRENZLAUER_BERG]);
  });

  it('answers exactly the fields of the spec Location for each location', async () => {
    const res = await api.get('/api/v1/locations', berlinKey);
    for (const location of res.body) expect(Object.keys(location).sort()).toEqual(LOCATION_FIELDS);
  });

  it('answers open_hours with every weekday, Monday first, as {open, close} ranges', async () => {
    const res = await api.get('/api/v1/locations', berlinKey);
    const mitte = res.body.find((l: { id: string }) => l.id === BERLIN_MITTE);
    expect(Object.keys(mitte.open_hours)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(mitte.open_hours.monday).toEqual([{ open: '07:30', close: '18:00' }]);
    expect(mitte.open_hours.sunday).toEqual([]);
  });

  it('lists the locations of every group the key holds', async () => {
    const both = await apiKey({ scopes: ['LOCATIONS_VIEW'], locationGroups: ['berlin', 'helsinki'] });
    const res = await api.get('/api/v1/locations', both);
    expect(res.body.map((l: { id: string }) => l.id).sort()).toEqual([BERLIN_MITTE, BERLIN_PRENZLAUER_BERG, HELSINKI_KAMPPI].sort());
  });

  it('answers an empty array to a key without location groups', async () => {
    const none = await apiKey({ scopes: ['LOCATIONS_VIEW'], locationGroups: [] });
    const res = await api.get('/api/v1/locations', none);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('accepts TEST_SESSIONS_SCHEDULE instead of LOCATIONS_VIEW', async () => {
    const scheduler = await apiKey({ scopes: ['TEST_SESSIONS_SCHEDULE'], locationGroups: ['helsinki'] });
    const res = await api.get('/api/v1/locations', scheduler);
    expect(res.status).toBe(200);
    expect(res.body.map((l: { id: string }) => l.id)).toEqual([HELSINKI_KAMPPI]);
  });

  it('answers 403 to a key with neither scope', async () => {
    const res = await api.get('/api/v1/locations', await apiKey({ scopes: ['CREATE_USER'] }));
    expect(res.status).toBe(403);
  });
});

describe('GET /api/v1/locations/{id}', () => {
  it('answers an active location of the key groups', async () => {
    const res = await api.get(`/api/v1/locations/${BERLIN_MITTE}`, berlinKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: BERLIN_MITTE, name: 'Berlin Mitte', country_code: 'DE', timezone: 'Europe/Berlin' });
  });

  it("answers the location's schedule: slot length, seats per slot and its closures as the reference data says", async () => {
    const res = await api.get(`/api/v1/locations/${BERLIN_MITTE}`, berlinKey);
    const stored = LOCATIONS.find((location) => location.id === BERLIN_MITTE)!;
    const today = dateInZone(new Date(), 'Europe/Berlin');
    expect(res.body).toMatchObject({ slot_minutes: 15, capacity_per_slot: 2 });
    expect(res.body.closures).toEqual(stored.closures!.filter((closure) => closure.date >= today));
  });

  it("lists closures from today on, in the location's calendar, and leaves past ones out", async () => {
    const stored = LOCATIONS.find((location) => location.id === BERLIN_PRENZLAUER_BERG)!;
    const today = dateInZone(new Date(), 'Europe/Berlin');
    await putLocation({
      ...stored,
      closures: [
        { date: '2020-05-01', reason: 'Labour Day' },
        { date: today, reason: null },
        { date: '2099-12-25', reason: 'Christmas Day' },
      ],
    });
    try {
      const res = await api.get(`/api/v1/locations/${BERLIN_PRENZLAUER_BERG}`, berlinKey);
      expect(res.body.closures).toEqual([
        { date: today, reason: null },
        { date: '2099-12-25', reason: 'Christmas Day' },
      ]);
    } finally {
      await putLocation(stored);
    }
  });

  it('answers a location stored before schedules with 15-minute slots of one seat and no closures', async () => {
    const { slot_minutes: _s, capacity_per_slot: _c, closures: _x, ...before } = LOCATIONS.find((location) => location.id === BERLIN_PRENZLAUER_BERG)!;
    await putLocation(before);
    try {
      const res = await api.get(`/api/v1/locations/${BERLIN_PRENZLAUER_BERG}`, berlinKey);
      expect(res.body).toMatchObject({ slot_minutes: 15, capacity_per_slot: 1, closures: [] });
    } finally {
      await putLocation(LOCATIONS.find((location) => location.id === BERLIN_PRENZLAUER_BERG)!);
    }
  });

  it('answers 404 for an inactive location', async () => {
    const res = await api.get(`/api/v1/locations/${BERLIN_INACTIVE}`, berlinKey);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Location not found' });
  });

  it('answers 404 for an unknown location', async () => {
    const res = await api.get(`/api/v1/locations/${UNKNOWN_ID}`, berlinKey);
    expect(res.status).toBe(404);
  });

  it('answers 403 for a location outside the key location groups', async () => {
    const res = await api.get(`/api/v1/locations/${HELSINKI_KAMPPI}`, berlinKey);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This API key has no access to this location' });
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const res = await api.get('/api/v1/locations/berlin-mitte', berlinKey);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'id must be a valid UUID' });
  });
});
