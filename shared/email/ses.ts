/**
 * Hands a composed email to Amazon SES (issue #52): SESv2 SendEmail with Simple content, so SES builds the
 * MIME message itself — the plain text and HTML alternatives, the calendar file as an attachment, and the
 * List-Unsubscribe headers of RFC 8058 (what Gmail and Yahoo ask of every sender). The local stack points
 * SES_ENDPOINT at aws-ses-v2-local.
 *
 * SES has no idempotency key: a call that times out may or may not have sent. The caller claims the message
 * before this one call and records SES's answer right after it (shared/usecases/patient-messages.ts).
 */
import { SendEmailCommand, SESv2Client, SESv2ServiceException } from '@aws-sdk/client-sesv2';
import { config, requireSetting } from '../config';
import type { ComposedEmail } from './content';

const ses = new SESv2Client({
  region: config.region,
  // SES answers in well under a second: a call that hangs is abandoned, and the queue tries again.
  requestHandler: { requestTimeout: 10_000, connectionTimeout: 3_000 },
  // One attempt: a call that timed out may have sent, and the SDK's own retry would send it again. Every
  // retry is the caller's (the queue's next receive, the next sweep), after the message's claim is settled.
  maxAttempts: 1,
  ...(config.email.sesEndpoint ? { endpoint: config.email.sesEndpoint, credentials: { accessKeyId: 'LOCAL', secretAccessKey: 'LOCAL' } } : {}),
});

export interface Envelope {
  to: string;
  senderName: string;
  replyTo: string | null;
  unsubscribeUrl: string;
  /** Tags SES's events carry back (the message type), never personal data. */
  tags: Record<string, string>;
}

/** A display name as RFC 5322 quotes it: no quote or backslash can end it early. */
const quotedName = (name: string) => `"${name.replace(/["\\\r\n]/g, ' ')}"`;

/** Sends one email; answers SES's message id. */
export async function sendEmail(email: ComposedEmail, envelope: Envelope): Promise<string> {
  const from = requireSetting(config.email.fromAddress, 'EMAIL_FROM_ADDRESS');
  const { MessageId } = await ses.send(
    new SendEmailCommand({
      FromEmailAddress: `${quotedName(envelope.senderName)} <${from}>`,
      Destination: { ToAddresses: [envelope.to] },
      ...(envelope.replyTo ? { ReplyToAddresses: [envelope.replyTo] } : {}),
      ...(config.email.configurationSet ? { ConfigurationSetName: config.email.configurationSet } : {}),
      EmailTags: Object.entries(envelope.tags).map(([Name, Value]) => ({ Name, Value })),
      Content: {
        Simple: {
          Subject: { Data: email.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
          Headers: [
            { Name: 'List-Unsubscribe', Value: `<${envelope.unsubscribeUrl}>` },
            { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
          ],
          ...(email.attachments.length > 0
            ? {
                Attachments: email.attachments.map((attachment) => ({
                  FileName: attachment.fileName,
                  ContentType: attachment.contentType,
                  RawContent: attachment.content,
                  ContentDisposition: 'ATTACHMENT' as const,
                })),
              }
            : {}),
        },
      },
    }),
  );
  if (!MessageId) throw new Error('SES answered no MessageId');
  return MessageId;
}

/**
 * SES's refusals of this one message, which no retry changes (a malformed message, a rejected recipient): the
 * message fails. Everything else is tried again from the queue — throttling, SES unavailable, a timeout, and
 * what is wrong with the account or the stage (suspended, sending paused, an unverified domain, a missing
 * configuration set): those end in the dead-letter queue, which alarms, and a redrive sends once it is fixed.
 */
const PERMANENT = new Set(['BadRequestException', 'MessageRejected']);

export function isPermanentRefusal(error: unknown): error is SESv2ServiceException {
  return error instanceof SESv2ServiceException && PERMANENT.has(error.name);
}
