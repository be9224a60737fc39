/**
 * A courier picked up a batch: blood_drawn → in_transit, optionally handed to a shipment (linked in the
 * same transaction as each move). The spec's table: drawn ones move, later ones are skipped, an undrawn
 * one fails the whole batch before anything is written.
 *
 * Each move is a transition (state + history entry + event), so a batch is written in as few
 * transactions as DynamoDB's 100 items allow (49 moves, or 32 with a shipment). All refusals are decided
 * before the first write, and no other request can make a drawn appointment ineligible (only move it on,
 * which pickup skips), so a later transaction can only fail when a racing pickup moved some of ours (we
 * re-plan from what is stored) or the shipment stopped accepting samples (409, the earlier moves stand,
 * each complete with its history and event).
 */
import { assertLocationGroupAccess, canSeeProfileGroup } from '../auth/access';
import { planPickup } from '../domain/appointment';
import { apiActor } from '../domain/lifecycle';
import { assertAcceptsSamples } from '../domain/shipment';
import { Conflict, NotFound, NotPermitted } from '../errors';
import { getAppointments } from '../store/appointments/reads';
import { appointmentLifecycle, type AppointmentRecord } from '../store/appointments/records';
import { shipmentAcceptsSamples, shipmentLinkPut } from '../store/appointments/writes';
import { getShipment, SHIPMENT_NOT_FOUND } from '../store/shipments';
import { MAX_TRANSACTION_ITEMS, TransactionCancelled } from '../store/transactions';
import { ITEMS_PER_TRANSITION } from '../store/transitions';
import { commit } from './commit';
import type { Caller } from './request';

/**
 * A concurrent pickup may move some of ours first (or the shipment may change): re-plan from what is
 * stored. Every lost race means another request made progress, so the loop ends; the bound is a backstop.
 */
const ATTEMPTS = 25;

/** Moves per transaction: each takes its transition's items (and a link); the outbox entry (and the shipment check) one. */
const movesPerTransaction = (withShipment: boolean) =>
  Math.floor((MAX_TRANSACTION_ITEMS - 1 - (withShipment ? 1 : 0)) / (ITEMS_PER_TRANSITION + (withShipment ? 1 : 0)));

export async function pickupAppointments(input: { appointment_ids: string[]; shipment_id?: string }, { access, now }: Caller): Promise<void> {
  const ids = input.appointment_ids;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const [appointments, shipment] = await Promise.all([getAppointments(ids), input.shipment_id ? getShipment(input.shipment_id) : undefined]);
    // 404s, then 403s, then 409s — the order of checks every endpoint follows.
    const found = new Set(appointments.map((a) => a.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new NotFound(`Appointment(s) not found: ${missing.join(', ')}`);
    if (input.shipment_id && !shipment) throw new NotFound(SHIPMENT_NOT_FOUND);
    const outside = appointments.filter((a) => !canSeeProfileGroup(access, a.profile_group_slug));
    if (outside.length > 0) throw new NotPermitted(`This API key has no access to appointment(s) ${outside.map((a) => a.id).join(', ')}`);
    if (shipment) {
      assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
      assertAcceptsSamples(shipment.status);
      // A courier collects at one location: samples drawn elsewhere (or at home) cannot ride along.
      const elsewhere = appointments.filter((a) => a.location_id !== shipment.location_id);
      if (elsewhere.length > 0) {
        throw new Conflict(`Appointment(s) ${elsewhere.map((a) => a.id).join(', ')} were not drawn at the shipment's location`);
      }
    }
    const { move } = planPickup(appointments);
    const moving = appointments.filter((a) => move.includes(a.id));
    try {
      const size = movesPerTransaction(shipment !== undefined);
      for (let i = 0; i < moving.length; i += size) await recordPickup(moving.slice(i, i + size), now, access.keyId, input.shipment_id);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
    }
  }
  throw new Conflict('The appointments or the shipment changed while this pickup was processed; retry it');
}

async function recordPickup(appointments: AppointmentRecord[], now: Date, keyId: string, shipmentReference?: string): Promise<void> {
  const at = now.toISOString();
  await commit({
    transitions: appointments.map((appointment) => ({
      lifecycle: appointmentLifecycle,
      before: appointment,
      after: { ...appointment, status: 'in_transit' as const, picked_up_at: at, updated_at: at },
      actor: apiActor(keyId),
      at,
    })),
    items: shipmentReference
      ? [shipmentAcceptsSamples(shipmentReference), ...appointments.map((appointment) => shipmentLinkPut(appointment, shipmentReference, at))]
      : [],
    writtenAt: at,
  });
}
