/**
 * SpecimenRejected (issue #29): the lab could not test a specimen (haemolysed, insufficient, …), whole or
 * for named tests; those tests are not_performed and the person must be drawn again (POST /appointments
 * with recollection_of). Ids, biomarker ids and the reason code only.
 */
import * as v from 'valibot';
import { REJECTION_REASONS, type RejectionReason } from '../domain/results';
import { appointmentEventEntries, appointmentEventFields, type EventAppointment } from './appointment-event';
import type { DomainEvent } from './publisher';

export const SPECIMEN_REJECTED = 'SpecimenRejected';

export const SpecimenRejectedDetail = v.strictObject({
  ...appointmentEventEntries,
  biomarker_ids: v.pipe(v.array(v.pipe(v.number(), v.integer())), v.description('the tests that could not be performed')),
  reason_code: v.picklist(REJECTION_REASONS),
});

export function specimenRejected(appointment: EventAppointment, biomarkerIds: number[], reasonCode: RejectionReason, occurredAt: string): DomainEvent {
  const detail: v.InferOutput<typeof SpecimenRejectedDetail> = {
    ...appointmentEventFields(appointment, occurredAt),
    biomarker_ids: biomarkerIds,
    reason_code: reasonCode,
  };
  return { event_id: detail.event_id, detail_type: SPECIMEN_REJECTED, occurred_at: occurredAt, detail };
}
