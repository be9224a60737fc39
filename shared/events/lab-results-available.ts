/** LabResultsAvailable: every planned result of an appointment is in; the appointment is completed. */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { DomainEvent } from './publisher';

export const LAB_RESULTS_AVAILABLE = 'LabResultsAvailable';

export const LabResultsAvailableDetail = v.strictObject({
  event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per event; consumers drop duplicates by it.')),
  occurred_at: v.pipe(v.string(), v.isoTimestamp()),
  appointment_id: v.pipe(v.string(), v.uuid()),
  profile_id: v.pipe(v.string(), v.uuid()),
  profile_group_slug: v.pipe(v.string(), v.description('The profile group: the access context to filter by tenant.')),
});
export type LabResultsAvailableDetail = v.InferOutput<typeof LabResultsAvailableDetail>;

export function labResultsAvailable(appointment: { id: string; profile_id: string; profile_group_slug: string }, occurredAt: string): DomainEvent {
  const event_id = randomUUID();
  const detail: LabResultsAvailableDetail = {
    event_id,
    occurred_at: occurredAt,
    appointment_id: appointment.id,
    profile_id: appointment.profile_id,
    profile_group_slug: appointment.profile_group_slug,
  };
  return { event_id, detail_type: LAB_RESULTS_AVAILABLE, occurred_at: occurredAt, detail };
}
