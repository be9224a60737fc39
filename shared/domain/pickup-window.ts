/**
 * Courier pickup windows of a shipment: a weekday from today on and at most 90 days ahead, between 09:00
 * and 17:00, at least two hours long, and no same-day pickup from 16:00 on. Couriers work Berlin days, not UTC days: the date
 * rules and the same-day cutoff are evaluated in Europe/Berlin, whatever the server's zone and whatever
 * the season (CET/CEST). `now` is always passed in.
 */
import { InvalidInput } from '../errors';
import { BERLIN_TIME_ZONE, berlinDateTime, isCalendarDate } from './calendar';

export const PICKUP_TIME_ZONE = BERLIN_TIME_ZONE;
export const EARLIEST_PICKUP = '09:00';
export const LATEST_PICKUP = '17:00';
export const MIN_WINDOW_MINUTES = 120;
export const SAME_DAY_CUTOFF = '16:00';
/** How far ahead a pickup can be booked: samples wait days, not years, for a courier; a date in 9999 is a typo. */
export const PICKUP_HORIZON_DAYS = 90;

export interface PickupWindow {
  pickup_date: string;
  pickup_time_from: string;
  pickup_time_till: string;
}

export const isClockTime = (value: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(value);

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The calendar date `days` after `date` (both YYYY-MM-DD). */
function addDays(date: string, days: number): string {
  const day = new Date(`${date}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

function isWeekday(date: string): boolean {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return day >= 1 && day <= 5;
}

/** Throws 400 naming the first rule the window breaks. Formats are checked by the schema before. */
export function assertValidPickupWindow(window: PickupWindow, now: Date): void {
  const { pickup_date: date, pickup_time_from: from, pickup_time_till: till } = window;
  if (!isCalendarDate(date)) throw new InvalidInput('pickup_date must be a real date (YYYY-MM-DD)');
  if (!isWeekday(date)) throw new InvalidInput('pickup_date must be a weekday (Monday to Friday)');
  const berlin = berlinDateTime(now);
  if (date < berlin.date) throw new InvalidInput('pickup_date must be today or later (Europe/Berlin)');
  const latest = addDays(berlin.date, PICKUP_HORIZON_DAYS);
  if (date > latest) {
    throw new InvalidInput(`pickup_date must be at most ${PICKUP_HORIZON_DAYS} days ahead (${latest} or earlier, ${PICKUP_TIME_ZONE})`);
  }
  if (date === berlin.date && berlin.time >= SAME_DAY_CUTOFF) {
    throw new InvalidInput(`same-day pickup is unavailable after ${SAME_DAY_CUTOFF} Europe/Berlin; choose a later pickup_date`);
  }
  for (const [field, time] of [
    ['pickup_time_from', from],
    ['pickup_time_till', till],
  ] as const) {
    if (time < EARLIEST_PICKUP || time > LATEST_PICKUP) {
      throw new InvalidInput(`${field} must be between ${EARLIEST_PICKUP} and ${LATEST_PICKUP}`);
    }
  }
  if (minutes(till) - minutes(from) < MIN_WINDOW_MINUTES) {
    throw new InvalidInput('pickup_time_till must be at least 2 hours after pickup_time_from');
  }
}
