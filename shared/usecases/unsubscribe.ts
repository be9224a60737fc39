/**
 * The one-click unsubscribe link of the patient emails (issue #52, RFC 8058, docs/messages.md "Unsubscribe"):
 * a token (shared/store/email-consent.ts keeps its hash) that opens one thing, withdrawing its profile's
 * consent to transactional email. A token never issued, altered or expired, or whose profile was erased, opens
 * nothing: the same answer for each, so the link tells its holder nothing about why.
 */
import { profileOfUnsubscribeToken, withdrawEmailConsent } from '../store/email-consent';
import { getProfile, type ProfileRecord } from '../store/profiles';
import { senderOf } from './sender';

/** Who the link's emails came from, in the profile's language: what its pages show. */
export interface UnsubscribeLink {
  profileId: string;
  language: ProfileRecord['language'];
  /** The profile group's sender name, or its name, as the emails' From (./sender.ts). */
  sender: string;
}

/** What a token opens; undefined when it opens nothing. Reads only. */
export async function openUnsubscribeLink(token: string): Promise<UnsubscribeLink | undefined> {
  const profileId = await profileOfUnsubscribeToken(token);
  const profile = profileId === undefined ? undefined : await getProfile(profileId);
  if (!profile || profile.erased_at) return undefined;
  return { profileId: profile.id, language: profile.language, sender: (await senderOf(profile.profile_group_slug)).name };
}

/** Sets the profile's transactional_emails_enabled to false; the same again is done again. Undefined: nothing opened. */
export async function unsubscribe(token: string, now: Date): Promise<UnsubscribeLink | undefined> {
  const link = await openUnsubscribeLink(token);
  if (!link) return undefined;
  // Erased between the read and the write: then too the token opens nothing.
  return (await withdrawEmailConsent(link.profileId, now.toISOString())) ? link : undefined;
}
