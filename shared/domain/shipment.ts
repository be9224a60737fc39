/**
 * The shipment lifecycle and its references.
 *
 *   pending ──provider──▶ shipped ──▶ in_transit ──▶ delivered
 *   pending / shipped / in_transit ──provider──▶ fault
 *   pending ──DELETE──▶ cancelled
 *
 * A reference is `P-<YYMMDD>-<NNNN>`: the Berlin date the shipment was created and that day's sequence
 * number (0001–9999) from an atomic counter. Inside an appointment it shows without hyphens.
 */
import { Conflict } from '../errors';

export const SHIPMENT_STATUSES = ['pending', 'shipped', 'in_transit', 'delivered', 'fault', 'cancelled'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];
export const PROVIDER_STATUSES = ['shipped', 'in_transit', 'delivered', 'fault'] as const;
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number];
export const LOGISTICS_PROVIDERS = ['go_express', 'dhl', 'tof'] as const;
export type LogisticsProvider = (typeof LOGISTICS_PROVIDERS)[number];

export const SHIPMENT_REFERENCE = /^P-\d{6}-\d{4}$/;
export const MAX_DAILY_SEQUENCE = 9999;

export function shipmentReference(berlinDate: string, sequence: number): string {
  return `P-${berlinDate.slice(2, 4)}${berlinDate.slice(5, 7)}${berlinDate.slice(8, 10)}-${String(sequence).padStart(4, '0')}`;
}

/** How an appointment shows its link to a shipment: the same reference without hyphens, as the spec requires. */
export const linkedShipmentId = (reference: string) => reference.replaceAll('-', '');

const FINAL: readonly ShipmentStatus[] = ['delivered', 'fault', 'cancelled'];

/** PATCH and DELETE: only before pickup. */
export function assertPending(status: ShipmentStatus, action: string): void {
  if (status !== 'pending') throw new Conflict(`The shipment is ${status}; it can only be ${action} while pending`);
}

const NEXT: Record<ProviderStatus, readonly ShipmentStatus[]> = {
  shipped: ['pending'],
  in_transit: ['shipped'],
  delivered: ['in_transit'],
  fault: ['pending', 'shipped', 'in_transit'],
};

/** A provider update: the allowed move, or 409. The same status again is no move (a repeated callback). */
export function decideProviderUpdate(current: ShipmentStatus, next: ProviderStatus): 'apply' | 'unchanged' {
  if (current === next) return 'unchanged';
  if (NEXT[next].includes(current)) return 'apply';
  throw new Conflict(`A ${current} shipment cannot become ${next}`);
}

/** Appointments can be handed to a shipment that has not been delivered, cancelled or faulted. */
export function assertAcceptsSamples(status: ShipmentStatus): void {
  if (FINAL.includes(status)) throw new Conflict(`The shipment is ${status}; samples cannot be added to it`);
}
