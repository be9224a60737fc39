/**
 * What was sent to a person, readable, and the one-click unsubscribe (issue #52, docs/messages.md): the
 * messages list (GET /profiles/{id}/messages) and the unsubscribe link's page and POST (RFC 8058). Messages
 * are recorded through the store, as the pipeline records them; tokens issued as it issues them.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { derivedUuid } from '../../shared/derived-uuid';
import { startLocalApi } from '../../infra/local/server';
import { logger } from '../../shared/logger';
import { addressHash, issueUnsubscribeToken, setEmailStatus, suppressAddress } from '../../shared/store/email-consent';
import { dynamo, tableName } from '../../shared/store/client';
import * as itemKeys from '../../shared/store/keys/items';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { setReminder } from '../../shared/store/reminders';
import { type MessageRecord, recordUnsent, type UnsentStatus } from '../../shared/store/messages';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { captureLogs } from '../support/log-capture';
import { createProfile, scheduleAppointment } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

/** A message decided without sending, `minutesAgo` before now: its id sorts by that time, as the pipeline's. */
async function recordMessage(profileId: string, minutesAgo: number, status: UnsentStatus = 'skipped_no_consent', subject: string | null = null) {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  const eventId = randomUUID();
  const message: MessageRecord & { status: UnsentStatus } = {
    id: derivedUuid([eventId, 'appointment_booked'], { timeMs: at.getTime() }),
    profile_id: profileId,
    type: 'appointment_booked',
    channel: 'email',
    status,
    subject,
    created_at: at.toISOString(),
    sent_at: null,
    event_id: eventId,
    appointment_id: randomUUID(),
  };
  expect(await recordUnsent(message, new Date())).toBe(true);
  return message;
}

const profileWith = async (fields: Record<string, unknown>) => {
  const id = await createProfile(api, key);
  expect((await api.patch(`/api/v1/profiles/${id}`, fields, key)).status).toBe(200);
  return id;
};

const form = (body: string, type = 'application/x-www-form-urlencoded') => ({ rawBody: body, headers: { 'content-type': type } });
const ONE_CLICK = form('List-Unsubscribe=One-Click');

describe('GET /profiles/{id}/messages', () => {
  it('lists the messages newest first, paged with X-Next-Cursor', async () => {
    const profileId = await createProfile(api, key);
    const oldest = await recordMessage(profileId, 30);
    const middle = await recordMessage(profileId, 20);
    const newest = await recordMessage(profileId, 10);
    const first = await api.get(`/api/v1/profiles/${profileId}/messages?limit=2`, key);
    expect(first.status).toBe(200);
    expect(first.body.map((m: { id: string }) => m.id)).toEqual([newest.id, middle.id]);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const second = await api.get(`/api/v1/profiles/${profileId}/messages?limit=2&cursor=${encodeURIComponent(cursor!)}`, key);
    expect(second.body.map((m: { id: string }) => m.id)).toEqual([oldest.id]);
    expect(second.headers.get('x-next-cursor')).toBeNull();
  });

  it('answers only the fields of a message, never its bookkeeping', async () => {
    const profileId = await createProfile(api, key);
    const message = await recordMessage(profileId, 1, 'simulated', 'Your appointment is booked');
    const res = await api.get(`/api/v1/profiles/${profileId}/messages`, key);
    expect(res.body).toEqual([
      {
        id: message.id,
        type: 'appointment_booked',
        channel: 'email',
        status: 'simulated',
        subject: 'Your appointment is booked',
        created_at: message.created_at,
        sent_at: null,
        event_id: message.event_id,
      },
    ]);
  });

  it('shows the messages that were not sent, with why', async () => {
    const profileId = await createProfile(api, key);
    await recordMessage(profileId, 3, 'skipped_no_address');
    await recordMessage(profileId, 2, 'skipped_no_consent');
    await recordMessage(profileId, 1, 'suppressed');
    const res = await api.get(`/api/v1/profiles/${profileId}/messages`, key);
    expect(res.body.map((m: { status: string }) => m.status)).toEqual(['suppressed', 'skipped_no_consent', 'skipped_no_address']);
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await api.get(`/api/v1/profiles/${UNKNOWN_ID}/messages`, key);
    expect(res.status).toBe(404);
  });

  it("answers 403 for a profile of another group than the key's", async () => {
    const profileId = await createProfile(api, key);
    await recordMessage(profileId, 1);
    const other = await apiKey({ profileGroups: ['other-group'] });
    const res = await api.get(`/api/v1/profiles/${profileId}/messages`, other);
    expect(res.status).toBe(403);
  });
});

describe('GET /u/{token}', () => {
  it("asks in the profile's language and changes nothing", async () => {
    const profileId = await profileWith({ language: 'de', transactional_emails_enabled: true });
    const token = await issueUnsubscribeToken(profileId, new Date());
    const res = await api.request('GET', `/u/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.body).toContain('<html lang="de">');
    expect(res.body).toContain('Keine E-Mails mehr zu Ihren Labortests von');
    expect(res.body).toMatch(/<form method="post">\s*<input type="hidden" name="List-Unsubscribe" value="One-Click">/);
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.transactional_emails_enabled).toBe(true);
  });

  it('sends every answer with the security headers', async () => {
    const token = await issueUnsubscribeToken(await createProfile(api, key), new Date());
    const answers = [
      await api.request('GET', `/u/${token}`),
      await api.request('GET', `/u/${'x'.repeat(43)}`),
      await api.request('POST', `/u/${token}`, form('nothing=here')),
      await api.request('POST', `/u/${token}`, ONE_CLICK),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 400, 200]);
    for (const { headers } of answers) {
      expect(headers.get('content-security-policy')).toBe("default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
      expect(headers.get('cache-control')).toBe('no-store');
      expect(headers.get('x-robots-tag')).toBe('noindex');
    }
  });
});

describe('POST /u/{token}', () => {
  it('sets transactional_emails_enabled to false with the one-click body, and answers the same again', async () => {
    const profileId = await profileWith({ language: 'fi', transactional_emails_enabled: true });
    const token = await issueUnsubscribeToken(profileId, new Date());
    const first = await api.request('POST', `/u/${token}`, ONE_CLICK);
    expect(first.status).toBe(200);
    expect(first.body).toContain('Tilaus on peruttu');
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.transactional_emails_enabled).toBe(false);
    const again = await api.request('POST', `/u/${token}`, ONE_CLICK);
    expect([again.status, again.body]).toEqual([200, first.body]);
  });

  it('takes the one-click body as multipart/form-data too', async () => {
    const profileId = await profileWith({ transactional_emails_enabled: true });
    const token = await issueUnsubscribeToken(profileId, new Date());
    const body = '--b0undary\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b0undary--\r\n';
    const res = await api.request('POST', `/u/${token}`, form(body, 'multipart/form-data; boundary=b0undary'));
    expect(res.status).toBe(200);
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.transactional_emails_enabled).toBe(false);
  });

  it('answers 400 to a body without List-Unsubscribe=One-Click and changes nothing', async () => {
    const profileId = await profileWith({ transactional_emails_enabled: true });
    const token = await issueUnsubscribeToken(profileId, new Date());
    for (const body of ['', 'List-Unsubscribe=Yes', 'unsubscribe=1']) {
      expect((await api.request('POST', `/u/${token}`, form(body))).status).toBe(400);
    }
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.transactional_emails_enabled).toBe(true);
  });

  it('answers 415 to a JSON body and 413 to a form over 1 KiB', async () => {
    const token = await issueUnsubscribeToken(await createProfile(api, key), new Date());
    expect((await api.request('POST', `/u/${token}`, { body: { 'List-Unsubscribe': 'One-Click' } })).status).toBe(415);
    expect((await api.request('POST', `/u/${token}`, form(`List-Unsubscribe=One-Click&pad=${'x'.repeat(1024)}`))).status).toBe(413);
  });

  it('answers 404 with a page that says to contact the clinic for an unknown or altered token, and changes nothing', async () => {
    const profileId = await profileWith({ transactional_emails_enabled: true });
    const token = await issueUnsubscribeToken(profileId, new Date());
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const unknown of ['not-a-token', 'x'.repeat(43), altered]) {
      for (const method of ['GET', 'POST']) {
        const res = await api.request(method, `/u/${unknown}`, method === 'POST' ? ONE_CLICK : {});
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.body).toContain('This link is not valid');
        expect(res.body).toContain('contact your clinic');
      }
    }
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.transactional_emails_enabled).toBe(true);
  });

  it('answers 404 for the token of an erased profile', async () => {
    const profileId = await createProfile(api, key);
    const token = await issueUnsubscribeToken(profileId, new Date());
    expect((await api.post(`/api/v1/profiles/${profileId}/erase`, undefined, key)).status).toBe(200);
    expect((await api.request('GET', `/u/${token}`)).status).toBe(404);
    expect((await api.request('POST', `/u/${token}`, ONE_CLICK)).status).toBe(404);
  });
});

describe('the unsubscribe token in the logs', () => {
  it('is in no request line of the local server and no log line of the functions, for a GET and a POST', async () => {
    const token = await issueUnsubscribeToken(await createProfile(api, key), new Date());
    const requestLines: string[] = [];
    const server = await startLocalApi(0, { requestLine: (line) => requestLines.push(line) });
    // The most verbose level: what DEBUG and the deployed INFO write is a subset of what is scanned.
    const level = logger.getLevelName();
    logger.setLogLevel('TRACE');
    const capture = captureLogs();
    try {
      expect((await fetch(`${server.url}/u/${token}`)).status).toBe(200);
      const post = await fetch(`${server.url}/u/${token}`, { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) });
      expect(post.status).toBe(200);
      expect((await fetch(`${server.url}/u/${'x'.repeat(43)}`)).status).toBe(404);
      // Under the prefix but no route's shape: still a token in the path.
      expect((await fetch(`${server.url}/u/${token}/more`)).status).toBe(404);
    } finally {
      capture.stop();
      logger.setLogLevel(level);
      await server.close();
    }
    expect(requestLines).toEqual([
      expect.stringMatching(/^200 GET \/u\/\{token\} \d+ ms$/),
      expect.stringMatching(/^200 POST \/u\/\{token\} \d+ ms$/),
      expect.stringMatching(/^404 GET \/u\/\{token\} \d+ ms$/),
      expect.stringMatching(/^404 GET \/u\/\{redacted\} \d+ ms$/),
    ]);
    const lines = capture.lines();
    expect(lines.some((line) => line.includes('"route":"unsubscribe"'))).toBe(true);
    expect(lines.filter((line) => line.includes(token) || line.includes('x'.repeat(43)))).toEqual([]);
  });
});

describe("the profile's email_status", () => {
  it('is ok until SES reports the address, then shows the bounce or complaint', async () => {
    const profileId = await profileWith({ email: `ok-${randomUUID()}@example.org` });
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.email_status).toBe('ok');
    await setEmailStatus(profileId, 'complained', new Date().toISOString());
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.email_status).toBe('complained');
  });

  it("becomes the new address's status when a PATCH changes the email", async () => {
    const bounced = `bounced-${randomUUID()}@example.org`;
    await suppressAddress(addressHash(bounced), 'bounced', new Date().toISOString());
    const profileId = await profileWith({ email: `first-${randomUUID()}@example.org` });
    await setEmailStatus(profileId, 'complained', new Date().toISOString());
    await api.patch(`/api/v1/profiles/${profileId}`, { email: `second-${randomUUID()}@example.org` }, key);
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.email_status).toBe('ok');
    await api.patch(`/api/v1/profiles/${profileId}`, { email: bounced.toUpperCase() }, key);
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.email_status).toBe('bounced');
    await api.patch(`/api/v1/profiles/${profileId}`, { first_name: 'Other' }, key);
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.email_status).toBe('bounced');
  });
});

describe('erasure and export', () => {
  it("the erasure deletes the profile's messages, and its list answers empty", async () => {
    const profileId = await createProfile(api, key);
    await recordMessage(profileId, 2);
    await recordMessage(profileId, 1, 'simulated', 'Your appointment is booked');
    expect((await api.post(`/api/v1/profiles/${profileId}/erase`, undefined, key)).status).toBe(200);
    const res = await api.get(`/api/v1/profiles/${profileId}/messages`, key);
    expect([res.status, res.body]).toEqual([200, []]);
  });

  it('the erasure deletes the pointer SES keeps to a sent message', async () => {
    const profileId = await createProfile(api, key);
    const message = await recordMessage(profileId, 1);
    const sesMessageId = `ses-${randomUUID()}`;
    await dynamo.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...itemKeys.sentEmail(sesMessageId), message_key: itemKeys.message(profileId, message.id), profile_id: profileId },
      }),
    );
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: itemKeys.message(profileId, message.id),
        UpdateExpression: 'SET ses_message_id = :id',
        ExpressionAttributeValues: { ':id': sesMessageId },
      }),
    );
    await api.post(`/api/v1/profiles/${profileId}/erase`, undefined, key);
    expect((await dynamo.send(new GetCommand({ TableName: tableName, Key: itemKeys.sentEmail(sesMessageId), ConsistentRead: true }))).Item).toBeUndefined();
  });

  it("the erasure removes the reminder of the profile's appointment", async () => {
    const profileId = await createProfile(api, key);
    const appointmentId = await scheduleAppointment(api, key, { profileId });
    const scheduledAt = (await api.get(`/api/v1/appointments/${appointmentId}`, key)).body.scheduled_at as string;
    const due = new Date(Date.parse(scheduledAt) - 3_600_000).toISOString();
    await setReminder({ appointment_id: appointmentId, profile_id: profileId, scheduled_at: scheduledAt, due_at: due, event_id: randomUUID() });
    await api.post(`/api/v1/profiles/${profileId}/erase`, undefined, key);
    expect((await dynamo.send(new GetCommand({ TableName: tableName, Key: itemKeys.reminder(appointmentId), ConsistentRead: true }))).Item).toBeUndefined();
  });

  it("the export holds the profile's messages, newest first, as the list answers them", async () => {
    const profileId = await createProfile(api, key);
    await recordMessage(profileId, 2);
    await recordMessage(profileId, 1, 'simulated', 'Your appointment is booked');
    const listed = await api.get(`/api/v1/profiles/${profileId}/messages`, key);
    const exported = await api.get(`/api/v1/profiles/${profileId}/export`, key);
    expect(exported.status).toBe(200);
    expect(exported.body.messages).toEqual(listed.body);
    expect(exported.body.messages).toHaveLength(2);
  });
});
