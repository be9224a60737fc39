// POST /api/v1/appointments/{id}/panels — attaches catalog panels while the appointment is scheduled.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { assertEditable } from '../../shared/domain/appointment';
import { assertCollectable } from '../../shared/domain/catalog';
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { AttachPanelsBody } from '../../shared/schemas/bodies/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { getAppointmentAggregateOrThrow } from '../../shared/store/appointments/reads';
import { attachTests } from '../../shared/store/appointments/writes';
import { assertPanelsExist } from '../../shared/store/catalog';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.attachAppointmentPanels,
  params: IdParams,
  body: jsonBody(AttachPanelsBody),
  async run({ params, body, access, now }) {
    const [aggregate, panels] = await Promise.all([getAppointmentAggregateOrThrow(params.id), assertPanelsExist(body.panel_ids)]);
    assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
    assertEditable(aggregate.appointment.status);
    // An appointment stored before test_method existed was booked at a location: a practitioner draws it.
    assertCollectable('Panel', panels, aggregate.appointment.test_method ?? 'practitioner');
    await attachTests(params.id, { panelIds: body.panel_ids }, now.toISOString());
    return ok({ success: true as const });
  },
});
