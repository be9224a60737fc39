// PATCH /api/v1/profiles/{id} — partial update; answers the profile with created_at and updated_at.
import { assertPastDate } from '../../shared/domain/profile';
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toEmbeddedProfile } from '../../shared/schemas/profiles';
import { UpdateProfileBody } from '../../shared/schemas/bodies/profiles';
import { updateProfile } from '../../shared/store/profiles';
import * as routes from '../../shared/routes/profiles';

export const handler = httpHandler({
  route: routes.updateProfile,
  params: IdParams,
  body: jsonBody(UpdateProfileBody),
  async run({ params, body, access, now }) {
    if (body.date_of_birth !== undefined) assertPastDate('date_of_birth', body.date_of_birth, now);
    const profile = await updateProfile(params.id, body, now.toISOString(), [...access.profileGroups]);
    access.audit?.read(profile.id, 'profile');
    return ok(toEmbeddedProfile(profile));
  },
});
