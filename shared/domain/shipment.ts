/**
 * The shipment lifecycle and its references.
 *
 *   pending ──provider──▶ shipped ──▶ in_transit ──▶ delivered
 *   pending / shipped / in_transit ──provider──▶ fault
 *   pending ──DELETE──▶ cancelled
 *
 * A reference has the spec's shape `P-<6 digits>-<4 digits>`, and its ten digits are random: a reference
 * tells nothing (no date, no count of another tenant's shipments), and probing (403 or 404) hits one in
 * 10^10 per existing shipment. The spec does not ask for a date in it; a date would leave only 4 random
 * digits, 10 000 a day, which a client could enumerate. Inside an appointment it shows without hyphens.
 */
import { Conflict } from '../errors';

export const SHIPMENT_STATUSES = ['pending', 'shipped', 'in_transit', 'delivered', 'fault', 'cancelled'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];
export const PROVIDER_STATUSES = ['shipped', 'in_transit', 'delivered', 'fault'] as const;
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number];
export const LOGISTICS_PROVIDERS = ['go_express', 'dhl', 'tof'] as const;
export type LogisticsProvider = (typeof LOGISTICS_PROVIDERS)[number];

export const SHIPMENT_REFERENCE = /^P-\d{6}-\d{4}$/;
/** How many references there are: every value of the ten digits. */
export const SHIPMENT_REFERENCE_VALUES = 10 ** 10;

/** The reference of a value in [0, SHIPMENT_REFERENCE_VALUES): its ten digits, zero-padded. */
export function shipmentReference(value: number): string {
  const digits = String(value).padStart(10, '0');
  return `P-${digits.slice(0, 6)}-${digits.slice(6)}`;
}

/** How an appointment shows its link to a shipment: the same reference without hyphens, as the spec requires. */
export const linkedShipmentId = (reference: string) => reference.replaceAll('-', '');

/** A reference as a shipment shows it (`P-583019-2746`) or as an appointment shows it (`P5830192746`). */
export const SHIPMENT_REFERENCE_EITHER = /^P(-\d{6}-\d{4}|\d{10})$/;

/** Either spelling of a reference (SHIPMENT_REFERENCE_EITHER) as the shipment's own, with hyphens. */
export const canonicalShipmentReference = (reference: string) => shipmentReference(Number(reference.replaceAll(/\D/g, '')));

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
