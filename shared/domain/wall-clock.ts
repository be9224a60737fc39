/**
 * Wall-clock time in an IANA time zone, read from the platform's own time-zone data (Intl, with Node's full
 * ICU), for the slot grid of a location (shared/domain/slots.ts).
 *
 * An instant's wall clock is read, never computed. The other way round, the instants at which a zone's
 * clock reads a given wall time are found by trying each UTC offset the zone has a day either side of it
 * (a zone changes offset at most once in two days) and keeping those whose clock, read back, shows that
 * time: none when the clocks skip it (spring forward), two when it happens twice (fall back). So no offset
 * is ever assumed, only checked.
 *
 * Written here, not with a Temporal polyfill (issue #33): these two readings were all the slot grid used
 * of it, and it added 55 KB to the bundle of every function that lays slots.
 */
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** One formatter per zone, made on first use: a formatter with a time zone loads ICU's zone data. */
const clocks = new Map<string, Intl.DateTimeFormat>();

function clockOf(timeZone: string): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    clocks.set(timeZone, clock);
  }
  return clock;
}

/** What the zone's clock reads at an instant, written as if it were UTC (milliseconds since the epoch). */
function wallReading(epochMs: number, timeZone: string): number {
  const parts: Record<string, string> = {};
  for (const { type, value } of clockOf(timeZone).formatToParts(epochMs)) parts[type] = value;
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
}

/** The date (YYYY-MM-DD) and time (HH:MM) the zone's clock shows at an instant. */
export function wallClockOf(instant: Date, timeZone: string): { date: string; time: string } {
  const reading = new Date(wallReading(instant.getTime(), timeZone)).toISOString();
  return { date: reading.slice(0, 10), time: reading.slice(11, 16) };
}

/**
 * The instants (epoch milliseconds, earliest first) at which the zone's clock reads `minute` minutes after
 * midnight of `date` (YYYY-MM-DD): none, one, or two.
 */
export function instantsAtWallTime(date: string, minute: number, timeZone: string): number[] {
  const wall = Date.parse(`${date}T00:00:00Z`) + minute * MINUTE_MS;
  const offsets = new Set([wall - DAY_MS, wall + DAY_MS].map((probe) => wallReading(probe, timeZone) - probe));
  return [...offsets]
    .map((offset) => wall - offset)
    .filter((instant) => wallReading(instant, timeZone) === wall)
    .sort((a, b) => a - b);
}
