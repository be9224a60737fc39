/** Location representation: every field the spec lists, null where unknown; internal fields dropped. */
import * as v from 'valibot';
import { MAX_AVAILABILITY_SPAN_DAYS } from '../domain/booking';
import { dateInZone } from '../domain/calendar';
import { DEFAULT_CAPACITY_PER_SLOT, DEFAULT_SLOT_MINUTES } from '../domain/location-schedule';
import type { LocationRecord, OpenHours as StoredOpenHours, Weekday } from '../store/locations';
import { calendarDate, date, instant, uuid } from './fields';

const WEEK: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

const clock = v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/), v.description('HH:MM, 24-hour'));
export const OpeningRange = v.object({ open: clock, close: clock });
const day = v.pipe(v.array(OpeningRange), v.description('opening ranges; empty: closed that day'));
export const OpenHours = v.object(Object.fromEntries(WEEK.map((weekday) => [weekday, day])) as Record<Weekday, typeof day>);

export const Location = v.object({
  id: uuid,
  name: v.string(),
  company_name: v.nullable(v.string()),
  address_line_1: v.nullable(v.string()),
  address_line_2: v.nullable(v.string()),
  city: v.nullable(v.string()),
  state: v.pipe(v.nullable(v.string()), v.description('null when the city has no linked state')),
  postal_code: v.nullable(v.string()),
  country_name: v.nullable(v.string()),
  country_code: v.pipe(v.nullable(v.string()), v.description('ISO 3166-1 alpha-2')),
  timezone: v.pipe(v.nullable(v.string()), v.description('IANA time zone, e.g. Europe/Berlin')),
  contact_phone: v.nullable(v.string()),
  email: v.nullable(v.string()),
  website: v.nullable(v.pipe(v.string(), v.url())),
  google_maps_url: v.nullable(v.pipe(v.string(), v.url())),
  image_url: v.nullable(v.pipe(v.string(), v.url())),
  open_hours: v.pipe(v.nullable(OpenHours), v.description('Monday first; null when the hours are unknown')),
  slot_minutes: v.pipe(v.number(), v.integer(), v.description('length of a bookable slot, in minutes')),
  capacity_per_slot: v.pipe(v.number(), v.integer(), v.description('bookings one slot can take (chairs and staff)')),
  closures: v.pipe(
    v.array(v.object({ date, reason: v.nullable(v.string()) })),
    v.description("upcoming dates (in the location's time zone, today included) on which it is closed whatever its hours say, in date order"),
  ),
});
export type Location = v.InferOutput<typeof Location>;

/** Monday first, each day's ranges as {open, close}: DynamoDB keeps no key order in a map. */
function toOpenHours(hours: StoredOpenHours | null | undefined): StoredOpenHours | null {
  if (!hours) return null;
  return Object.fromEntries(WEEK.map((weekday) => [weekday, (hours[weekday] ?? []).map(({ open, close }) => ({ open, close }))])) as StoredOpenHours;
}

/** `now` decides which closures are upcoming: today and later, in the location's own calendar. */
export function toLocation(location: LocationRecord, now: Date): Location {
  const today = dateInZone(now, location.timezone ?? null);
  return {
    id: location.id,
    name: location.name,
    company_name: location.company_name ?? null,
    address_line_1: location.address_line_1 ?? null,
    address_line_2: location.address_line_2 ?? null,
    city: location.city ?? null,
    state: location.state ?? null,
    postal_code: location.postal_code ?? null,
    country_name: location.country_name ?? null,
    country_code: location.country_code ?? null,
    timezone: location.timezone ?? null,
    contact_phone: location.contact_phone ?? null,
    email: location.email ?? null,
    website: location.website ?? null,
    google_maps_url: location.google_maps_url ?? null,
    image_url: location.image_url ?? null,
    open_hours: toOpenHours(location.open_hours),
    slot_minutes: location.slot_minutes ?? DEFAULT_SLOT_MINUTES,
    capacity_per_slot: location.capacity_per_slot ?? DEFAULT_CAPACITY_PER_SLOT,
    closures: (location.closures ?? []).filter((closure) => closure.date >= today).map(({ date, reason }) => ({ date, reason: reason ?? null })),
  };
}

/** GET /locations/{id}/availability: dates in the location's time zone, inclusive. */
export const AvailabilityQuery = v.strictObject({
  from: v.optional(v.pipe(calendarDate, v.description("first date, in the location's time zone; default: today there"))),
  to: v.optional(
    v.pipe(calendarDate, v.description(`last date, inclusive; default: six days after from; at most ${MAX_AVAILABILITY_SPAN_DAYS} days after it`)),
  ),
});

export const Availability = v.object({
  location_id: uuid,
  timezone: v.pipe(v.nullable(v.string()), v.description('IANA time zone the dates and the slot grid are in; null: hours unknown, no slots')),
  slot_minutes: v.pipe(v.number(), v.integer()),
  from: date,
  to: date,
  slots: v.pipe(
    v.array(
      v.object({
        start: v.pipe(instant, v.description('UTC; book it as scheduled_at')),
        end: instant,
        remaining: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('seats still free in the slot')),
      }),
    ),
    v.description(
      'every slot that can be booked now, in order: in the future (at least the lead time ahead), inside the hours, not on a closure, with a free seat',
    ),
  ),
});
export type Availability = v.InferOutput<typeof Availability>;

export const SLOT_PROBLEMS = ['hours_unknown', 'closed', 'outside_hours', 'not_a_slot_start', 'over_capacity'] as const;

export const UpdatedLocation = v.object({
  ...Location.entries,
  affected_appointments: v.pipe(
    v.array(
      v.object({
        id: uuid,
        scheduled_at: instant,
        reason: v.pipe(v.picklist(SLOT_PROBLEMS), v.description('why the new schedule would not take this booking')),
        detail: v.string(),
      }),
    ),
    v.description(
      "scheduled appointments from now on that the new schedule leaves outside its hours, on a closed date, off its slot grid or over a slot's capacity, " +
        'in time order: they stay booked and keep working; move them (PATCH /appointments/{id}) or cancel them. Only those of profile groups the key may see',
    ),
  ),
  other_affected_count: v.pipe(v.number(), v.integer(), v.description('affected appointments of profile groups outside the key, counted only')),
});
export type UpdatedLocation = v.InferOutput<typeof UpdatedLocation>;
