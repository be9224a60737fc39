/**
 * Erasure of a person (GDPR Art. 17; docs/privacy.md "Privacy"), as one idempotent sweep that a retry completes:
 *
 *   1. the profile's identifiers become null and `erased_at` is set (from then on the profile cannot be
 *      changed, booked for or sent a kit: those writes check `erased_at` in their own transactions);
 *   2. every scheduled appointment is cancelled through its normal transition (history entry, event);
 *   3. every kit order still pending or dispatched is cancelled the same way, and every kit order's inline
 *      delivery address (name, street, phone, email: a copy of the person's data) is removed, in the
 *      same transaction as the cancellation where there is one;
 *   4. a lab's reason for refusing an order of theirs (lab_order.error, issue #51), which may quote them, is
 *      replaced, on the appointment and its kit;
 *   5. the emails sent to them (issue #52: subjects, and the address's hash on a sent one) are deleted, and
 *      the reminders of their appointments (cancelled in step 2, but a reminder filed meanwhile would wait).
 *
 * Each appointment and each order is its own write. A failure midway leaves the profile erased and some
 * items still to do; the client's retry (or a second erasure) finds and finishes exactly those, and an
 * erasure with nothing left to do writes nothing. Lab results and their documents stay, linked only to the
 * pseudonymous profile id: they are medical records the lab must keep.
 */
import { assertProfileGroupAccess } from '../auth/access';
import { isCancellable as isCancellableAppointment } from '../domain/appointment';
import { isCancellable as isCancellableOrder } from '../domain/home-kit-order';
import { type Actor, apiActor } from '../domain/lifecycle';
import { NotFound, Unavailable } from '../errors';
import { getAppointment, getAppointments } from '../store/appointments/reads';
import { appointmentLifecycle, type AppointmentRecord } from '../store/appointments/records';
import { releaseHeldSeat, slotAsRead } from '../store/appointments/writes';
import { eraseLabOrderText } from '../store/lab-orders';
import { deleteMessagesOf } from '../store/messages';
import { dropReminder } from '../store/reminders';
import { getHomeKitOrderOrThrow, homeKitOrderLifecycle, type HomeKitOrderRecord, removeDeliveryAddress } from '../store/home-kit-orders';
import * as index from '../store/keys/index-entries';
import { eraseProfileIdentifiers, getProfile, linkedToProfile, PROFILE_NOT_FOUND, type ProfileRecord } from '../store/profiles';
import { listByIndexPrefix } from '../store/query';
import { transactedIf } from '../store/transactions';
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

/** What a client hears when an item kept changing under the erasure: the profile is erased, the retry finishes. */
const BUSY = 'The profile is erased, but an appointment or kit order of it kept changing meanwhile; retry the erasure to finish it';

/** Tries per item: a concurrent change (a confirm, a dispatch) makes the erasure read the item again and decide anew. */
const MAX_ATTEMPTS = 3;

export async function eraseProfile(id: string, { access, now }: Caller): Promise<Erasure> {
  const found = await getProfile(id);
  if (!found) throw new NotFound(PROFILE_NOT_FOUND);
  assertProfileGroupAccess(access, found.profile_group_slug, 'profile');
  const change = { at: now.toISOString(), actor: apiActor(access.keyId) };
  const profile = found.erased_at ? found : await eraseProfileIdentifiers(id, change.at);

  // GSI1 lists the person's records, but may not show yet one booked a moment before the erasure: the links
  // in the profile's partition, read consistently, name those too (and GSI1 the records older than links).
  const [listedAppointments, listedOrders, linked] = await Promise.all([
    listByIndexPrefix<AppointmentRecord>(index.appointmentsOfProfile(id)),
    listByIndexPrefix<HomeKitOrderRecord>(index.homeKitOrdersOfProfile(id)),
    linkedToProfile(id),
  ]);
  const appointments = [...listedAppointments, ...(await getAppointments(unlisted(linked.APPT, listedAppointments)))];
  const orders = [...listedOrders, ...(await Promise.all(unlisted(linked.KIT, listedOrders).map(getHomeKitOrderOrThrow)))];

  const erasure: Erasure = { profile, cancelledAppointmentIds: [], cancelledHomeKitOrderIds: [], erasedAddressOrderIds: [] };
  for (const appointment of appointments) {
    if (await cancelAppointment(appointment, change)) erasure.cancelledAppointmentIds.push(appointment.id);
  }
  for (const order of orders) {
    const outcome = await finishOrder(order, change);
    if (outcome.cancelled) erasure.cancelledHomeKitOrderIds.push(order.id);
    if (outcome.addressErased) erasure.erasedAddressOrderIds.push(order.id);
  }
  // A lab's reason for refusing an order may quote the person (issue #51): it goes with their identifiers.
  for (const { id: appointmentId, lab_order, home_kit_order_id } of appointments) {
    if (lab_order?.status === 'refused') await eraseLabOrderText({ appointmentId, homeKitOrderId: home_kit_order_id ?? null });
  }
  // What was written to them, and what would be (the message pipeline writes nothing more to an erased profile).
  // Only an appointment still ahead can have a reminder waiting (a past one's was sent or dropped).
  for (const { id: appointmentId, scheduled_at } of appointments) {
    if (scheduled_at && Date.parse(scheduled_at) > now.getTime()) await dropReminder(appointmentId);
  }
  await deleteMessagesOf(id);
  return erasure;
}

interface Change {
  at: string;
  actor: Actor;
}

const unlisted = (ids: string[], listed: { id: string }[]) => ids.filter((linkedId) => !listed.some((record) => record.id === linkedId));

/**
 * Cancels the appointment if it is scheduled; false when it is not (or no longer). A concurrent change
 * (a confirm), or a record listed from a stale index, makes it read the appointment again and decide anew.
 */
async function cancelAppointment(listed: AppointmentRecord, { at, actor }: Change): Promise<boolean> {
  let appointment: AppointmentRecord | undefined = listed;
  for (let attempt = 1; appointment && isCancellableAppointment(appointment.status); attempt += 1) {
    if (attempt > MAX_ATTEMPTS) throw new Unavailable(BUSY);
    const after: AppointmentRecord = { ...appointment, status: 'cancelled', cancellation_reason: ERASURE_REASON, updated_at: at };
    const transition = { lifecycle: appointmentLifecycle, before: appointment, after, actor, at, reason: ERASURE_REASON, condition: slotAsRead(appointment) };
    const items = releaseHeldSeat(appointment);
    if (await transactedIf(commit({ transitions: [transition], items, writtenAt: at }))) return true;
    appointment = await getAppointment(appointment.id);
  }
  return false;
}

/**
 * Cancels the order if it still can be, its inline address removed in the same transaction; an order that
 * can no longer be cancelled (activated, cancelled) loses only its inline address. Re-read as above.
 */
async function finishOrder(listed: HomeKitOrderRecord, { at, actor }: Change): Promise<{ cancelled: boolean; addressErased: boolean }> {
  let order = listed;
  for (let attempt = 1; isCancellableOrder(order.status); attempt += 1) {
    if (attempt > MAX_ATTEMPTS) throw new Unavailable(BUSY);
    const after: HomeKitOrderRecord = { ...order, status: 'cancelled', updated_at: at, ...(hasInlineAddress(order) ? { delivery_address: null } : {}) };
    const transition = { lifecycle: homeKitOrderLifecycle, before: order, after, actor, at, reason: ERASURE_REASON };
    if (await transactedIf(commit({ transitions: [transition], writtenAt: at }))) return { cancelled: true, addressErased: hasInlineAddress(order) };
    order = await getHomeKitOrderOrThrow(order.id);
  }
  return { cancelled: false, addressErased: hasInlineAddress(order) && (await removeDeliveryAddress(order.id, at)) };
}
