/** ShipmentStatusChanged: a courier reported that a shipment moved (shipped, in transit, delivered, fault). */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { SHIPMENT_STATUSES } from '../domain/shipment';
import type { DomainEvent } from './publisher';

export const SHIPMENT_STATUS_CHANGED = 'ShipmentStatusChanged';

export const ShipmentStatusChangedDetail = v.strictObject({
  event_id: v.pipe(v.string(), v.uuid(), v.description('Unique per event; consumers drop duplicates by it.')),
  occurred_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When the provider says the change happened.')),
  shipment_id: v.pipe(v.string(), v.regex(/^P-\d{6}-\d{4}$/)),
  location_id: v.pipe(v.string(), v.uuid()),
  previous_status: v.picklist(SHIPMENT_STATUSES),
  status: v.picklist(SHIPMENT_STATUSES),
  tracking_number: v.nullable(v.string()),
});
export type ShipmentStatusChangedDetail = v.InferOutput<typeof ShipmentStatusChangedDetail>;

export function shipmentStatusChanged(change: Omit<ShipmentStatusChangedDetail, 'event_id'>): DomainEvent {
  const event_id = randomUUID();
  const detail: ShipmentStatusChangedDetail = { event_id, ...change };
  return { event_id, detail_type: SHIPMENT_STATUS_CHANGED, occurred_at: change.occurred_at, detail };
}
