// POST /api/v1/appointments — books a blood draw for a profile at a location; status scheduled.
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { idempotentCreate } from '../../shared/http/idempotency';
import { created } from '../../shared/http/responses';
import { toCreatedAppointment } from '../../shared/schemas/appointments';
import { CreateAppointmentBody } from '../../shared/schemas/bodies/appointments';
import { createAppointment } from '../../shared/usecases/create-appointment';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.createAppointment,
  idempotency: idempotentCreate(),
  body: jsonBody(CreateAppointmentBody),
  async run({ body, access, now }) {
    const { appointment, profile } = await createAppointment(body, { access, now });
    access.audit?.read(profile.id, `appointment ${appointment.id}`);
    return created(toCreatedAppointment(appointment, profile));
  },
});
