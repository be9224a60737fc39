/**
 * A page of a person's messages (GET /profiles/{id}/messages, issue #52): the profile must exist (404) and be
 * in the key's profile groups (403), as on every profile route. The subjects tell what the person was told
 * (an appointment, results ready), so the read is recorded in the access log. An erased profile answers its
 * list as its other lists do: 200, and empty, since the erasure deleted its messages.
 */
import { type AccessContext, assertProfileGroupAccess } from '../auth/access';
import { NotFound } from '../errors';
import { type MessageRecord, pageMessages } from '../store/messages';
import type { Page, PageRequest } from '../store/pages';
import { getProfile, PROFILE_NOT_FOUND } from '../store/profiles';

export async function readMessages(profileId: string, access: AccessContext, page: PageRequest): Promise<Page<MessageRecord>> {
  // Both reads at once: one round trip of latency; the page is only answered once access is checked.
  const [profile, messages] = await Promise.all([getProfile(profileId), pageMessages(profileId, page)]);
  if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
  assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
  access.audit?.read(profile.id, 'profile messages');
  return messages;
}
