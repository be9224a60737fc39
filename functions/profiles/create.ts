// POST /api/v1/profiles — creates a profile and assigns it to a profile group of the key.
import { randomUUID } from 'node:crypto';
import { canSeeProfileGroup } from '../../shared/auth/access';
import { assertPastDate } from '../../shared/domain/profile';
import { NotPermitted, NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { idempotentCreate } from '../../shared/http/idempotency';
import { created } from '../../shared/http/responses';
import { CreateProfileBody, toCreatedProfile } from '../../shared/schemas/profiles';
import { createProfile, PROFILE_GROUP_NOT_FOUND, profileGroupExists } from '../../shared/store/profiles';

export const handler = httpHandler({
  route: 'createProfile',
  idempotency: idempotentCreate(),
  body: CreateProfileBody,
  async run({ body, access, now }) {
    assertPastDate('date_of_birth', body.date_of_birth, now);
    const { profile_group_slug, ...fields } = body;
    // 404 before 403: a group outside the key's context is only refused once we know it exists.
    if (!canSeeProfileGroup(access, profile_group_slug)) {
      if (!(await profileGroupExists(profile_group_slug))) throw new NotFound(PROFILE_GROUP_NOT_FOUND);
      throw new NotPermitted('This API key has no access to this profile group');
    }
    const profile = {
      id: randomUUID(),
      profile_group_slug,
      handle: fields.handle ?? null,
      first_name: fields.first_name,
      last_name: fields.last_name,
      email: fields.email ?? null,
      phone: fields.phone ?? null,
      sex: fields.sex ?? null,
      date_of_birth: fields.date_of_birth,
      height: fields.height ?? null,
      weight: fields.weight ?? null,
      language: fields.language,
      transactional_emails_enabled: null,
      created_at: now.toISOString(),
      updated_at: null,
    };
    await createProfile(profile);
    return created(toCreatedProfile(profile));
  },
});
