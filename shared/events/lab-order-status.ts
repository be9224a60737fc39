/**
 * The lab's answer to an order sent over MLLP (issue #51): LabOrderAccepted, LabOrderRefused (the lab's
 * engine answered AE/AR), LabOrderFailed (no answer after every attempt). Written with the status change on
 * the appointment (and its home kit) in one transaction, through the outbox (shared/store/lab-orders.ts).
 *
 * Ids, statuses, the control id and the requisition number only: never the lab's reason (free text that
 * may quote the person), which the appointment's and the kit's `lab_order.error` show to a key that may
 * read them. home_kit_order_id says whose event it is: a home kit's (received with the kit's scopes) or,
 * when null, a draw's at a location (received with the appointment's).
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { REQUISITION_NUMBER_PATTERN } from '../domain/requisition';
import { LAB_ORDER_STATUSES, type LabOrderStatus } from '../domain/lab-order';
import type { DomainEvent } from './publisher';

export const LAB_ORDER_ACCEPTED = 'LabOrderAccepted';
export const LAB_ORDER_REFUSED = 'LabOrderRefused';
export const LAB_ORDER_FAILED = 'LabOrderFailed';
export const LAB_ORDER_STATUS_EVENTS = [LAB_ORDER_ACCEPTED, LAB_ORDER_REFUSED, LAB_ORDER_FAILED] as const;

export type AnsweredStatus = Exclude<LabOrderStatus, 'pending'>;
const TYPE_OF: Readonly<Record<AnsweredStatus, (typeof LAB_ORDER_STATUS_EVENTS)[number]>> = {
  accepted: LAB_ORDER_ACCEPTED,
  refused: LAB_ORDER_REFUSED,
  failed: LAB_ORDER_FAILED,
};

const uuid = v.pipe(v.string(), v.uuid());
const detailOf = (status: AnsweredStatus) =>
  v.strictObject({
    event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per event; consumers drop duplicates by it.')),
    occurred_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When the lab answered, or (failed) when the last attempt ended.')),
    appointment_id: v.pipe(uuid, v.description('The sample: the appointment of the draw, or the one its home kit activation made.')),
    home_kit_order_id: v.pipe(
      v.nullable(uuid),
      v.description(
        "The home kit whose sample it is; null for a draw at a location. A kit's event is received with the kit's scopes, a draw's with the appointment's.",
      ),
    ),
    profile_id: uuid,
    profile_group_slug: v.pipe(v.string(), v.description('The profile group: the access context to filter by tenant.')),
    requisition_number: v.pipe(v.string(), v.regex(REQUISITION_NUMBER_PATTERN)),
    message_control_id: v.pipe(v.string(), v.description('MSH-10 of the order message, the same on every attempt: the requisition number without hyphens.')),
    from_status: v.pipe(v.picklist(LAB_ORDER_STATUSES), v.description('pending, or failed when a redrive of a failed order was answered.')),
    status: v.literal(status),
  });

export const LabOrderAcceptedDetail = detailOf('accepted');
export const LabOrderRefusedDetail = detailOf('refused');
export const LabOrderFailedDetail = detailOf('failed');
type Detail = v.InferOutput<ReturnType<typeof detailOf>>;

export interface LabOrderSample {
  appointment_id: string;
  home_kit_order_id: string | null;
  profile_id: string;
  profile_group_slug: string;
  requisition_number: string;
  message_control_id: string;
}

/** The event of the order's change from `from` to `to`. */
export function labOrderStatusChanged(sample: LabOrderSample, from: LabOrderStatus, to: AnsweredStatus, occurredAt: string): DomainEvent {
  const detail: Detail = { event_id: randomUUID(), occurred_at: occurredAt, ...sample, from_status: from, status: to };
  return { event_id: detail.event_id, detail_type: TYPE_OF[to], occurred_at: occurredAt, detail };
}
