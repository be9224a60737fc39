/**
 * The details of the status-change events (./status-changed.ts) as subscribers are promised them: the
 * schemas docs/events/ publishes (infra/contract/event-schemas.ts) and the types the events are built to.
 * A module of their own, so that a function that writes a change bundles the event's builder and not its
 * schemas (issue #33).
 */
import * as v from 'valibot';
import { APPOINTMENT_STATUSES } from '../domain/appointment';
import { HOME_KIT_ORDER_STATUSES } from '../domain/home-kit-order';
import { TRANSITION_SOURCES } from '../domain/lifecycle';
import { SHIPMENT_REFERENCE, SHIPMENT_STATUSES } from '../domain/shipment';

const common = {
  event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per event; consumers drop duplicates by it.')),
  occurred_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When the change happened (UTC): for a courier update, the time the courier reported.')),
  source: v.pipe(
    v.picklist(TRANSITION_SOURCES),
    v.description("Who made the change: api (a client key), courier, lab, system, or patient (the patient on their appointment's page)."),
  ),
};

const uuid = v.pipe(v.string(), v.uuid());
const groupSlug = (what: string) => v.pipe(v.string(), v.description(`The ${what} group: the access context to filter by tenant.`));

export const AppointmentStatusChangedDetail = v.strictObject({
  ...common,
  appointment_id: uuid,
  profile_id: uuid,
  profile_group_slug: groupSlug('profile'),
  location_id: v.pipe(v.nullable(uuid), v.description('null for a home kit sample.')),
  from_status: v.pipe(v.nullable(v.picklist(APPOINTMENT_STATUSES)), v.description('null when the appointment was created.')),
  status: v.picklist(APPOINTMENT_STATUSES),
});
export type AppointmentStatusChangedDetail = v.InferOutput<typeof AppointmentStatusChangedDetail>;

export const HomeKitOrderStatusChangedDetail = v.strictObject({
  ...common,
  home_kit_order_id: uuid,
  profile_id: uuid,
  profile_group_slug: groupSlug('profile'),
  appointment_id: v.pipe(v.nullable(uuid), v.description('The appointment its activation created; null before.')),
  from_status: v.pipe(v.nullable(v.picklist(HOME_KIT_ORDER_STATUSES)), v.description('null when the order was created.')),
  status: v.picklist(HOME_KIT_ORDER_STATUSES),
});
export type HomeKitOrderStatusChangedDetail = v.InferOutput<typeof HomeKitOrderStatusChangedDetail>;

export const ShipmentStatusChangedDetail = v.strictObject({
  ...common,
  shipment_id: v.pipe(v.string(), v.regex(SHIPMENT_REFERENCE)),
  location_id: uuid,
  location_group_slug: groupSlug('location'),
  from_status: v.pipe(v.nullable(v.picklist(SHIPMENT_STATUSES)), v.description('null when the shipment was created.')),
  previous_status: v.pipe(
    v.nullable(v.picklist(SHIPMENT_STATUSES)),
    v.description('Deprecated: the same as from_status, kept for consumers written before it.'),
  ),
  status: v.picklist(SHIPMENT_STATUSES),
  tracking_number: v.nullable(v.string()),
});
export type ShipmentStatusChangedDetail = v.InferOutput<typeof ShipmentStatusChangedDetail>;
