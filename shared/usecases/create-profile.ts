/** Creates a profile in one of the key's profile groups (404 for an unknown group before 403 for another's). */
import { randomUUID } from 'node:crypto';
import { canSeeProfileGroup } from '../auth/access';
import { assertPastDate } from '../domain/profile';
import { NotFound, NotPermitted } from '../errors';
import { createProfile as storeProfile, PROFILE_GROUP_NOT_FOUND, type ProfileRecord, profileGroupExists } from '../store/profiles';
import { suppressionOf } from '../store/email-consent';
import type { Caller } from './request';

/** What a client gives: the group, names, birth date and language are required (the create schema says so). */
type NewProfile = Pick<ProfileRecord, 'profile_group_slug' | 'language'> & {
  first_name: string;
  last_name: string;
  date_of_birth: string;
} & Partial<Pick<ProfileRecord, 'handle' | 'email' | 'phone' | 'sex' | 'height' | 'weight'>>;

export async function createProfile(input: NewProfile, { access, now }: Caller): Promise<ProfileRecord> {
  assertPastDate('date_of_birth', input.date_of_birth, now);
  const { profile_group_slug, ...fields } = input;
  // 404 before 403: a group outside the key's context is only refused once we know it exists.
  if (!canSeeProfileGroup(access, profile_group_slug)) {
    if (!(await profileGroupExists(profile_group_slug))) throw new NotFound(PROFILE_GROUP_NOT_FOUND);
    throw new NotPermitted('This API key has no access to this profile group');
  }
  const profile: ProfileRecord = {
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
    // An address that bounced or complained for another profile starts with that fate (issue #52): one GetItem, only with an email.
    ...(fields.email ? { email_status: (await suppressionOf(fields.email)) ?? 'ok' } : {}),
    created_at: now.toISOString(),
    updated_at: null,
  };
  await storeProfile(profile);
  return profile;
}
