/**
 * Erasure of a person (GDPR Art. 17; README "Privacy"), as one idempotent sweep that a retry completes:
 *
 *   1. the profile's identifiers become null and `erased_at` is set (from then on the profile cannot be
 *      changed, booked for or sent a kit: those writes check `erased_at` in their own transactions);
 *   2. every scheduled appointment is cancelled through its normal transition (history entry, event);
 *   3. every kit order still pending or dispatched is cancelled the same way, and every kit order's inline
 *      delivery address (name, street, phone, email: a copy of the person's data) is removed, in the
 *      same transaction as the cancellation where there is one.
 *
 * Each appointment and each order is its own write. A failure midway leaves the profile erased and some
 * items still to do; the client's retry (or a second erasure) finds and finishes exactly those, and an
 * erasure with nothing left to do writes nothing. Lab results and their documents stay, linked only to the
 * pseudonymous profile id: they are medical records the lab must keep.
 */
import { assertProfileGroupAccess } from '../auth/access';
import { isCancellable as isCancellableAppointment } from '../domain/appointment';
import { isCancellable as isCancellableOrder } from '../domain/home-kit-order';
import { apiActor } from '../domain/lifecycle';
import { NotFound } from '../errors';
import { appointmentLifecycle, type AppointmentRecord } from '../store/appointments/records';
import { homeKitOrderLifecycle, type HomeKitOrderRecord, removeDeliveryAddress } from '../store/home-kit-orders';
import { index } from '../store/keys';
import { eraseProfileIdentifiers, getProfile, PROFILE_NOT_FOUND, type ProfileRecord } from '../store/profiles';
import { listByIndexPrefix } from '../store/query';
import { TransactionCancelled } from '../store/transactions';
import { commit } from './commit';
import type { Caller } from './request';

/** The reason the cancellations' history entries give. */
export const ERASURE_REASON = 'profile erased';

export interface Erasure {
  profile: ProfileRecord;
  /** What this call changed; empty when an earlier erasure had done everything. */
  cancelledAppointmentIds: string[];
  cancelledHomeKitOrderIds: string[];
  erasedAddressOrderIds: string[];
}

const hasInlineAddress = (order: HomeKitOrderRecord) => order.delivery_address !== null && !('location_id' in order.delivery_address);

export async function eraseProfile(id: string, { access, now }: Caller): Promise<Erasure> {
  const found = await getProfile(id);
  if (!found) throw new NotFound(PROFILE_NOT_FOUND);
  assertProfileGroupAccess(access, found.profile_group_slug, 'profile');
  const at = now.toISOString();
  const actor = apiActor(access.keyId);
  const profile = found.erased_at ? found : await eraseProfileIdentifiers(id, at);

  const [appointments, orders] = await Promise.all([
    listByIndexPrefix<AppointmentRecord>(index.appointmentsOfProfile(id)),
    listByIndexPrefix<HomeKitOrderRecord>(index.homeKitOrdersOfProfile(id)),
  ]);

  const cancelledAppointmentIds: string[] = [];
  for (const appointment of appointments.filter((a) => isCancellableAppointment(a.status))) {
    const after: AppointmentRecord = { ...appointment, status: 'cancelled', cancellation_reason: ERASURE_REASON, updated_at: at };
    if (
      await cancelled(() =>
        commit({ transitions: [{ lifecycle: appointmentLifecycle, before: appointment, after, actor, at, reason: ERASURE_REASON }], writtenAt: at }),
      )
    ) {
      cancelledAppointmentIds.push(appointment.id);
    }
  }

  const cancelledHomeKitOrderIds: string[] = [];
  const erasedAddressOrderIds: string[] = [];
  for (const order of orders) {
    const addressGoes = hasInlineAddress(order);
    if (isCancellableOrder(order.status)) {
      const after: HomeKitOrderRecord = { ...order, status: 'cancelled', updated_at: at, ...(addressGoes ? { delivery_address: null } : {}) };
      if (
        await cancelled(() =>
          commit({ transitions: [{ lifecycle: homeKitOrderLifecycle, before: order, after, actor, at, reason: ERASURE_REASON }], writtenAt: at }),
        )
      ) {
        cancelledHomeKitOrderIds.push(order.id);
        if (addressGoes) erasedAddressOrderIds.push(order.id);
        continue;
      }
    }
    // Not cancellable (activated, cancelled), or its status changed under us: only the copy of the address goes.
    if (addressGoes && (await removeDeliveryAddress(order.id, at))) erasedAddressOrderIds.push(order.id);
  }
  return { profile, cancelledAppointmentIds, cancelledHomeKitOrderIds, erasedAddressOrderIds };
}

/**
 * Runs a cancellation; false when a concurrent change won (a draw was confirmed, a kit activated meanwhile):
 * that item is no longer cancellable, and the erasure goes on with the rest.
 */
async function cancelled(write: () => Promise<void>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled) return false;
    throw error;
  }
}
