/**
 * GET /locations/{id}/availability (issue #28): the slots of a date range that can be booked now, with
 * their free seats. The grid comes from the location's schedule (shared/domain/slots.ts); the seats taken
 * from one Query of the location's seat partition over the range, which holds an item only per booked slot
 * (shared/store/seats.ts): the query reads what is booked, never the empty slots it answers.
 *
 * The same rules decide what is listed and what a booking accepts (shared/domain/booking.ts), so every
 * slot listed can be booked (unless someone books its last seat first) and every bookable time is listed.
 */
import { assertLocationGroupAccess } from '../auth/access';
import { BOOKING_HORIZON_DAYS } from '../domain/appointment';
import { bookingWindow, capacityOf, MAX_AVAILABILITY_SPAN_DAYS, scheduleOf } from '../domain/booking';
import { addDays, dateInZone, daysBetween } from '../domain/calendar';
import { DEFAULT_SLOT_MINUTES } from '../domain/location-schedule';
import { toUtcInstant } from '../domain/instant';
import { slotsBetween } from '../domain/slots';
import { InvalidInput, NotFound } from '../errors';
import type { Availability } from '../schemas/locations';
import { getLocation, LOCATION_NOT_FOUND, type LocationRecord } from '../store/locations';
import { bookedSlots } from '../store/seats';
import type { Caller } from './request';

/** The last date (days after today) that can hold a slot inside the booking horizon. */
const LAST_BOOKABLE_DAY = BOOKING_HORIZON_DAYS + 1;

/** The days listed when the query names no range: today and the six days after it. */
const DEFAULT_SPAN_DAYS = 6;

export async function locationAvailability(id: string, query: { from?: string; to?: string }, { access, now }: Caller): Promise<Availability> {
  const location = await getLocation(id);
  if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
  assertLocationGroupAccess(access, location.location_group_slug, 'location');
  return availabilityAt(location, query, now);
}

/**
 * The core, without an API key's access check: the bookable slots of an active location over a date range
 * (today and the six days after it when none is named). The patient's page (shared/usecases/patient-link.ts)
 * lists its slots with it, for the location its link's appointment is at.
 */
export async function availabilityAt(location: LocationRecord, query: { from?: string; to?: string }, now: Date): Promise<Availability> {
  const today = dateInZone(now, location.timezone);
  const from = query.from ?? today;
  const to = query.to ?? addDays(from, DEFAULT_SPAN_DAYS);
  if (daysBetween(from, to) < 0) throw new InvalidInput('to must not be before from');
  if (daysBetween(from, to) > MAX_AVAILABILITY_SPAN_DAYS) throw new InvalidInput(`to must be at most ${MAX_AVAILABILITY_SPAN_DAYS} days after from`);
  if (daysBetween(today, from) > LAST_BOOKABLE_DAY)
    throw new InvalidInput(`from must be at most ${LAST_BOOKABLE_DAY} days after today: nothing can be booked later`);
  const answer = { location_id: location.id, timezone: location.timezone, slot_minutes: location.slot_minutes ?? DEFAULT_SLOT_MINUTES, from, to };
  const schedule = scheduleOf(location);
  if (!schedule) return { ...answer, slots: [] };
  const { earliest, latest } = bookingWindow(now);
  // Only the dates that can hold a bookable slot are laid out: today (there) to the horizon's last date.
  const [gridFrom, gridTo] = [from < today ? today : from, daysBetween(today, to) > LAST_BOOKABLE_DAY ? addDays(today, LAST_BOOKABLE_DAY) : to];
  if (gridFrom > gridTo) return { ...answer, slots: [] };
  const grid = slotsBetween(gridFrom, gridTo, schedule).filter((slot) => slot.start >= earliest && slot.start <= latest);
  if (grid.length === 0) return { ...answer, slots: [] };
  const booked = await bookedSlots(location.id, toUtcInstant(grid[0]!.start), toUtcInstant(grid.at(-1)!.start));
  const taken = new Map(booked.map((slot) => [slot.start, slot.appointmentIds.length]));
  const capacity = capacityOf(location);
  const slots = grid
    .map((slot) => {
      const start = toUtcInstant(slot.start);
      return { start, end: toUtcInstant(slot.end), remaining: capacity - (taken.get(start) ?? 0) };
    })
    .filter((slot) => slot.remaining >= 1);
  return { ...answer, slots };
}
