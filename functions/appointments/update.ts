// PATCH /api/v1/appointments/{id} — reschedule and/or relocate, only while the draw is not confirmed.
import { assertLocationGroupAccess, assertProfileResourceAccess } from '../../shared/auth/access';
import { assertBookableInstant, assertEditable } from '../../shared/domain/appointment';
import { NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toAppointment, UpdateAppointmentBody } from '../../shared/schemas/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { getAppointmentAggregateOrThrow } from '../../shared/store/appointments/reads';
import { changeSchedule } from '../../shared/store/appointments/writes';
import { getLocation, LOCATION_NOT_FOUND } from '../../shared/store/locations';
import { getExistingProfile } from '../../shared/store/profiles';

export const handler = httpHandler({
  route: 'updateAppointment',
  params: IdParams,
  body: UpdateAppointmentBody,
  async run({ params, body, access, now }) {
    if (body.scheduled_at) assertBookableInstant('scheduled_at', body.scheduled_at, now);
    const [aggregate, location] = await Promise.all([getAppointmentAggregateOrThrow(params.id), body.location_id ? getLocation(body.location_id) : undefined]);
    if (body.location_id && !location?.active) throw new NotFound(LOCATION_NOT_FOUND);
    assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
    if (location) assertLocationGroupAccess(access, location.location_group_slug, 'location');
    assertEditable(aggregate.appointment.status);
    const [appointment, profile] = await Promise.all([
      changeSchedule(aggregate.appointment, body, now.toISOString()),
      getExistingProfile(aggregate.appointment.profile_id),
    ]);
    access.audit?.read(profile.id, `appointment ${params.id}`);
    return ok(toAppointment({ ...aggregate, appointment }, profile));
  },
});
