/**
 * The status-change events: one per transition of an appointment, a home kit order or a shipment,
 * creation included (from_status null). Written by the transition writer (shared/store/transitions.ts)
 * into the outbox in the same transaction as the change and its history entry, so a subscriber sees
 * every change exactly as the history endpoints list it.
 *
 * Ids and statuses only: no names, birth dates, contact data, results or free text (a cancellation
 * reason stays in the history, which a key reads with its scopes). The access-context ids
 * (profile_group_slug, location_group_slug) let a subscriber filter by tenant without reading anything.
 */
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from './publisher';
import type { AppointmentStatusChangedDetail, HomeKitOrderStatusChangedDetail, ShipmentStatusChangedDetail } from './status-changed-details';

export const APPOINTMENT_STATUS_CHANGED = 'AppointmentStatusChanged';
export const HOME_KIT_ORDER_STATUS_CHANGED = 'HomeKitOrderStatusChanged';
export const SHIPMENT_STATUS_CHANGED = 'ShipmentStatusChanged';

type Detail = AppointmentStatusChangedDetail | HomeKitOrderStatusChangedDetail | ShipmentStatusChangedDetail;

function event<D extends Detail>(detailType: string, detail: Omit<D, 'event_id'>): DomainEvent {
  const event_id = randomUUID();
  return { event_id, detail_type: detailType, occurred_at: detail.occurred_at, detail: { event_id, ...detail } };
}

export const appointmentStatusChanged = (detail: Omit<AppointmentStatusChangedDetail, 'event_id'>) => event(APPOINTMENT_STATUS_CHANGED, detail);
export const homeKitOrderStatusChanged = (detail: Omit<HomeKitOrderStatusChangedDetail, 'event_id'>) => event(HOME_KIT_ORDER_STATUS_CHANGED, detail);
export const shipmentStatusChanged = (detail: Omit<ShipmentStatusChangedDetail, 'event_id' | 'previous_status'>) =>
  event<ShipmentStatusChangedDetail>(SHIPMENT_STATUS_CHANGED, { ...detail, previous_status: detail.from_status });
