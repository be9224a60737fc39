/** LabResultsAvailable: every planned result of an appointment is in; the appointment is completed. */
import * as v from 'valibot';
import { appointmentEventEntries, appointmentEventFields, type EventAppointment } from './appointment-event';
import type { DomainEvent } from './publisher';

export const LAB_RESULTS_AVAILABLE = 'LabResultsAvailable';

export const LabResultsAvailableDetail = v.strictObject(appointmentEventEntries);
export type LabResultsAvailableDetail = v.InferOutput<typeof LabResultsAvailableDetail>;

export function labResultsAvailable(appointment: EventAppointment, occurredAt: string): DomainEvent {
  const detail: LabResultsAvailableDetail = appointmentEventFields(appointment, occurredAt);
  return { event_id: detail.event_id, detail_type: LAB_RESULTS_AVAILABLE, occurred_at: occurredAt, detail };
}
