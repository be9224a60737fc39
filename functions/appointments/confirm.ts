// POST /api/v1/appointments/{id}/confirm — records the blood draw (barcode) and starts the lab order pipeline.
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { ConfirmBody } from '../../shared/schemas/bodies/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { confirmAppointment } from '../../shared/usecases/confirm-appointment';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.confirmAppointment,
  params: IdParams,
  body: jsonBody(ConfirmBody),
  async run({ params, body, access, now }) {
    await confirmAppointment(params.id, body.barcode, { access, now });
    return ok({ success: true as const });
  },
});
