/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com), made by the maintained
 * `standardwebhooks` package, the same one a receiver verifies with, with secrets of shared/webhooks/secrets.ts.
 * While a rotation overlaps, every webhook carries one signature per signing secret
 * (`v1,<sig> v1,<sig>`), and a receiver holding either secret verifies it.
 */
import { Webhook } from 'standardwebhooks';

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
