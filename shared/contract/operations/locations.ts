/** What the location routes (schedules, availability) and the catalog routes answer. Joined with the other resources in shared/contract/operations.ts. */
import type { RouteName } from '../../routes';
import { Biomarker, Panel } from '../../schemas/catalog';
import { Availability, Location, UpdatedLocation } from '../../schemas/locations';
import { list, type OperationDoc } from '../operation-doc';

export const locationsOperations = {
  listLocations: {
    tag: 'Locations',
    summary: 'List test locations',
    description: 'The active locations accessible to the key. The id of a location is used when creating an appointment or a shipment.',
    responses: { 200: { description: 'Locations, by name.', schema: list(Location) } },
  },
  getLocation: {
    tag: 'Locations',
    summary: 'Get a test location',
    description: 'One active location accessible to the key.',
    responses: { 200: { description: 'The location.', schema: Location } },
    errors: { 404: 'location not found or inactive' },
  },
  updateLocation: {
    tag: 'Locations',
    summary: "Change a location's schedule",
    description:
      'Sets any of open_hours (every weekday; ranges open before they close, in order, not overlapping), slot_minutes (5–240, a multiple of 5), ' +
      "capacity_per_slot (1–100) and closures (replaces the list). Scope LOCATIONS_MANAGE, the location inside the key's location groups. " +
      'Never cancels a booking: affected_appointments names the scheduled ones the new schedule would not take, so the clinic can move them.',
    responses: { 200: { description: 'The location, and the bookings the new schedule leaves outside it.', schema: UpdatedLocation } },
    errors: { 404: 'location not found or inactive' },
  },
  getLocationAvailability: {
    tag: 'Locations',
    summary: 'Free slots of a location',
    description:
      "Every slot from `from` to `to` (dates in the location's time zone, inclusive; default today there and six days later; at most 31 days apart) " +
      'that can be booked now: in the future (at least 30 minutes ahead), inside the hours, not on a closure, with a free seat. Book one with POST /appointments, ' +
      'scheduled_at = its start. A location whose hours are unknown has none.',
    responses: { 200: { description: 'The bookable slots, in order.', schema: Availability } },
    errors: { 404: 'location not found or inactive' },
  },
  listPanels: {
    tag: 'Catalog',
    summary: 'List panels',
    description:
      'Every panel that can be attached to an appointment or a home kit order, with its biomarkers, its names in English, German and Finnish, ' +
      'and what it asks of the lab and the patient, derived from its tests: their distinct specimens, the strictest fasting and their instructions, ' +
      'the collection methods all of them allow and the longest turnaround. loinc only where the lab orders the panel as one (a lipid panel).',
    responses: { 200: { description: 'Panels, by name.', schema: list(Panel) } },
  },
  listBiomarkers: {
    tag: 'Catalog',
    summary: 'List biomarkers',
    description:
      'Every biomarker that can be attached individually, clinical and genetic: its LOINC code, its names and category in English, German and Finnish, ' +
      'the specimen the lab needs (type, container, least volume), the preparation (fasting hours, instructions), the collection methods ' +
      '(practitioner, home) that can take it and its turnaround in days.',
    responses: { 200: { description: 'Biomarkers, by id.', schema: list(Biomarker) } },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
