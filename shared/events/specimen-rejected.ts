/**
 * SpecimenRejected (issue #29): the lab could not test a specimen (haemolysed, insufficient, …), whole or
 * for named tests; those tests are not_performed and the person must be drawn again (POST /appointments
 * with recollection_of). Ids, biomarker ids and the reason code only.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { REJECTION_REASONS, type RejectionReason } from '../domain/results';
import type { DomainEvent } from './publisher';

export const SPECIMEN_REJECTED = 'SpecimenRejected';

export const SpecimenRejectedDetail = v.strictObject({
  event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per event; consumers drop duplicates by it.')),
  occurred_at: v.pipe(v.string(), v.isoTimestamp()),
  appointment_id: v.pipe(v.string(), v.uuid()),
  profile_id: v.pipe(v.string(), v.uuid()),
  profile_group_slug: v.pipe(v.string(), v.description('The profile group: the access context to filter by tenant.')),
  biomarker_ids: v.pipe(v.array(v.pipe(v.number(), v.integer())), v.description('the tests that could not be performed')),
  reason_code: v.picklist(REJECTION_REASONS),
});

export function specimenRejected(
  appointment: { id: string; profile_id: string; profile_group_slug: string },
  biomarkerIds: number[],
  reasonCode: RejectionReason,
  occurredAt: string,
): DomainEvent {
  const detail: v.InferOutput<typeof SpecimenRejectedDetail> = {
    event_id: randomUUID(),
    occurred_at: occurredAt,
    appointment_id: appointment.id,
    profile_id: appointment.profile_id,
    profile_group_slug: appointment.profile_group_slug,
    biomarker_ids: biomarkerIds,
    reason_code: reasonCode,
  };
  return { event_id: detail.event_id, detail_type: SPECIMEN_REJECTED, occurred_at: occurredAt, detail };
}
