// GET /api/v1/profiles/{id} — the profile with every field, transactional_emails_enabled included.
import { assertProfileGroupAccess } from '../../shared/auth/access';
import { NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toFullProfile } from '../../shared/schemas/profiles';
import { getProfile, PROFILE_NOT_FOUND } from '../../shared/store/profiles';
import * as routes from '../../shared/routes/profiles';

export const handler = httpHandler({
  route: routes.getProfile,
  params: IdParams,
  async run({ params, access }) {
    const profile = await getProfile(params.id);
    if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
    assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
    access.audit?.read(profile.id, 'profile');
    return ok(toFullProfile(profile));
  },
});
