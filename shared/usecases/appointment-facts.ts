/**
 * What the patient is told of an appointment, wherever they are told it: the emails (shared/usecases/
 * patient-messages.ts, issue #52) and their appointment's page (shared/usecases/patient-link.ts, issue #53).
 * One reading of each fact, so the page and the email never disagree: the place's one-line address, and what
 * to prepare and how many tubes to collect (who it is from: ./sender.ts).
 */
import type { ProfileRecord } from '../store/profiles';
import type { LocationRecord } from '../store/locations';
import type { AppointmentAggregate } from '../store/appointments/records';
import type { Catalog } from '../store/catalog';
import { toOrderRequirements } from '../schemas/order-requirements';

/** The location's address on one line: street, postal code and city, country. */
export const addressLine = (location: LocationRecord) =>
  [location.address_line_1, location.address_line_2, [location.postal_code, location.city].filter(Boolean).join(' '), location.country_name]
    .filter((part) => part)
    .join(', ');

/** What to prepare (fasting hours, instructions, in the profile's language) and how many tubes and cards to collect. */
export function preparationOf(aggregate: AppointmentAggregate, catalog: Catalog, language: ProfileRecord['language']) {
  const requirements = toOrderRequirements(
    { panelIds: aggregate.panels.map((link) => link.panel_id), biomarkerIds: aggregate.biomarkers.map((link) => link.biomarker_id) },
    catalog,
    language,
    aggregate.appointment.requisition?.tests,
  );
  return {
    preparation: requirements.preparation,
    specimenCount: requirements.specimens_to_collect.reduce((sum, specimen) => sum + specimen.count, 0),
  };
}

/** When the appointment's slot ends: as booked, or 15 minutes after its start for one booked before slots. */
export const slotEndOf = (appointment: { scheduled_at: string; ends_at?: string }) =>
  appointment.ends_at ?? new Date(Date.parse(appointment.scheduled_at) + 15 * 60_000).toISOString();
