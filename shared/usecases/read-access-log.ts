/**
 * A page of a person's access log (GET /profiles/{id}/access-log): the profile must exist (404) and be in
 * the key's profile groups (403), as on every profile route. Reading the log is not itself logged: it shows
 * who read, not the person's data.
 */
import { type AccessContext, assertProfileGroupAccess } from '../auth/access';
import { NotFound } from '../errors';
import { type AccessLogEntry, pageAccessLog } from '../store/access-log';
import type { Page, PageRequest } from '../store/pages';
import { getProfile, PROFILE_NOT_FOUND } from '../store/profiles';

export async function readAccessLog(profileId: string, access: AccessContext, page: PageRequest): Promise<Page<AccessLogEntry>> {
  // Both reads at once: one round trip of latency; the page is only answered once access is checked.
  const [profile, entries] = await Promise.all([getProfile(profileId), pageAccessLog(profileId, page)]);
  if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
  assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
  return entries;
}
