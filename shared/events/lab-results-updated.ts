/**
 * What a lab report changed (issue #29), for clients that show progress and for clinicians who must see a
 * correction: ids, biomarker ids and statuses only, never a value.
 *
 * - LabResultsUpdated: any new or changed result of an appointment, preliminary ones included.
 * - LabResultsCorrected: a final (or corrected) value was replaced by a correction; the value it
 *   replaced stays readable in GET /appointments/{id}/results/history.
 */
import * as v from 'valibot';
import { RESULT_STATUSES, type ResultStatus } from '../domain/results';
import { appointmentEventEntries, appointmentEventFields, type EventAppointment } from './appointment-event';
import type { DomainEvent } from './publisher';

export const LAB_RESULTS_UPDATED = 'LabResultsUpdated';
export const LAB_RESULTS_CORRECTED = 'LabResultsCorrected';

const biomarkerId = v.pipe(v.number(), v.integer());

export const LabResultsUpdatedDetail = v.strictObject({
  ...appointmentEventEntries,
  results: v.pipe(
    v.array(v.strictObject({ biomarker_id: biomarkerId, result_status: v.picklist(RESULT_STATUSES) })),
    v.description('the results the report added or changed, with their status now; GET …/results has the values'),
  ),
});
export type LabResultsUpdatedDetail = v.InferOutput<typeof LabResultsUpdatedDetail>;

export const LabResultsCorrectedDetail = v.strictObject({
  ...appointmentEventEntries,
  biomarker_ids: v.pipe(v.array(biomarkerId), v.description('the tests whose final value a correction replaced')),
});
export type LabResultsCorrectedDetail = v.InferOutput<typeof LabResultsCorrectedDetail>;

export function labResultsUpdated(
  appointment: EventAppointment,
  results: { biomarker_id: number; result_status: ResultStatus }[],
  occurredAt: string,
): DomainEvent {
  const detail: LabResultsUpdatedDetail = { ...appointmentEventFields(appointment, occurredAt), results };
  return { event_id: detail.event_id, detail_type: LAB_RESULTS_UPDATED, occurred_at: occurredAt, detail };
}

export function labResultsCorrected(appointment: EventAppointment, biomarkerIds: number[], occurredAt: string): DomainEvent {
  const detail: LabResultsCorrectedDetail = { ...appointmentEventFields(appointment, occurredAt), biomarker_ids: biomarkerIds };
  return { event_id: detail.event_id, detail_type: LAB_RESULTS_CORRECTED, occurred_at: occurredAt, detail };
}
