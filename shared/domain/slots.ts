/**
 * The slot grid of a location (issue #28): from each opening time of a day, slots of `slot_minutes` follow
 * one another while a whole slot fits before the range closes. The grid is laid in the location's wall
 * clock, through its IANA time zone (temporal-polyfill, the TC39 Temporal API), never by offset arithmetic:
 *
 * - a wall time the clocks skip (spring forward) has no slot: the day simply has fewer;
 * - a wall time that happens twice (fall back) has one slot, at its first occurrence: a repeated hour is
 *   not counted twice, so a seat is never sold for an hour that does not exist as a second hour.
 *
 * Pure: no store, no clock. Closures are passed in; "in the future" is the caller's.
 */
import { Temporal } from 'temporal-polyfill';
import type { Closure, OpenHours, Weekday } from './location-schedule';

/** Temporal's dayOfWeek: 1 is Monday. */
const WEEKDAYS: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

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

export const weekdayOf = (date: string): Weekday => WEEKDAYS[Temporal.PlainDate.from(date).dayOfWeek - 1]!;

/** The slots of one date (YYYY-MM-DD, the location's calendar), in order; none on a closure. */
export function slotsOn(date: string, schedule: Schedule): Slot[] {
  if (schedule.closures.some((closure) => closure.date === date)) return [];
  const day = Temporal.PlainDate.from(date);
  const slots: Slot[] = [];
  for (const { open, close } of schedule.openHours[weekdayOf(date)] ?? []) {
    for (let minute = minutesOf(open); minute + schedule.slotMinutes <= minutesOf(close); minute += schedule.slotMinutes) {
      const wall = day.toPlainDateTime({ hour: Math.floor(minute / 60), minute: minute % 60 });
      // 'compatible' moves a skipped time forward and takes the earlier of a repeated one: skip the former.
      const zoned = wall.toZonedDateTime(schedule.timeZone, { disambiguation: 'compatible' });
      if (!zoned.toPlainDateTime().equals(wall)) continue;
      const start = new Date(zoned.epochMilliseconds);
      slots.push({ start, end: new Date(start.getTime() + schedule.slotMinutes * 60_000) });
    }
  }
  return slots.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** The slots of every date from `from` to `to` (inclusive, the location's calendar), in order. */
export function slotsBetween(from: string, to: string, schedule: Schedule): Slot[] {
  const slots: Slot[] = [];
  const last = Temporal.PlainDate.from(to);
  for (let day = Temporal.PlainDate.from(from); Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) {
    slots.push(...slotsOn(day.toString(), schedule));
  }
  return slots;
}

/** The date and wall-clock time (HH:MM) of an instant in a time zone. */
export function wallClockOf(instant: Date, timeZone: string): { date: string; time: string } {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);
  return { date: zoned.toPlainDate().toString(), time: zoned.toPlainTime().toString({ smallestUnit: 'minute' }) };
}

/** The slot that starts at exactly this instant, if the grid has one. */
export function slotStartingAt(instant: Date, schedule: Schedule): Slot | undefined {
  return slotsOn(wallClockOf(instant, schedule.timeZone).date, schedule).find((slot) => slot.start.getTime() === instant.getTime());
}
