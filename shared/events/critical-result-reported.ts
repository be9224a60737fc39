/**
 * CriticalResultReported (issue #29): a lab report brought a value beyond its biomarker's critical limits
 * (or the lab flagged it critical): a clinician must see it at once and acknowledge it
 * (POST /appointments/{id}/results/acknowledge). Ids and biomarker ids only, never a value.
 */
import * as v from 'valibot';
import { appointmentEventEntries, appointmentEventFields, type EventAppointment } from './appointment-event';
import type { DomainEvent } from './publisher';

export const CRITICAL_RESULT_REPORTED = 'CriticalResultReported';

export const CriticalResultReportedDetail = v.strictObject({
  ...appointmentEventEntries,
  biomarker_ids: v.pipe(v.array(v.pipe(v.number(), v.integer())), v.description('the tests this report found critical')),
});
export type CriticalResultReportedDetail = v.InferOutput<typeof CriticalResultReportedDetail>;

export function criticalResultReported(appointment: EventAppointment, biomarkerIds: number[], occurredAt: string): DomainEvent {
  const detail: CriticalResultReportedDetail = {
    ...appointmentEventFields(appointment, occurredAt),
    biomarker_ids: biomarkerIds,
  };
  return { event_id: detail.event_id, detail_type: CRITICAL_RESULT_REPORTED, occurred_at: occurredAt, detail };
}
