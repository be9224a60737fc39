// POST /api/v1/appointments/{id}/cancel — cancels a scheduled appointment with a reason (spec "not shown").
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { assertCancellable } from '../../shared/domain/appointment';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { CancelBody, toAppointment } from '../../shared/schemas/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { cancelAppointment, getAppointmentAggregateOrThrow } from '../../shared/store/appointments';
import { getExistingProfile } from '../../shared/store/profiles';

export const handler = httpHandler({
  route: 'cancelAppointment',
  params: IdParams,
  body: CancelBody,
  async run({ params, body, access, now }) {
    const aggregate = await getAppointmentAggregateOrThrow(params.id);
    assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
    assertCancellable(aggregate.appointment.status);
    const [cancelled, profile] = await Promise.all([
      cancelAppointment(params.id, body.cancellation_reason, now.toISOString()),
      getExistingProfile(aggregate.appointment.profile_id),
    ]);
    return ok(toAppointment({ ...aggregate, appointment: cancelled }, profile));
  },
});
