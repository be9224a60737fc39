/**
 * CriticalResultReported (issue #29): a lab report brought a value beyond its biomarker's critical limits
 * (or the lab flagged it critical): a clinician must see it at once and acknowledge it
 * (POST /appointments/{id}/results/acknowledge). Ids and biomarker ids only, never a value.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { DomainEvent } from './publisher';

export const CRITICAL_RESULT_REPORTED = 'CriticalResultReported';

export const CriticalResultReportedDetail = v.strictObject({
  event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per event; consumers drop duplicates by it.')),
  occurred_at: v.pipe(v.string(), v.isoTimestamp()),
  appointment_id: v.pipe(v.string(), v.uuid()),
  profile_id: v.pipe(v.string(), v.uuid()),
  profile_group_slug: v.pipe(v.string(), v.description('The profile group: the access context to filter by tenant.')),
  biomarker_ids: v.pipe(v.array(v.pipe(v.number(), v.integer())), v.description('the tests this report found critical')),
});
export type CriticalResultReportedDetail = v.InferOutput<typeof CriticalResultReportedDetail>;

export function criticalResultReported(
  appointment: { id: string; profile_id: string; profile_group_slug: string },
  biomarkerIds: number[],
  occurredAt: string,
): DomainEvent {
  const detail: CriticalResultReportedDetail = {
    event_id: randomUUID(),
    occurred_at: occurredAt,
    appointment_id: appointment.id,
    profile_id: appointment.profile_id,
    profile_group_slug: appointment.profile_group_slug,
    biomarker_ids: biomarkerIds,
  };
  return { event_id: detail.event_id, detail_type: CRITICAL_RESULT_REPORTED, occurred_at: occurredAt, detail };
}
