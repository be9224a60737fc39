/**
 * What SES reports back about a sent email (issue #52, docs/messages.md "Bounces and complaints"), from the
 * configuration set's event destination (EventBridge, source aws.ses): a bounce or a complaint marks the
 * message, and — a permanent bounce, or any complaint — the address, which no message goes to again, and
 * the profile's email_status while the profile still holds that address. A transient bounce (a full
 * mailbox) marks the message only: the next message may well arrive.
 */
import * as v from 'valibot';
import { addressHash, setEmailStatus, suppressAddress } from '../store/email-consent';
import { getSentEmail, markFeedback } from '../store/messages';
import { getProfile } from '../store/profiles';

/** The part of SES's event (its `detail`) that matters here; SES sends far more. */
const Recipients = v.optional(v.array(v.looseObject({ emailAddress: v.string() })), []);
const SesEvent = v.looseObject({
  eventType: v.string(),
  mail: v.looseObject({ messageId: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) }),
  bounce: v.optional(v.looseObject({ bounceType: v.optional(v.string()), bouncedRecipients: Recipients })),
  complaint: v.optional(v.looseObject({ complainedRecipients: Recipients })),
});

export type FeedbackOutcome = 'bounced' | 'complained' | 'ignored' | 'unknown message';

export async function recordEmailFeedback(detail: unknown, at: Date): Promise<FeedbackOutcome> {
  const parsed = v.safeParse(SesEvent, detail);
  if (!parsed.success) return 'ignored';
  const { eventType, mail, bounce } = parsed.output;
  if (eventType !== 'Bounce' && eventType !== 'Complaint') return 'ignored';
  const status = eventType === 'Bounce' ? 'bounced' : 'complained';
  const suppress = status === 'complained' || bounce?.bounceType === 'Permanent';
  const sent = await getSentEmail(mail.messageId);
  if (!sent) {
    // A message sent again in doubt, or whose record SES's answer never reached: its address still goes on
    // the list, named by the event itself (the rule passes only this stage's configuration set).
    const recipients = [...(parsed.output.bounce?.bouncedRecipients ?? []), ...(parsed.output.complaint?.complainedRecipients ?? [])];
    if (suppress) for (const { emailAddress } of recipients) await suppressAddress(addressHash(emailAddress), status, at.toISOString());
    return 'unknown message';
  }
  await markFeedback(sent.message_key, status);
  if (!suppress) return status;
  await suppressAddress(sent.address_hash, status, at.toISOString());
  const profile = await getProfile(sent.profile_id);
  // The profile may hold another address since: its own status is that address's.
  if (profile?.email && addressHash(profile.email) === sent.address_hash) await setEmailStatus(profile.id, status, at.toISOString());
  return status;
}
