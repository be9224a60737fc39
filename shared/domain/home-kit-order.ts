/**
 * The home kit order lifecycle:
 *
 *   pending ──dispatch (tracking number)──▶ dispatched ──activate (barcode)──▶ activated
 *   pending / dispatched ──DELETE──▶ cancelled
 *
 * Activation is the patient registering the kit's barcode: it creates an appointment (test_method home,
 * no location, no time, status blood_drawn) and starts the lab order pipeline.
 */
import { InvalidInput, Conflict } from '../errors';

export const HOME_KIT_ORDER_STATUSES = ['pending', 'dispatched', 'activated', 'cancelled'] as const;
export type HomeKitOrderStatus = (typeof HOME_KIT_ORDER_STATUSES)[number];

/**
 * At activation the order's tests become link items of the new appointment, all in one transaction of
 * at most 100 items (appointment, barcode and requisition claims, outbox entry and order take 5): a kit
 * holds at most 90 tests.
 */
export const MAX_KIT_TESTS = 90;

export function assertAttachable(status: HomeKitOrderStatus): void {
  if (status !== 'pending') throw new Conflict(`The order is ${status}; tests can only be attached while it is pending`);
}

/** A pending or dispatched order can be cancelled; an activated one has become an appointment. */
export const isCancellable = (status: HomeKitOrderStatus) => status === 'pending' || status === 'dispatched';

export function assertCancellable(status: HomeKitOrderStatus): void {
  if (!isCancellable(status)) {
    throw new Conflict(`The order is ${status}; only pending or dispatched orders can be cancelled`);
  }
}

export function assertDispatchable(status: HomeKitOrderStatus, testCount: number): void {
  if (status !== 'pending') throw new Conflict(`The order is ${status}; only pending orders can be dispatched`);
  if (testCount === 0) throw new Conflict('The order has no panel and no biomarker; attach tests before dispatching the kit');
}

/** Activating again with the same barcode is a safe retry; anything else after activation is a conflict. */
export function decideActivation(status: HomeKitOrderStatus, currentBarcode: string | null, barcode: string): 'activate' | 'already-activated' {
  if (status === 'dispatched') return 'activate';
  if (status === 'activated' && currentBarcode === barcode) return 'already-activated';
  if (status === 'activated') throw new Conflict('The kit is already activated with another barcode');
  throw new Conflict(`The order is ${status}; only a dispatched kit can be activated`);
}

/** The kit's tests after attaching these must stay within MAX_KIT_TESTS. */
export function assertKitCapacity(
  order: { panels: Record<string, string>; biomarkers: Record<string, string> },
  adding: { panelIds?: string[]; biomarkerIds?: number[] },
): void {
  const panels = new Set([...Object.keys(order.panels), ...(adding.panelIds ?? [])]);
  const biomarkers = new Set([...Object.keys(order.biomarkers), ...(adding.biomarkerIds ?? []).map(String)]);
  if (panels.size + biomarkers.size > MAX_KIT_TESTS) {
    throw new InvalidInput(`A kit holds at most ${MAX_KIT_TESTS} panels and biomarkers together`);
  }
}
