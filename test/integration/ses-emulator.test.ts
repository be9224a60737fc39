/**
 * The suite's SES emulator (test/support/emulators.global.ts, the one `npm start` runs too): it takes SES API
 * v2 SendEmail from the SDK as the functions send it (SES_ENDPOINT, which every integration file points at it)
 * and answers what it received on `GET /store`, so a test reads the email a flow sent.
 */
import { randomUUID } from 'node:crypto';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { describe, expect, inject, it } from 'vitest';

interface StoredEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

describe('the SES emulator of the integration suite', () => {
  it('is where SES_ENDPOINT points, and keeps what SendEmail sent it for GET /store', async () => {
    expect(process.env.SES_ENDPOINT).toBe(inject('sesEndpoint'));
    const ses = new SESv2Client({
      endpoint: process.env.SES_ENDPOINT,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const to = `patient-${randomUUID()}@example.com`;
    const { MessageId } = await ses.send(
      new SendEmailCommand({
        FromEmailAddress: 'no-reply@lab.localhost',
        Destination: { ToAddresses: [to] },
        Content: { Simple: { Subject: { Data: 'Your appointment' }, Body: { Text: { Data: 'See you on Monday.' } } } },
      }),
    );
    const { emails } = (await (await fetch(`${inject('sesEndpoint')}/store`)).json()) as { emails: StoredEmail[] };
    const mine = emails.filter((email) => email.destination.to.includes(to));
    expect(mine).toEqual([
      expect.objectContaining({
        messageId: MessageId,
        from: 'no-reply@lab.localhost',
        subject: 'Your appointment',
        body: expect.objectContaining({ text: 'See you on Monday.' }),
      }),
    ]);
  });
});
