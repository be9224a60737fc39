/**
 * The patient registers the kit's barcode. In ONE transaction: the order becomes activated, the sample
 * becomes an appointment (test_method home, blood_drawn, the order's tests), the barcode and a new
 * requisition number are claimed (each unique across all samples) and the lab order pipeline starts (LabOrderRequested), with both
 * resources' history entries and status events. Activating again with the same barcode is a safe retry.
 */
import { assertProfileResourceAccess } from '../auth/access';
import { decideActivation } from '../domain/home-kit-order';
import { apiActor } from '../domain/lifecycle';
import { Conflict } from '../errors';
import { appointmentLifecycle, newAppointment } from '../store/appointments/records';
import { BARCODE_USED, barcodeClaim, requisitionClaim, testLinkPuts } from '../store/appointments/writes';
import { getHomeKitOrderOrThrow, homeKitOrderLifecycle, type HomeKitOrderRecord, ORDER_CHANGED_MEANWHILE } from '../store/home-kit-orders';
import { getExistingProfile, type ProfileRecord } from '../store/profiles';
import { TransactionCancelled } from '../store/transactions';
import { recorded } from '../store/transitions';
import { commit } from './commit';
import { labOrderFor } from './lab-order';
import type { Caller } from './request';

export async function activateHomeKitOrder(
  id: string,
  barcode: string,
  { access, now }: Caller,
): Promise<{ order: HomeKitOrderRecord; profile: ProfileRecord }> {
  const order = await getHomeKitOrderOrThrow(id);
  assertProfileResourceAccess(access, order, 'home kit order');
  if (decideActivation(order.status, order.activation_barcode, barcode) === 'activate') {
    const activated = await activate(order, barcode, access.keyId, now);
    if (activated) return { order: activated, profile: await getExistingProfile(order.profile_id) };
  }
  // Already activated, or a racing activation won: the same barcode is a safe retry, another a conflict.
  const current = await getHomeKitOrderOrThrow(id);
  if (decideActivation(current.status, current.activation_barcode, barcode) !== 'already-activated') {
    throw new Conflict(ORDER_CHANGED_MEANWHILE);
  }
  return { order: current, profile: await getExistingProfile(order.profile_id) };
}

/** The activated order, or undefined when a racing request changed the order first. */
async function activate(order: HomeKitOrderRecord, barcode: string, keyId: string, now: Date): Promise<HomeKitOrderRecord | undefined> {
  const at = now.toISOString();
  const sample = newAppointment(
    {
      profile_id: order.profile_id,
      profile_group_slug: order.profile_group_slug,
      location_id: null,
      scheduled_at: null,
      status: 'blood_drawn',
      test_method: 'home',
      barcode,
      blood_drawn_at: at,
      // The lab order's sender mirrors its state onto the kit (shared/store/lab-orders.ts).
      home_kit_order_id: order.id,
    },
    at,
  );
  const tests = {
    panels: Object.entries(order.panels).map(([panel_id, added_at]) => ({ panel_id, added_at })),
    biomarkers: Object.entries(order.biomarkers).map(([biomarkerId, added_at]) => ({ biomarker_id: Number(biomarkerId), added_at })),
  };
  const { requisition, event } = await labOrderFor(
    sample,
    barcode,
    { panelIds: tests.panels.map((t) => t.panel_id), biomarkerIds: tests.biomarkers.map((t) => t.biomarker_id) },
    at,
  );
  const appointment = { ...sample, requisition };
  const after: HomeKitOrderRecord = {
    ...order,
    status: 'activated',
    activation_barcode: barcode,
    appointment_id: appointment.id,
    requisition: { number: requisition.number, created_at: requisition.created_at },
    updated_at: at,
  };
  const actor = apiActor(keyId);
  try {
    await commit({
      transitions: [
        { lifecycle: homeKitOrderLifecycle, before: order, after, actor, at },
        { lifecycle: appointmentLifecycle, before: null, after: appointment, actor, at, reason: 'home kit activated', name: 'appointment' },
      ],
      items: [
        barcodeClaim(barcode, { appointment_id: appointment.id, home_kit_order_id: order.id }, at),
        requisitionClaim(requisition, appointment.id),
        ...testLinkPuts(appointment.id, tests),
      ],
      events: [event],
      writtenAt: at,
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    // The order changed meanwhile, or (once in 2^60) the requisition number was taken: read it again (a
    // taken number answers 409, whose retry draws a new one).
    if (error.failed('state') || error.failed('requisition')) return undefined;
    if (error.failed('barcode')) throw new Conflict(BARCODE_USED);
    throw error;
  }
  return recorded(order, after);
}
