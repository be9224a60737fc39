// POST /api/v1/appointments/pickup — a courier picked up a batch: blood_drawn → in_transit, optionally handed
// to a shipment (shared/usecases/pickup-appointments.ts).
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { PickupBody } from '../../shared/schemas/bodies/appointments';
import { pickupAppointments } from '../../shared/usecases/pickup-appointments';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.pickupAppointments,
  body: jsonBody(PickupBody),
  async run({ body, access, now }) {
    await pickupAppointments(body, { access, now });
    return ok({ success: true as const });
  },
});
