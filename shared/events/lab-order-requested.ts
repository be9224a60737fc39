/**
 * shared/events owns what the service tells other systems: event types, the outbox and the publisher.
 * It may import store/ (the outbox lives in the table) but never http/ or a handler.
 *
 * LabOrderRequested: a sample exists (a blood draw was confirmed, or a home kit activated) and the lab
 * should test it. Downstream lab systems code against docs/events/lab-order-requested.schema.json,
 * which test/unit/event-schemas.test.ts keeps equal to this schema.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { BARCODE_PATTERN } from '../domain/sample';
import type { DomainEvent } from './publisher';

export const LAB_ORDER_REQUESTED = 'LabOrderRequested';

export const LabOrderRequestedDetail = v.strictObject({
  event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per event; consumers drop duplicates by it.')),
  occurred_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When the sample was registered (UTC).')),
  appointment_id: v.pipe(v.string(), v.uuid()),
  profile_id: v.pipe(v.string(), v.uuid()),
  barcode: v.pipe(v.string(), v.regex(BARCODE_PATTERN), v.description('The sample tube or kit barcode.')),
  test_method: v.picklist(['practitioner', 'home']),
  location_id: v.pipe(v.nullable(v.pipe(v.string(), v.uuid())), v.description('null for a home kit.')),
  panel_ids: v.array(v.pipe(v.string(), v.uuid())),
  biomarker_ids: v.pipe(
    v.array(v.pipe(v.number(), v.integer())),
    v.description("Every biomarker to test: the panels' biomarkers plus the individual ones, once each."),
  ),
});
export type LabOrderRequestedDetail = v.InferOutput<typeof LabOrderRequestedDetail>;

export function labOrderRequested(order: Omit<LabOrderRequestedDetail, 'event_id' | 'occurred_at'>, occurredAt: string): DomainEvent {
  const event_id = randomUUID();
  const detail: LabOrderRequestedDetail = { event_id, occurred_at: occurredAt, ...order };
  return { event_id, detail_type: LAB_ORDER_REQUESTED, occurred_at: occurredAt, detail };
}
