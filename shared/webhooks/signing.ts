/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com), made by the maintained
 * `standardwebhooks` package, the same one a receiver verifies with. A secret is `whsec_` and 32 random
 * bytes in base64. While a rotation overlaps, every webhook carries one signature per signing secret
 * (`v1,<sig> v1,<sig>`), and a receiver holding either secret verifies it.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of a webhook: its id (stable across retries), the send time and the signatures. */
export function signWebhook(secrets: readonly string[], id: string, sentAt: Date, body: string): SignedHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, sentAt, body)).join(' '),
  };
}
