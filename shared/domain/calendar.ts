/**
 * shared/domain holds the service's rules as pure functions: no I/O, no clock of its own (callers pass
 * `now`), nothing from store/ or http/ beyond the error types.
 *
 * Calendar dates (YYYY-MM-DD) as the spec uses them for birth dates and pickup dates.
 */
import { wallClockOf } from './wall-clock';

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a date that exists on the calendar: 2024-02-29 yes, 2023-02-29 and 2024-13-01 no. */
export function isCalendarDate(value: string): boolean {
  const match = DATE_SHAPE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The UTC calendar date of an instant. */
export function utcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** A date strictly before the UTC date of `now`: someone born today has no birth date "in the past" yet. */
export function isPastDate(value: string, now: Date): boolean {
  return isCalendarDate(value) && value < utcDate(now);
}

/** The service's zone: the lab and its couriers are in Berlin; pickup rules and report times read its clock. */
export const BERLIN_TIME_ZONE = 'Europe/Berlin';

/** The Berlin calendar date (YYYY-MM-DD) and wall-clock time (HH:MM) of an instant. */
export const berlinDateTime = (instant: Date): { date: string; time: string } => wallClockOf(instant, BERLIN_TIME_ZONE);

/** The calendar date (YYYY-MM-DD) an instant falls on in an IANA time zone (UTC when the zone is unknown). */
export const dateInZone = (instant: Date, timeZone: string | null): string => wallClockOf(instant, timeZone ?? 'UTC').date;

const DAY_MS = 86_400_000;

/** The calendar date `days` after `date` (YYYY-MM-DD; a date has no time zone, so UTC arithmetic is exact). */
export const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** How many days `to` is after `from` (negative when before). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
