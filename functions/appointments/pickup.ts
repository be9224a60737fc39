// POST /api/v1/appointments/pickup — a courier picked up a batch: blood_drawn → in_transit, all or nothing,
// optionally handed to a shipment (linked in the same transaction).
import { assertLocationGroupAccess, canSeeProfileGroup } from '../../shared/auth/access';
import { planPickup } from '../../shared/domain/appointment';
import { assertAcceptsSamples } from '../../shared/domain/shipment';
import { Conflict, Forbidden, NotFound } from '../../shared/http/errors';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { PickupBody } from '../../shared/schemas/appointments';
import { getAppointments, recordPickup } from '../../shared/store/appointments';
import { getShipment, SHIPMENT_NOT_FOUND } from '../../shared/store/shipments';
import { TransactionCancelled } from '../../shared/store/transactions';

/**
 * A concurrent pickup may move some of ours first (or the shipment may change): re-plan from what is
 * stored. Every lost race means another request made progress, so the loop ends; the bound is a backstop.
 */
const ATTEMPTS = 25;

export const handler = httpHandler({
  route: 'pickupAppointments',
  body: PickupBody,
  async run({ body, access, now }) {
    const ids = body.appointment_ids;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      const [appointments, shipment] = await Promise.all([
        getAppointments(ids),
        body.shipment_id ? getShipment(body.shipment_id) : undefined,
      ]);
      // 404s, then 403s, then 409s — the order of checks every endpoint follows.
      const found = new Set(appointments.map((a) => a.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) throw new NotFound(`Appointment(s) not found: ${missing.join(', ')}`);
      if (body.shipment_id && !shipment) throw new NotFound(SHIPMENT_NOT_FOUND);
      const outside = appointments.filter((a) => !canSeeProfileGroup(access, a.profile_group_slug));
      if (outside.length > 0) throw new Forbidden(`This API key has no access to appointment(s) ${outside.map((a) => a.id).join(', ')}`);
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
      if (move.length === 0) return ok({ success: true });
      try {
        await recordPickup(appointments.filter((a) => move.includes(a.id)), now.toISOString(), body.shipment_id);
        return ok({ success: true });
      } catch (error) {
        if (!(error instanceof TransactionCancelled)) throw error;
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      }
    }
    throw new Conflict('The appointments or the shipment changed while this pickup was processed; retry it');
  },
});
