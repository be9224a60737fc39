/**
 * Who the patient knows a message or page is from (issues #52, #53): a module of its own, so that the
 * unsubscribe link's functions, which need only this, bundle none of the appointment's facts.
 */
import { getProfileGroup } from '../store/profiles';

/**
 * Who the patient knows the message is from: their clinic or partner (the profile group's sender name, or
 * its name), answering to the group's reply-to address when it has one.
 */
export async function senderOf(groupSlug: string): Promise<{ name: string; replyTo: string | null }> {
  const group = await getProfileGroup(groupSlug);
  return { name: group?.email_sender_name ?? group?.name ?? groupSlug, replyTo: group?.email_reply_to ?? null };
}
