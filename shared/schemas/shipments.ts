/** The shipment reference of a path and the shipment representations (what a client sends is in bodies/shipments.ts). */
import * as v from 'valibot';
import { canonicalShipmentReference, LOGISTICS_PROVIDERS, SHIPMENT_REFERENCE_EITHER, SHIPMENT_STATUSES } from '../domain/shipment';
import type { ShipmentRecord } from '../store/shipments';
import { date, instant, uuid } from './fields';

/**
 * The path's reference: as the shipment shows it, or without hyphens as an appointment's `shipments` show
 * it, read as the same shipment (a client copying it from an appointment should not meet a 400).
 */
const shipmentReference = v.pipe(
  v.string(),
  v.regex(SHIPMENT_REFERENCE_EITHER, 'must be a shipment reference P-<6 digits>-<4 digits> (or its 11 characters without hyphens)'),
  v.description('the shipment reference (random digits), e.g. P-583019-2746, or as an appointment shows it, P5830192746'),
  v.transform(canonicalShipmentReference),
);

export const ShipmentParams = v.object({ id: shipmentReference });

/** The spec's address object: a shipment's origin (the location's pickup address) and destination (the lab). */
export const Address = v.object({
  name: v.string(),
  street: v.string(),
  house_number: v.string(),
  postal_code: v.string(),
  city: v.string(),
  country: v.pipe(v.string(), v.description('ISO 3166-1 alpha-2')),
  phone: v.nullable(v.string()),
  email: v.nullable(v.string()),
});

const createdEntries = {
  id: shipmentReference,
  status: v.pipe(
    v.picklist(SHIPMENT_STATUSES),
    v.description('pending → shipped → in_transit → delivered; pending/shipped/in_transit → fault; pending → cancelled'),
  ),
  logistics_provider: v.picklist(LOGISTICS_PROVIDERS),
  tracking_number: v.nullable(v.string()),
  origin: v.nullable(Address),
  destination: v.nullable(Address),
  notes: v.nullable(v.string()),
  shipped_at: v.nullable(instant),
  arrived_at: v.nullable(instant),
};
const shipmentEntries = {
  ...createdEntries,
  pickup_date: date,
  pickup_time_from: v.pipe(v.string(), v.description('HH:MM')),
  pickup_time_till: v.pipe(v.string(), v.description('HH:MM')),
  created_at: instant,
  updated_at: v.nullable(instant),
};

/** The Create Shipment response: the spec's fields without created_at and updated_at. */
export const CreatedShipment = v.object(createdEntries);
export type CreatedShipment = v.InferOutput<typeof CreatedShipment>;
/** Every other response: with timestamps, and (beyond the spec) the pickup window it was booked for. */
export const Shipment = v.object(shipmentEntries);
export type Shipment = v.InferOutput<typeof Shipment>;
/** GET /shipments/{id}: also the appointments it carries that the reading key may see. */
export const ShipmentWithAppointments = v.object({ ...shipmentEntries, appointment_ids: v.array(uuid) });
export type ShipmentWithAppointments = v.InferOutput<typeof ShipmentWithAppointments>;

export function toCreatedShipment(shipment: ShipmentRecord): CreatedShipment {
  return {
    id: shipment.id,
    status: shipment.status,
    logistics_provider: shipment.logistics_provider,
    tracking_number: shipment.tracking_number,
    origin: shipment.origin,
    destination: shipment.destination,
    notes: shipment.notes,
    shipped_at: shipment.shipped_at,
    arrived_at: shipment.arrived_at,
  };
}

export function toShipment(shipment: ShipmentRecord): Shipment {
  return {
    ...toCreatedShipment(shipment),
    pickup_date: shipment.pickup_date,
    pickup_time_from: shipment.pickup_time_from,
    pickup_time_till: shipment.pickup_time_till,
    created_at: shipment.created_at,
    updated_at: shipment.updated_at,
  };
}
