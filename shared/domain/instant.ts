/**
 * Instants as the API takes and gives them: ISO 8601 with a timezone designator (Z or ±HH:MM) in,
 * UTC with `Z` out, to the second. A wall-clock time without a zone is ambiguous for a nurse in Berlin
 * and a clinic app in Helsinki alike, so it is refused.
 */
import { isCalendarDate } from './calendar';

const ZONED_DATETIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/**
 * Other systems' clocks drift: a courier's update or a lab's report from further in the future than this
 * is refused. Accepted, a report dated 9999 would outrank every later one (shared/domain/results.ts).
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** Whether `value` lies further ahead of `now` than another system's clock may drift. */
export const isBeyondClockSkew = (value: string, now: Date) => Date.parse(value) > now.getTime() + MAX_CLOCK_SKEW_MS;

export function isZonedDateTime(value: string): boolean {
  const match = ZONED_DATETIME.exec(value);
  return match !== null && isCalendarDate(match[1] as string) && !Number.isNaN(Date.parse(value));
}

/** The UTC rendering the API answers with: `2026-12-01T08:30:00Z`. */
export function toUtcInstant(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
