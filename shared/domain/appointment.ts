/**
 * The appointment lifecycle: one status set everywhere.
 *
 *   scheduled ──confirm──▶ blood_drawn ──pickup──▶ in_transit ──all results──▶ completed
 *   scheduled ──cancel───▶ cancelled
 *
 * The spec's `pending` is `scheduled` and its `confirmed` is `blood_drawn`. Changes to the schedule,
 * location or attached tests are only possible while `scheduled`.
 */
import { InvalidInput, Conflict } from '../errors';

export const APPOINTMENT_STATUSES = ['scheduled', 'blood_drawn', 'in_transit', 'completed', 'cancelled'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** How far ahead an appointment can be booked: a typo of the year should not book 2062. */
export const BOOKING_HORIZON_DAYS = 365;

export function assertBookableInstant(field: string, instant: string, now: Date): void {
  const at = Date.parse(instant);
  if (at <= now.getTime()) throw new InvalidInput(`${field} must be in the future`);
  if (at > now.getTime() + BOOKING_HORIZON_DAYS * 86_400_000) {
    throw new InvalidInput(`${field} must be at most ${BOOKING_HORIZON_DAYS} days ahead`);
  }
}

/** PATCH and attaching panels or biomarkers: only before the draw, never once cancelled. */
export function assertEditable(status: AppointmentStatus): void {
  if (status === 'cancelled') throw new Conflict('The appointment is cancelled and can no longer be changed');
  if (status !== 'scheduled') {
    throw new Conflict(`The blood draw is already confirmed (status ${status}); the appointment can no longer be changed`);
  }
}

export type ConfirmDecision = 'confirm' | 'already-confirmed';

/**
 * Confirm records the draw once. Confirming again with the same barcode is a safe retry (nothing
 * changes); with another barcode it is a conflict, as is confirming a cancelled appointment.
 */
export function decideConfirm(status: AppointmentStatus, currentBarcode: string | null, barcode: string): ConfirmDecision {
  if (status === 'scheduled') return 'confirm';
  if (status === 'cancelled') throw new Conflict('The appointment is cancelled; its blood draw cannot be confirmed');
  if (currentBarcode === barcode) return 'already-confirmed';
  throw new Conflict('The blood draw of this appointment is already confirmed with another barcode');
}

/** Only a scheduled appointment can be cancelled: a drawn sample is on its way to the lab. */
export const isCancellable = (status: AppointmentStatus) => status === 'scheduled';

export function assertCancellable(status: AppointmentStatus): void {
  if (status === 'cancelled') throw new Conflict('The appointment is already cancelled');
  if (!isCancellable(status)) {
    throw new Conflict(`The appointment is ${status}; only scheduled appointments can be cancelled`);
  }
}

export interface PickupPlan {
  /** blood_drawn → in_transit */
  move: string[];
  /** already in_transit or completed: silently skipped */
  skip: string[];
}

/** The spec's pickup table: drawn ones move, later ones are skipped, an undrawn one fails the whole batch. */
export function planPickup(appointments: { id: string; status: AppointmentStatus }[]): PickupPlan {
  const notDrawn = appointments.filter((a) => a.status === 'scheduled' || a.status === 'cancelled');
  if (notDrawn.length > 0) {
    throw new Conflict(`Blood draw not confirmed for appointment(s) ${notDrawn.map((a) => a.id).join(', ')}; nothing was picked up`);
  }
  return {
    move: appointments.filter((a) => a.status === 'blood_drawn').map((a) => a.id),
    skip: appointments.filter((a) => a.status === 'in_transit' || a.status === 'completed').map((a) => a.id),
  };
}

/** What the lab must test: the panels' biomarkers plus the individual ones, once each, in id order. */
export function plannedBiomarkerIds(panelBiomarkers: number[][], individual: number[]): number[] {
  return [...new Set([...panelBiomarkers.flat(), ...individual])].sort((a, b) => a - b);
}
