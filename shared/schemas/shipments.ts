/** Shipment requests and representations (SPEC "Shipment", "Shipments"). */
import * as v from 'valibot';
import { isCalendarDate } from '../domain/calendar';
import { isZonedDateTime, toUtcInstant } from '../domain/instant';
import { isClockTime } from '../domain/pickup-window';
import { PROVIDER_STATUSES, SHIPMENT_REFERENCE } from '../domain/shipment';
import type { ShipmentRecord } from '../store/shipments';
import { uuid } from './fields';

const pickupDate = v.pipe(v.string(), v.check(isCalendarDate, 'must be a real date (YYYY-MM-DD)'));
const clockTime = v.pipe(v.string(), v.check(isClockTime, 'must be a time HH:MM (24-hour)'));

export const ShipmentParams = v.object({
  id: v.pipe(v.string(), v.regex(SHIPMENT_REFERENCE, 'must be a shipment reference P-<6 digits>-<4 digits>')),
});

export const CreateShipmentBody = v.strictObject({
  location_id: uuid,
  pickup_date: pickupDate,
  pickup_time_from: clockTime,
  pickup_time_till: clockTime,
  notes: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(1000, 'must be at most 1000 characters')))),
});

export const UpdateShipmentBody = v.pipe(
  v.strictObject({
    pickup_date: v.optional(pickupDate),
    pickup_time_from: v.optional(clockTime),
    pickup_time_till: v.optional(clockTime),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'must change pickup_date, pickup_time_from or pickup_time_till'),
);

export const ProviderUpdateBody = v.strictObject({
  status: v.picklist(PROVIDER_STATUSES, `must be one of ${PROVIDER_STATUSES.join(', ')}`),
  tracking_number: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{4,64}$/, 'must be 4–64 letters, digits or hyphens'))),
  occurred_at: v.optional(
    v.pipe(
      v.string(),
      v.check(isZonedDateTime, 'must be an ISO 8601 date-time with a timezone (Z or an offset such as +02:00)'),
      v.transform((value) => toUtcInstant(value)),
    ),
  ),
});

/** The Create Shipment response: the spec's fields without created_at and updated_at. */
export function toCreatedShipment(shipment: ShipmentRecord) {
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

/** Every other response: with timestamps, and (beyond the spec) the pickup window it was booked for. */
export function toShipment(shipment: ShipmentRecord) {
  return {
    ...toCreatedShipment(shipment),
    pickup_date: shipment.pickup_date,
    pickup_time_from: shipment.pickup_time_from,
    pickup_time_till: shipment.pickup_time_till,
    created_at: shipment.created_at,
    updated_at: shipment.updated_at,
  };
}
