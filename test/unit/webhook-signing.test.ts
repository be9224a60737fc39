/**
 * Our signatures (shared/webhooks/signing.ts, node:crypto) judged by the `standardwebhooks` package, the
 * reference implementation a receiver verifies with. test/integration/webhooks.test.ts verifies every
 * webhook a real receiver gets the same way.
 */
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../shared/webhooks/secrets';
import { signWebhook } from '../../shared/webhooks/signing';

const BODY = JSON.stringify({ type: 'lab_results.available', data: { note: 'Müller – 血液検査 ✓' } });
const SENT_AT = new Date();

describe('a webhook signature', () => {
  it('verifies with the reference implementation, for a body with characters outside ASCII', () => {
    const secret = newWebhookSecret();
    const headers = signWebhook([secret], 'msg_1', SENT_AT, BODY);
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it('is the one the reference implementation makes', () => {
    const secret = newWebhookSecret();
    expect(signWebhook([secret], 'msg_1', SENT_AT, BODY)['webhook-signature']).toBe(new Webhook(secret).sign('msg_1', SENT_AT, BODY));
  });

  it('verifies with either secret while a rotation overlaps', () => {
    const [old, current] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signWebhook([current, old], 'msg_1', SENT_AT, BODY);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(new Webhook(current).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it('does not verify a body changed after signing', () => {
    const secret = newWebhookSecret();
    const headers = signWebhook([secret], 'msg_1', SENT_AT, BODY);
    expect(() => new Webhook(secret).verify(BODY.replace('Müller', 'Muller'), headers)).toThrow('No matching signature found');
  });
});
