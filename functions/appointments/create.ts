// POST /api/v1/appointments — books a blood draw for a profile at a location; status scheduled.
import { randomUUID } from 'node:crypto';
import { assertLocationGroupAccess, assertProfileGroupAccess } from '../../shared/auth/access';
import { assertBookableInstant } from '../../shared/domain/appointment';
import { NotFound } from '../../shared/http/errors';
import { httpHandler } from '../../shared/http/handler';
import { idempotentCreate } from '../../shared/http/idempotency';
import { created } from '../../shared/http/responses';
import { CreateAppointmentBody, toCreatedAppointment } from '../../shared/schemas/appointments';
import { createAppointment, type AppointmentRecord } from '../../shared/store/appointments';
import { getLocation, LOCATION_NOT_FOUND } from '../../shared/store/locations';
import { getProfile, PROFILE_NOT_FOUND } from '../../shared/store/profiles';

export const handler = httpHandler({
  route: 'createAppointment',
  idempotency: idempotentCreate(),
  body: CreateAppointmentBody,
  async run({ body, access, now }) {
    assertBookableInstant('scheduled_at', body.scheduled_at, now);
    const [profile, location] = await Promise.all([getProfile(body.profile_id), getLocation(body.location_id)]);
    if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
    if (!location?.active) throw new NotFound(LOCATION_NOT_FOUND);
    assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
    assertLocationGroupAccess(access, location.location_group_slug, 'location');
    const appointment: AppointmentRecord = {
      id: randomUUID(),
      profile_id: profile.id,
      profile_group_slug: profile.profile_group_slug,
      location_id: location.id,
      scheduled_at: body.scheduled_at,
      status: 'scheduled',
      test_method: 'practitioner',
      cancellation_reason: null,
      barcode: null,
      blood_drawn_at: null,
      picked_up_at: null,
      created_at: now.toISOString(),
      updated_at: null,
    };
    await createAppointment(appointment);
    return created(toCreatedAppointment(appointment, profile));
  },
});
