/**
 * shared/domain holds the service's rules as pure functions: no I/O, no clock of its own (callers pass
 * `now`), nothing from store/ or http/ beyond the error types.
 *
 * Calendar dates (YYYY-MM-DD) as the spec uses them for birth dates and pickup dates.
 */
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

/**
 * Made on first use, not at load: a formatter with a time zone loads ICU's zone data, about 7 ms of CPU,
 * and every function bundles this module (the schemas' date fields) while few of them read Berlin's clock.
 */
let berlinClock: Intl.DateTimeFormat | undefined;

/** The Berlin calendar date (YYYY-MM-DD) and wall-clock time (HH:MM) of an instant. */
export function berlinDateTime(instant: Date): { date: string; time: string } {
  berlinClock ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: BERLIN_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const parts = Object.fromEntries(berlinClock.formatToParts(instant).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

const zoneDates = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) an instant falls on in an IANA time zone (UTC when the zone is unknown). */
export function dateInZone(instant: Date, timeZone: string | null): string {
  const zone = timeZone ?? 'UTC';
  let format = zoneDates.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    zoneDates.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const DAY_MS = 86_400_000;

/** The calendar date `days` after `date` (YYYY-MM-DD; a date has no time zone, so UTC arithmetic is exact). */
export const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** How many days `to` is after `from` (negative when before). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
