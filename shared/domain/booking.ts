/**
 * The booking rules of a location's slots (issue #28): which instants can be booked, and why another
 * cannot, in words a clinic's front desk can act on. Pure: the caller passes the location as read and `now`.
 *
 * - A booking starts exactly at a slot of the location's grid (shared/domain/slots.ts), on a day it is
 *   open and not closed, at least BOOKING_LEAD_MINUTES ahead and at most BOOKING_HORIZON_DAYS ahead.
 * - A location whose hours are unknown (open_hours or timezone null) has no slots at all.
 */
import { InvalidInput } from '../errors';
import { assertBookableInstant, BOOKING_HORIZON_DAYS } from './appointment';
import { DEFAULT_CAPACITY_PER_SLOT, DEFAULT_SLOT_MINUTES, type ScheduledLocation } from './location-schedule';
import { type Schedule, type Slot, slotsOn, weekdayOf } from './slots';
import { wallClockOf } from './wall-clock';

/**
 * A slot can be booked until 30 minutes before it starts: a person booking later could not reach it, and
 * the location prepares its chairs, labels and tubes from the day's list.
 */
export const BOOKING_LEAD_MINUTES = 30;

const DAY_MS = 86_400_000;

/** An availability query spans at most this many days after its first (a month, whatever its length). */
export const MAX_AVAILABILITY_SPAN_DAYS = 31;

/** The earliest and latest slot starts a booking made at `now` may take. */
export const bookingWindow = (now: Date) => ({
  earliest: new Date(now.getTime() + BOOKING_LEAD_MINUTES * 60_000),
  latest: new Date(now.getTime() + BOOKING_HORIZON_DAYS * DAY_MS),
});

export const capacityOf = (location: ScheduledLocation) => location.capacity_per_slot ?? DEFAULT_CAPACITY_PER_SLOT;

/** The location's schedule, or undefined when its hours are unknown (it then has no slots). */
export function scheduleOf(location: ScheduledLocation): Schedule | undefined {
  if (!location.open_hours || !location.timezone) return undefined;
  return {
    timeZone: location.timezone,
    openHours: location.open_hours,
    slotMinutes: location.slot_minutes ?? DEFAULT_SLOT_MINUTES,
    closures: location.closures ?? [],
  };
}

export const hoursUnknown = (location: ScheduledLocation) => `${location.name} has no known opening hours and takes no bookings`;

const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** Why an instant is not a slot start of the location's schedule: the code, and words for a person. */
export interface SlotProblem {
  code: 'hours_unknown' | 'closed' | 'outside_hours' | 'not_a_slot_start';
  message: string;
}

/**
 * Whether `at` starts a slot of the location's schedule (its hours, closures and grid; not the lead time
 * or horizon): the slot, or the problem. PATCH /locations/{id} reads the problems of booked appointments
 * under a new schedule through the same function that refuses a booking.
 */
export function slotAt(field: string, location: ScheduledLocation, at: Date): { slot: Slot } | { problem: SlotProblem } {
  const schedule = scheduleOf(location);
  if (!schedule) return { problem: { code: 'hours_unknown', message: hoursUnknown(location) } };
  const { date, time } = wallClockOf(at, schedule.timeZone);
  const closure = schedule.closures.find((candidate) => candidate.date === date);
  if (closure) return { problem: { code: 'closed', message: `${location.name} is closed on ${date}${closure.reason ? ` (${closure.reason})` : ''}` } };
  const weekday = weekdayOf(date);
  const ranges = schedule.openHours[weekday] ?? [];
  if (ranges.length === 0) return { problem: { code: 'closed', message: `${location.name} is closed on ${capitalised(weekday)}` } };
  if (!ranges.some(({ open, close }) => open <= time && time < close)) {
    const hours = ranges.map(({ open, close }) => `${open}–${close}`).join(', ');
    const message = `${field} ${date} ${time} is outside opening hours ${hours} ${schedule.timeZone} (${location.name}, ${capitalised(weekday)})`;
    return { problem: { code: 'outside_hours', message } };
  }
  const slot = slotsOn(date, schedule).find((candidate) => candidate.start.getTime() === at.getTime());
  if (slot) return { slot };
  const froms = ranges.map(({ open }) => open).join(' and ');
  const message = `${field} is not a slot start: slots start every ${schedule.slotMinutes} minutes from ${froms} ${schedule.timeZone}`;
  return { problem: { code: 'not_a_slot_start', message } };
}

/**
 * The slot that `instant` starts at this location, or a 400 that says why there is none: too soon or too
 * far, the hours unknown, a closure, a day it is closed, outside the day's hours, off the slot grid.
 */
export function bookableSlot(field: string, location: ScheduledLocation, instant: string, now: Date): Slot {
  assertBookableInstant(field, instant, now);
  const at = new Date(instant);
  const found = slotAt(field, location, at);
  if ('problem' in found) throw new InvalidInput(found.problem.message);
  if (at.getTime() < bookingWindow(now).earliest.getTime()) throw new InvalidInput(`${field} must be at least ${BOOKING_LEAD_MINUTES} minutes ahead`);
  return found.slot;
}

/** Two half-open intervals [start, end) overlap. */
export const overlaps = (a: { start: Date; end: Date }, b: { start: Date; end: Date }) =>
  a.start.getTime() < b.end.getTime() && b.start.getTime() < a.end.getTime();
