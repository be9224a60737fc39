/**
 * What a lab report changed (issue #29), for clients that show progress and for clinicians who must see a
 * correction: ids, biomarker ids and statuses only, never a value.
 *
 * - LabResultsUpdated: any new or changed result of an appointment, preliminary ones included.
 * - LabResultsCorrected: a final (or corrected) value was replaced by a correction; the value it
 *   replaced stays readable in GET /appointments/{id}/results/history.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { RESULT_STATUSES, type ResultStatus } from '../domain/results';
import type { DomainEvent } from './publisher';

export const LAB_RESULTS_UPDATED = 'LabResultsUpdated';
export const LAB_RESULTS_CORRECTED = 'LabResultsCorrected';

const about = {
  event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per event; consumers drop duplicates by it.')),
  occurred_at: v.pipe(v.string(), v.isoTimestamp()),
  appointment_id: v.pipe(v.string(), v.uuid()),
  profile_id: v.pipe(v.string(), v.uuid()),
  profile_group_slug: v.pipe(v.string(), v.description('The profile group: the access context to filter by tenant.')),
};
const biomarkerId = v.pipe(v.number(), v.integer());

export const LabResultsUpdatedDetail = v.strictObject({
  ...about,
  results: v.pipe(
    v.array(v.strictObject({ biomarker_id: biomarkerId, result_status: v.picklist(RESULT_STATUSES) })),
    v.description('the results the report added or changed, with their status now; GET …/results has the values'),
  ),
});
export type LabResultsUpdatedDetail = v.InferOutput<typeof LabResultsUpdatedDetail>;

export const LabResultsCorrectedDetail = v.strictObject({
  ...about,
  biomarker_ids: v.pipe(v.array(biomarkerId), v.description('the tests whose final value a correction replaced')),
});
export type LabResultsCorrectedDetail = v.InferOutput<typeof LabResultsCorrectedDetail>;

interface Appointment {
  id: string;
  profile_id: string;
  profile_group_slug: string;
}

const aboutOf = (appointment: Appointment, occurredAt: string) => ({
  event_id: randomUUID(),
  occurred_at: occurredAt,
  appointment_id: appointment.id,
  profile_id: appointment.profile_id,
  profile_group_slug: appointment.profile_group_slug,
});

export function labResultsUpdated(appointment: Appointment, results: { biomarker_id: number; result_status: ResultStatus }[], occurredAt: string): DomainEvent {
  const detail: LabResultsUpdatedDetail = { ...aboutOf(appointment, occurredAt), results };
  return { event_id: detail.event_id, detail_type: LAB_RESULTS_UPDATED, occurred_at: occurredAt, detail };
}

export function labResultsCorrected(appointment: Appointment, biomarkerIds: number[], occurredAt: string): DomainEvent {
  const detail: LabResultsCorrectedDetail = { ...aboutOf(appointment, occurredAt), biomarker_ids: biomarkerIds };
  return { event_id: detail.event_id, detail_type: LAB_RESULTS_CORRECTED, occurred_at: occurredAt, detail };
}
