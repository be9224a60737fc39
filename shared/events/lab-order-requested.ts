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
import { SPECIMEN_TYPES } from '../domain/catalog';
import { REQUISITION_NUMBER_PATTERN } from '../domain/requisition';
import { BARCODE_PATTERN } from '../domain/sample';
import type { DomainEvent } from './publisher';

export const LAB_ORDER_REQUESTED = 'LabOrderRequested';
/** Raised when a field is added or changed; a consumer dispatches on it (docs/events-and-webhooks.md). */
export const LAB_ORDER_SCHEMA_VERSION = 2;

const v1Entries = {
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
};

/**
 * Version 1 (before issue #50): ids and the barcode only. The bus carries version 2; the lab orders queue of a
 * stage whose `labOrdersQueueVersion` is 1 gets version 1, rendered from it by its rule (infra/lab-orders-v1.ts),
 * and its schema stays published in docs/events/ (lab-order-requested.v1.schema.json).
 */
export const LabOrderRequestedDetailV1 = v.strictObject(v1Entries);
/** Version 1's fields, in its order: what infra/lab-orders-v1.ts renders for a consumer still on version 1. */
export const LAB_ORDER_V1_FIELDS = Object.keys(v1Entries) as (keyof typeof v1Entries)[];

/** The specimen a test needs, as the catalog names it (GET /api/v1/biomarkers). */
const OrderedSpecimen = v.strictObject({
  type: v.picklist(SPECIMEN_TYPES),
  container: v.string(),
  min_volume_ml: v.number(),
});

/** The current version: what version 1 carried, unchanged, and the order a lab can accept. */
export const LabOrderRequestedDetail = v.strictObject({
  schema_version: v.pipe(
    v.literal(LAB_ORDER_SCHEMA_VERSION),
    v.description('The version of this detail: 2. A detail without it is version 1 (lab-order-requested.v1.schema.json).'),
  ),
  ...v1Entries,
  requisition_number: v.pipe(
    v.string(),
    v.regex(REQUISITION_NUMBER_PATTERN),
    v.description('The requisition all the tests of this sample are ordered under (RQ- and 12 characters of Crockford base32).'),
  ),
  tests: v.pipe(
    v.array(v.strictObject({ biomarker_id: v.pipe(v.number(), v.integer()), loinc: v.string(), specimen: OrderedSpecimen })),
    v.description('Each biomarker of biomarker_ids with its LOINC code and the specimen it is tested on.'),
  ),
});
export type LabOrderRequestedDetail = v.InferOutput<typeof LabOrderRequestedDetail>;

export function labOrderRequested(order: Omit<LabOrderRequestedDetail, 'schema_version' | 'event_id' | 'occurred_at'>, occurredAt: string): DomainEvent {
  const event_id = randomUUID();
  const detail: LabOrderRequestedDetail = { schema_version: LAB_ORDER_SCHEMA_VERSION, event_id, occurred_at: occurredAt, ...order };
  return { event_id, detail_type: LAB_ORDER_REQUESTED, occurred_at: occurredAt, detail };
}
