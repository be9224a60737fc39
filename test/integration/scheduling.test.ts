/**
 * A location's schedule (issue #28): availability, the booking rules, seats held exactly, and PATCH
 * /locations/{id}. Berlin Mitte (15-minute slots, 2 seats, Sundays closed) is read as seeded; changes of a
 * schedule happen at Prenzlauer Berg (15-minute slots, 1 seat, weekdays), each test putting back what it
 * changed.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, dateInZone } from '../../shared/domain/calendar';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_INACTIVE, BERLIN_MITTE, BERLIN_PRENZLAUER_BERG, HELSINKI_KAMPPI, LOCATIONS, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { expectOnly, race, tally } from '../support/races';
import { createProfile, slotIn, storedAppointment } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const BERLIN = 'Europe/Berlin';
/** The UTC instant (with Z) of a Berlin wall-clock time. */
const berlin = (date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(BERLIN).toInstant().toString({ smallestUnit: 'second' });
/** The first date at least `days` ahead (Berlin calendar) that falls on `weekday` (1 Monday … 7 Sunday). */
function nextWeekday(weekday: number, days = 2): string {
  let date = addDays(dateInZone(new Date(), BERLIN), days);
  while (Temporal.PlainDate.from(date).dayOfWeek !== weekday) date = addDays(date, 1);
  return date;
}
const book = async (locationId: string, scheduledAt: string, profileId?: string) =>
  api.post('/api/v1/appointments', { profile_id: profileId ?? (await createProfile(api, key)), location_id: locationId, scheduled_at: scheduledAt }, key);
const availability = (locationId: string, query = '', withKey = key) => api.get(`/api/v1/locations/${locationId}/availability${query}`, withKey);
const remainingAt = async (locationId: string, start: string) => {
  const date = dateInZone(new Date(start), BERLIN);
  const res = await availability(locationId, `?from=${date}&to=${date}`);
  return (res.body.slots as { start: string; remaining: number }[]).find((slot) => slot.start === start)?.remaining ?? 0;
};
const seatHolders = async (locationId: string, start: string) => {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.seats(locationId, start), ConsistentRead: true }));
  return [...((Item?.appointment_ids as Set<string> | undefined) ?? [])].sort();
};
const patchLocation = (id: string, body: unknown, withKey = key) => api.patch(`/api/v1/locations/${id}`, body, withKey);
const seeded = (id: string) => LOCATIONS.find((location) => location.id === id)!;

describe('GET /api/v1/locations/{id}/availability', () => {
  it("lists today and the six days after it by default, in the location's time zone", async () => {
    const res = await availability(BERLIN_MITTE);
    expect(res.status).toBe(200);
    const today = dateInZone(new Date(), BERLIN);
    expect(res.body).toMatchObject({ location_id: BERLIN_MITTE, timezone: BERLIN, slot_minutes: 15, from: today, to: addDays(today, 6) });
  });

  it('lists slots in order, each 15 minutes long, the first at least 30 minutes ahead, all with a free seat', async () => {
    const { slots } = (await availability(BERLIN_MITTE)).body as { slots: { start: string; end: string; remaining: number }[] };
    expect(slots.length).toBeGreaterThan(0);
    expect(Date.parse(slots[0]!.start)).toBeGreaterThanOrEqual(Date.now() + 29 * 60_000);
    for (const [i, slot] of slots.entries()) {
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(15 * 60_000);
      expect(slot.remaining).toBe(2);
      if (i > 0) expect(Date.parse(slot.start)).toBeGreaterThan(Date.parse(slots[i - 1]!.start));
    }
  });

  it("lists a weekday's slots from opening to the last whole slot before closing", async () => {
    const monday = nextWeekday(1);
    const { slots } = (await availability(BERLIN_MITTE, `?from=${monday}&to=${monday}`)).body;
    expect(slots).toHaveLength(42); // 07:30 to 17:45
    expect(slots[0].start).toBe(berlin(monday, '07:30'));
    expect(slots.at(-1).start).toBe(berlin(monday, '17:45'));
  });

  it('lists nothing on a day the location is closed', async () => {
    const sunday = nextWeekday(7);
    expect((await availability(BERLIN_MITTE, `?from=${sunday}&to=${sunday}`)).body.slots).toEqual([]);
  });

  it('lists a slot with one seat taken as remaining 1, and a full slot not at all', async () => {
    const start = slotIn(9);
    await book(BERLIN_MITTE, start);
    expect(await remainingAt(BERLIN_MITTE, start)).toBe(1);
    await book(BERLIN_MITTE, start);
    expect(await remainingAt(BERLIN_MITTE, start)).toBe(0);
  });

  it('lists the seat again at once when its appointment is cancelled', async () => {
    const start = slotIn(9, BERLIN_PRENZLAUER_BERG);
    const booked = await book(BERLIN_PRENZLAUER_BERG, start);
    expect(await remainingAt(BERLIN_PRENZLAUER_BERG, start)).toBe(0);
    await api.post(`/api/v1/appointments/${booked.body.id}/cancel`, { cancellation_reason: 'Patient ill' }, key);
    expect(await remainingAt(BERLIN_PRENZLAUER_BERG, start)).toBe(1);
  });

  it.each([
    ['a malformed date', '?from=2026-13-01', 'from must be a real date (YYYY-MM-DD)'],
    ['to before from', '?from=2026-12-10&to=2026-12-09', 'to must not be before from'],
    ['more than 31 days apart', '?from=2026-12-01&to=2027-01-02', 'to must be at most 31 days after from'],
    ['an unknown parameter', '?days=3', 'days is not an allowed query parameter'],
  ])('answers 400 for %s', async (_, query, error) => {
    const res = await availability(BERLIN_MITTE, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it('answers 400 for a from after the last date anything can be booked', async () => {
    const res = await availability(BERLIN_MITTE, '?from=9999-12-26');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'from must be at most 366 days after today: nothing can be booked later' });
  });

  it('lists nothing for a range in the past', async () => {
    const res = await availability(BERLIN_MITTE, '?from=2020-01-06&to=2020-01-10');
    expect([res.status, res.body.slots]).toEqual([200, []]);
  });

  it('answers a range of exactly 31 days after from', async () => {
    expect((await availability(BERLIN_MITTE, '?from=2026-12-01&to=2027-01-01')).status).toBe(200);
  });

  it.each([
    ['an unknown location', UNKNOWN_ID],
    ['an inactive location', BERLIN_INACTIVE],
  ])('answers 404 for %s', async (_, id) => {
    const res = await availability(id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Location not found' });
  });

  it("answers 403 for a location outside the key's location groups", async () => {
    expect((await availability(HELSINKI_KAMPPI)).status).toBe(403);
  });

  it('lets a key with LOCATIONS_VIEW alone ask', async () => {
    expect((await availability(BERLIN_MITTE, '', await apiKey({ scopes: ['LOCATIONS_VIEW'] }))).status).toBe(200);
  });

  it('answers 403 to a key with neither LOCATIONS_VIEW nor TEST_SESSIONS_SCHEDULE', async () => {
    expect((await availability(BERLIN_MITTE, '', await apiKey({ scopes: ['TEST_SESSIONS_VIEW'] }))).status).toBe(403);
  });
});

describe('booking rules of POST /api/v1/appointments', () => {
  it('books a slot the availability lists', async () => {
    const [first] = (await availability(BERLIN_MITTE, `?from=${nextWeekday(3, 20)}`)).body.slots;
    const res = await book(BERLIN_MITTE, first.start);
    expect(res.status).toBe(201);
    expect(res.body.scheduled_at).toBe(first.start);
  });

  it('answers 400 on a day the location is closed, naming the day', async () => {
    const res = await book(BERLIN_MITTE, berlin(nextWeekday(7), '10:00'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Berlin Mitte is closed on Sunday' });
  });

  it('answers 400 outside the opening hours, naming them', async () => {
    const tuesday = nextWeekday(2);
    const res = await book(BERLIN_MITTE, berlin(tuesday, '19:00'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `scheduled_at ${tuesday} 19:00 is outside opening hours 07:30–18:00 Europe/Berlin (Berlin Mitte, Tuesday)` });
  });

  it('answers 400 off the slot grid, naming the grid', async () => {
    const res = await book(BERLIN_MITTE, berlin(nextWeekday(2), '07:37'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'scheduled_at is not a slot start: slots start every 15 minutes from 07:30 Europe/Berlin' });
  });

  it('answers 400 for a slot whose last minutes run past closing', async () => {
    expect((await book(BERLIN_MITTE, berlin(nextWeekday(2), '17:50'))).status).toBe(400);
  });

  it('answers 409 for a full slot and keeps its seats', async () => {
    const start = slotIn(10, BERLIN_PRENZLAUER_BERG);
    const first = await book(BERLIN_PRENZLAUER_BERG, start);
    const res = await book(BERLIN_PRENZLAUER_BERG, start);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^The slot at .* is full/);
    expect(await seatHolders(BERLIN_PRENZLAUER_BERG, start)).toEqual([first.body.id]);
  });

  it('answers 409 when the person holds another appointment overlapping the slot, at any location', async () => {
    const profileId = await createProfile(api, key);
    const start = berlin(nextWeekday(3, 60), '10:30'); // a slot at both locations
    const held = await book(BERLIN_MITTE, start, profileId);
    const res = await book(BERLIN_PRENZLAUER_BERG, start, profileId);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `This person already has appointment ${held.body.id} at ${start}, which overlaps this slot` });
  });

  it('books the person again into the slot once the overlapping appointment is cancelled', async () => {
    const profileId = await createProfile(api, key);
    const start = berlin(nextWeekday(3, 60), '11:00');
    const held = await book(BERLIN_MITTE, start, profileId);
    await api.post(`/api/v1/appointments/${held.body.id}/cancel`, { cancellation_reason: 'moved' }, key);
    expect((await book(BERLIN_PRENZLAUER_BERG, start, profileId)).status).toBe(201);
  });

  it('gives exactly two of twenty parallel bookings into a slot with two seats a 201, the rest 409', async () => {
    const start = slotIn(12);
    const profiles = await Promise.all(Array.from({ length: 20 }, () => createProfile(api, key)));
    const answers = await race(20, (i) => book(BERLIN_MITTE, start, profiles[i]));
    expectOnly(answers, [201, 409]);
    expect(tally(answers)).toEqual({ 201: 2, 409: 18 });
    expect(await seatHolders(BERLIN_MITTE, start)).toEqual(
      answers
        .filter((a) => a.status === 201)
        .map((a) => a.body.id)
        .sort(),
    );
  });

  it('books one of two parallel bookings of one person at one time at two locations, refusing the other', async () => {
    const profileId = await createProfile(api, key);
    const start = berlin(nextWeekday(3, 60), '11:30');
    const answers = await Promise.all([book(BERLIN_MITTE, start, profileId), book(BERLIN_PRENZLAUER_BERG, start, profileId)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });
});

describe('seats of PATCH /api/v1/appointments/{id}', () => {
  it('moves the seat: the old slot is free at once, the new one taken', async () => {
    const [from, to] = [slotIn(14, BERLIN_PRENZLAUER_BERG), slotIn(14, BERLIN_PRENZLAUER_BERG)];
    const booked = await book(BERLIN_PRENZLAUER_BERG, from);
    const res = await api.patch(`/api/v1/appointments/${booked.body.id}`, { scheduled_at: to }, key);
    expect(res.status).toBe(200);
    expect([await seatHolders(BERLIN_PRENZLAUER_BERG, from), await seatHolders(BERLIN_PRENZLAUER_BERG, to)]).toEqual([[], [booked.body.id]]);
  });

  it('answers 409 for a move into a full slot and keeps the old seat and time', async () => {
    const [mine, full] = [slotIn(15, BERLIN_PRENZLAUER_BERG), slotIn(15, BERLIN_PRENZLAUER_BERG)];
    const booked = await book(BERLIN_PRENZLAUER_BERG, mine);
    await book(BERLIN_PRENZLAUER_BERG, full);
    const res = await api.patch(`/api/v1/appointments/${booked.body.id}`, { scheduled_at: full }, key);
    expect(res.status).toBe(409);
    expect(await seatHolders(BERLIN_PRENZLAUER_BERG, mine)).toEqual([booked.body.id]);
    expect((await storedAppointment(booked.body.id)).scheduled_at).toBe(mine);
  });

  it('answers 400 for a move off the slot grid', async () => {
    const booked = await book(BERLIN_MITTE, slotIn(16));
    const res = await api.patch(`/api/v1/appointments/${booked.body.id}`, { scheduled_at: berlin(nextWeekday(2, 16), '08:05') }, key);
    expect(res.status).toBe(400);
  });
});

describe('PATCH /api/v1/locations/{id}', () => {
  const prenzlauerBerg = seeded(BERLIN_PRENZLAUER_BERG);
  const restore = () => patchLocation(BERLIN_PRENZLAUER_BERG, { open_hours: prenzlauerBerg.open_hours, slot_minutes: 15, capacity_per_slot: 1, closures: [] });

  it('answers the location with its new schedule', async () => {
    const res = await patchLocation(BERLIN_PRENZLAUER_BERG, { slot_minutes: 20, capacity_per_slot: 3 });
    await restore();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: BERLIN_PRENZLAUER_BERG, slot_minutes: 20, capacity_per_slot: 3 });
  });

  it('takes closures in any order and stores them in date order', async () => {
    const [first, second, third] = [41, 42, 43].map((days) => dateInZone(new Date(Date.now() + days * 86_400_000), BERLIN));
    const res = await patchLocation(BERLIN_PRENZLAUER_BERG, {
      closures: [
        { date: second, reason: null },
        { date: third, reason: 'Holiday' },
        { date: first, reason: null },
      ],
    });
    const stored = (await api.get(`/api/v1/locations/${BERLIN_PRENZLAUER_BERG}`, key)).body.closures;
    await restore();
    expect(res.status).toBe(200);
    expect(stored.map((closure: { date: string }) => closure.date)).toEqual([first, second, third]);
  });

  it('lays the availability on the new grid at once', async () => {
    const monday = nextWeekday(1, 40);
    await patchLocation(BERLIN_PRENZLAUER_BERG, { slot_minutes: 30 });
    const { slots } = (await availability(BERLIN_PRENZLAUER_BERG, `?from=${monday}&to=${monday}`)).body;
    await restore();
    expect(slots.slice(0, 2).map((slot: { start: string }) => slot.start)).toEqual([berlin(monday, '08:00'), berlin(monday, '08:30')]);
  });

  it('names an appointment booked on a date it closes, which keeps working', async () => {
    // A date no other test of this file books at this location (they book 9–20 days ahead, a weekend's roll
    // further): the closure names every appointment of its date, and this test expects its own alone.
    const start = slotIn(30, BERLIN_PRENZLAUER_BERG);
    const booked = await book(BERLIN_PRENZLAUER_BERG, start);
    const date = dateInZone(new Date(start), BERLIN);
    const res = await patchLocation(BERLIN_PRENZLAUER_BERG, { closures: [{ date, reason: 'Inventory' }] });
    const cancelled = await api.post(`/api/v1/appointments/${booked.body.id}/cancel`, { cancellation_reason: 'closed' }, key);
    await restore();
    expect(res.body.affected_appointments).toEqual([
      { id: booked.body.id, scheduled_at: start, reason: 'closed', detail: `Berlin Prenzlauer Berg is closed on ${date} (Inventory)` },
    ]);
    expect(cancelled.status).toBe(200);
  });

  it('refuses a booking on a closure date, naming it', async () => {
    const start = slotIn(18, BERLIN_PRENZLAUER_BERG);
    const date = dateInZone(new Date(start), BERLIN);
    await patchLocation(BERLIN_PRENZLAUER_BERG, { closures: [{ date, reason: 'Inventory' }] });
    const res = await book(BERLIN_PRENZLAUER_BERG, start);
    await restore();
    expect(res.body).toEqual({ error: `Berlin Prenzlauer Berg is closed on ${date} (Inventory)` });
  });

  it('names the appointments of a slot holding more bookings than the new capacity', async () => {
    const start = slotIn(19, BERLIN_PRENZLAUER_BERG);
    await patchLocation(BERLIN_PRENZLAUER_BERG, { capacity_per_slot: 2 });
    const ids = [(await book(BERLIN_PRENZLAUER_BERG, start)).body.id, (await book(BERLIN_PRENZLAUER_BERG, start)).body.id].sort();
    const res = await restore();
    expect(res.body.affected_appointments.map((a: { id: string; reason: string }) => [a.id, a.reason])).toEqual(ids.map((id) => [id, 'over_capacity']));
  });

  it('takes no booking while the hours are unknown, and lists no slot', async () => {
    await patchLocation(BERLIN_PRENZLAUER_BERG, { open_hours: null });
    const booking = await book(BERLIN_PRENZLAUER_BERG, slotIn(20, BERLIN_PRENZLAUER_BERG));
    const listed = await availability(BERLIN_PRENZLAUER_BERG);
    await restore();
    expect(booking.body).toEqual({ error: 'Berlin Prenzlauer Berg has no known opening hours and takes no bookings' });
    expect(listed.body.slots).toEqual([]);
  });

  it.each([
    ['an empty patch', {}, 'body must change open_hours, slot_minutes, capacity_per_slot or closures'],
    ['slot_minutes off the 5-minute grid', { slot_minutes: 7 }, 'slot_minutes must be a multiple of 5'],
    ['no capacity', { capacity_per_slot: 0 }, 'capacity_per_slot must be at least 1'],
    [
      'a closure date given twice',
      {
        closures: [
          { date: '2027-01-02', reason: null },
          { date: '2027-01-01', reason: null },
          { date: '2027-01-02', reason: 'again' },
        ],
      },
      'closures must list each date once',
    ],
  ])('answers 400 for %s and changes nothing', async (_, body, error) => {
    const res = await patchLocation(BERLIN_PRENZLAUER_BERG, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect((await api.get(`/api/v1/locations/${BERLIN_PRENZLAUER_BERG}`, key)).body).toMatchObject({ slot_minutes: 15, capacity_per_slot: 1, closures: [] });
  });

  it('answers 400 for opening ranges that overlap', async () => {
    const hours = {
      ...prenzlauerBerg.open_hours!,
      monday: [
        { open: '08:00', close: '12:00' },
        { open: '11:00', close: '15:00' },
      ],
    };
    const res = await patchLocation(BERLIN_PRENZLAUER_BERG, { open_hours: hours });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^open_hours/);
  });

  it('answers 403 to a key without LOCATIONS_MANAGE', async () => {
    const res = await patchLocation(BERLIN_PRENZLAUER_BERG, { capacity_per_slot: 2 }, await apiKey({ scopes: ['LOCATIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'] }));
    expect(res.status).toBe(403);
  });

  it("answers 403 for a location outside the key's location groups", async () => {
    expect((await patchLocation(HELSINKI_KAMPPI, { capacity_per_slot: 2 })).status).toBe(403);
  });

  it.each([
    ['an unknown location', UNKNOWN_ID],
    ['an inactive location', BERLIN_INACTIVE],
  ])('answers 404 for %s', async (_, id) => {
    expect((await patchLocation(id, { capacity_per_slot: 2 })).status).toBe(404);
  });
});
