/**
 * What every event about an appointment's results starts with: its own id and time, the appointment, the
 * person and their profile group (the tenant a consumer filters by). Ids only, never a value.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';

export const appointmentEventEntries = {
  event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per event; consumers drop duplicates by it.')),
  occurred_at: v.pipe(v.string(), v.isoTimestamp()),
  appointment_id: v.pipe(v.string(), v.uuid()),
  profile_id: v.pipe(v.string(), v.uuid()),
  profile_group_slug: v.pipe(v.string(), v.description('The profile group: the access context to filter by tenant.')),
};

export interface EventAppointment {
  id: string;
  profile_id: string;
  profile_group_slug: string;
}

/** Those fields for a new event about `appointment`, with a fresh event id. */
export const appointmentEventFields = (appointment: EventAppointment, occurredAt: string) => ({
  event_id: randomUUID(),
  occurred_at: occurredAt,
  appointment_id: appointment.id,
  profile_id: appointment.profile_id,
  profile_group_slug: appointment.profile_group_slug,
});
