/**
 * The detail of AppointmentRescheduled (./appointment-rescheduled.ts) as subscribers are promised it: the
 * schema docs/events/ publishes (infra/contract/event-schemas.ts) and the type the event is built to. A
 * module of its own, so that the function that moves an appointment bundles the builder and not this
 * schema (issue #33).
 */
import * as v from 'valibot';
import { TRANSITION_SOURCES } from '../domain/lifecycle';
import { appointmentEventEntries } from './appointment-event';

const slot = (which: string) =>
  v.pipe(
    v.strictObject({
      scheduled_at: v.pipe(v.string(), v.isoTimestamp(), v.description('The start of the slot (UTC).')),
      location_id: v.pipe(v.string(), v.uuid()),
    }),
    v.description(which),
  );

export const AppointmentRescheduledDetail = v.strictObject({
  ...appointmentEventEntries,
  location_group_slug: v.pipe(v.string(), v.description('The group of the location it is booked at now (to.location_id).')),
  from: slot('The slot it was booked at before the move.'),
  to: slot('The slot it is booked at now: another time, another location, or both.'),
  source: v.pipe(
    v.picklist(TRANSITION_SOURCES),
    v.description(
      "Who moved it, as the status history names sources: api for a client key's PATCH, patient for the patient on their appointment's page (its link, issue #53; actor null).",
    ),
  ),
  actor: v.pipe(
    v.nullable(v.string()),
    v.description('The id of the API key that moved it (never its name), as the history entries name their actor; null when no key acted.'),
  ),
});
export type AppointmentRescheduledDetail = v.InferOutput<typeof AppointmentRescheduledDetail>;
