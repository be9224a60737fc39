/**
 * The slot grid of a location (issue #28): from each opening time of a day, slots of `slot_minutes` follow
 * one another while a whole slot fits before the range closes. The grid is laid in the location's wall
 * clock, through its IANA time zone (shared/domain/wall-clock.ts), never by an offset assumed:
 *
 * - a wall time the clocks skip (spring forward) has no slot: the day simply has fewer;
 * - a wall time that happens twice (fall back) has one slot, at its first occurrence: a repeated hour is
 *   not counted twice, so a seat is never sold for an hour that does not exist as a second hour.
 *
 * Pure: no store, no clock. Closures are passed in; "in the future" is the caller's.
 */
import { addDays } from './calendar';
import type { Closure, OpenHours, Weekday } from './location-schedule';
import { instantsAtWallTime, wallClockOf } from './wall-clock';

/** Date's getUTCDay: 0 is Sunday. */
const WEEKDAYS: Weekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

export interface Slot {
  /** The instant the slot starts (UTC). */
  start: Date;
  /** Its start plus slot_minutes of elapsed time. */
  end: Date;
}

export interface Schedule {
  timeZone: string;
  openHours: OpenHours;
  slotMinutes: number;
  closures: readonly Closure[];
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** The weekday of a date (YYYY-MM-DD): a date has no time zone, so UTC's calendar is exact. */
export const weekdayOf = (date: string): Weekday => WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;

/** The slots of one date (YYYY-MM-DD, the location's calendar), in order; none on a closure. */
export function slotsOn(date: string, schedule: Schedule): Slot[] {
  if (schedule.closures.some((closure) => closure.date === date)) return [];
  const slots: Slot[] = [];
  for (const { open, close } of schedule.openHours[weekdayOf(date)] ?? []) {
    for (let minute = minutesOf(open); minute + schedule.slotMinutes <= minutesOf(close); minute += schedule.slotMinutes) {
      // A skipped wall time has no instant, so no slot; a repeated one has two, and the slot is the first.
      const [first] = instantsAtWallTime(date, minute, schedule.timeZone);
      if (first === undefined) continue;
      slots.push({ start: new Date(first), end: new Date(first + schedule.slotMinutes * 60_000) });
    }
  }
  return slots.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** The slots of every date from `from` to `to` (inclusive, the location's calendar), in order. */
export function slotsBetween(from: string, to: string, schedule: Schedule): Slot[] {
  const slots: Slot[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) slots.push(...slotsOn(day, schedule));
  return slots;
}

/** The slot that starts at exactly this instant, if the grid has one. */
export function slotStartingAt(instant: Date, schedule: Schedule): Slot | undefined {
  return slotsOn(wallClockOf(instant, schedule.timeZone).date, schedule).find((slot) => slot.start.getTime() === instant.getTime());
}
