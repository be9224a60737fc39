// POST /api/v1/appointments/pickup — a courier picked up a batch: blood_drawn → in_transit, all or nothing.
import { Forbidden, Conflict, NotFound } from '../../shared/http/errors';
import { canSeeProfileGroup } from '../../shared/auth/access';
import { planPickup } from '../../shared/domain/appointment';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { PickupBody } from '../../shared/schemas/appointments';
import { getAppointments, recordPickup } from '../../shared/store/appointments';
import { TransactionCancelled } from '../../shared/store/transactions';

/** A concurrent pickup may move some of ours first; re-plan from what is stored then. */
const ATTEMPTS = 3;

export const handler = httpHandler({
  route: 'pickupAppointments',
  body: PickupBody,
  async run({ body, access, now }) {
    const ids = body.appointment_ids;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      const appointments = await getAppointments(ids);
      const found = new Set(appointments.map((a) => a.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) throw new NotFound(`Appointment(s) not found: ${missing.join(', ')}`);
      const outside = appointments.filter((a) => !canSeeProfileGroup(access, a.profile_group_slug));
      if (outside.length > 0) throw new Forbidden(`This API key has no access to appointment(s) ${outside.map((a) => a.id).join(', ')}`);
      const { move } = planPickup(appointments);
      if (move.length === 0) return ok({ success: true });
      try {
        await recordPickup(move, now.toISOString());
        return ok({ success: true });
      } catch (error) {
        if (!(error instanceof TransactionCancelled)) throw error;
      }
    }
    throw new Conflict('The appointments changed while this pickup was processed; retry it');
  },
});
