/** Location representation (SPEC "Location"): every field, null where unknown; internal fields dropped. */
import type { LocationRecord, OpenHours, Weekday } from '../store/locations';

const WEEK: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Monday first, each day's ranges as {open, close}: DynamoDB keeps no key order in a map. */
function toOpenHours(hours: OpenHours | null | undefined): OpenHours | null {
  if (!hours) return null;
  return Object.fromEntries(
    WEEK.map((day) => [day, (hours[day] ?? []).map(({ open, close }) => ({ open, close }))]),
  ) as OpenHours;
}

export function toLocation(location: LocationRecord) {
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
  };
}
