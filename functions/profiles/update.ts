// PATCH /api/v1/profiles/{id} — partial update; answers the profile with created_at and updated_at. A new email gets its address's email_status.
import { assertPastDate } from '../../shared/domain/profile';
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toEmbeddedProfile } from '../../shared/schemas/profiles';
import { UpdateProfileBody } from '../../shared/schemas/bodies/profiles';
import { suppressionOf } from '../../shared/store/email-consent';
import { type ProfilePatch, updateProfile } from '../../shared/store/profiles';
import * as routes from '../../shared/routes/profiles';

export const handler = httpHandler({
  route: routes.updateProfile,
  params: IdParams,
  body: jsonBody(UpdateProfileBody),
  async run({ params, body, access, now }) {
    if (body.date_of_birth !== undefined) assertPastDate('date_of_birth', body.date_of_birth, now);
    // A new address starts with its own fate (it may have bounced for another profile): one GetItem, only when the PATCH names one.
    const emailStatus: ProfilePatch =
      body.email === undefined ? {} : { email_status: body.email === null ? 'ok' : ((await suppressionOf(body.email)) ?? 'ok') };
    const profile = await updateProfile(params.id, { ...body, ...emailStatus }, now.toISOString(), [...access.profileGroups]);
    access.audit?.read(profile.id, 'profile');
    return ok(toEmbeddedProfile(profile));
  },
});
