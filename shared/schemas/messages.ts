/**
 * A message as `GET /profiles/{id}/messages` answers it (issue #52, docs/messages.md "The messages list"): what
 * was sent to the person, or why nothing was. Only these fields: the claim, attempts and SES's id are the
 * pipeline's bookkeeping (shared/store/messages.ts) and stay in the store.
 */
import * as v from 'valibot';
import { MESSAGE_TYPES } from '../email/content';
import type { MessageRecord } from '../store/messages';
import { instant, uuid } from './fields';

/** What each status means, for the schema and docs/messages.md. */
export const MESSAGE_STATUS_MEANINGS = {
  pending: 'being handed to the mail service now (or in doubt after a failure there: sent again once its claim expires)',
  sent: 'the mail service took it for delivery',
  failed: 'the mail service refused it for good (not tried again)',
  bounced: "sent, and the recipient's mail server refused it: no further message goes to the address",
  complained: 'sent, and the recipient marked it as spam: no further message goes to the address',
  suppressed: 'not sent: the address bounced or was complained about before',
  skipped_no_consent: 'not sent: transactional_emails_enabled is not true (null, never set, sends nothing; false after an unsubscribe)',
  skipped_no_address: 'not sent: the profile has no email address',
  simulated: 'sandbox data: composed as it would be, sent nowhere',
} as const satisfies Record<MessageRecord['status'], string>;

const described = Object.entries(MESSAGE_STATUS_MEANINGS)
  .map(([status, meaning]) => `\`${status}\`: ${meaning}`)
  .join('; ');

export const Message = v.object({
  id: uuid,
  type: v.pipe(v.picklist(MESSAGE_TYPES), v.description('What the message is about.')),
  channel: v.pipe(v.literal('email'), v.description('How it is sent: email only, for now.')),
  status: v.pipe(v.picklist(Object.keys(MESSAGE_STATUS_MEANINGS) as (keyof typeof MESSAGE_STATUS_MEANINGS)[]), v.description(`${described}.`)),
  subject: v.pipe(v.nullable(v.string()), v.description('The subject as sent (or as it would have been, simulated); null when nothing was composed (a skip).')),
  created_at: v.pipe(instant, v.description('When the message was decided.')),
  sent_at: v.pipe(v.nullable(instant), v.description('When the mail service took it; null when it did not (yet).')),
  event_id: v.pipe(
    v.string(),
    v.description('The domain event it answers (for a reminder: the event that booked or moved the appointment), as the event log and webhooks name it.'),
  ),
});
export type Message = v.InferOutput<typeof Message>;

/** The stored message, field by field. */
export const toMessage = (stored: MessageRecord): Message => ({
  id: stored.id,
  type: stored.type,
  channel: stored.channel,
  status: stored.status,
  subject: stored.subject,
  created_at: stored.created_at,
  sent_at: stored.sent_at,
  event_id: stored.event_id,
});
