/**
 * A location's schedule beside its opening hours (issue #28): slots of `slot_minutes`, each taking
 * `capacity_per_slot` bookings, and closure dates in its own time zone. Pure: the reference data checks
 * and the representation both read it without loading the store.
 */

export type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
/** Per weekday, the ranges the location is open (HH:MM, its wall clock); an empty list: closed that day. */
export type OpenHours = Record<Weekday, { open: string; close: string }[]>;

/** A location stored before schedules existed reads as 15-minute slots of one booking each. */
export const DEFAULT_SLOT_MINUTES = 15;
export const DEFAULT_CAPACITY_PER_SLOT = 1;

/** A date (YYYY-MM-DD, the location's calendar) on which it is closed whatever its hours say. */
export interface Closure {
  date: string;
  reason: string | null;
}

/** What the booking rules read of a location: its name (for the messages) and its schedule. */
export interface ScheduledLocation {
  name: string;
  timezone: string | null;
  open_hours: OpenHours | null;
  slot_minutes?: number;
  capacity_per_slot?: number;
  closures?: Closure[];
}
