/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com), with secrets of
 * shared/webhooks/secrets.ts. A signature is `v1,` and the base64 HMAC-SHA256, keyed with the secret's
 * bytes (after `whsec_`), of `<id>.<timestamp>.<body>`. While a rotation overlaps, every webhook carries
 * one signature per signing secret (`v1,<sig> v1,<sig>`), and a receiver holding either secret verifies it.
 *
 * Made with node:crypto, not the `standardwebhooks` package (issue #33): its pure-JavaScript SHA-256 and
 * base64 added 12 KB to every function that sends a webhook, for one HMAC. The package stays the judge:
 * the tests verify every webhook they receive with it, as a receiver would.
 */
import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from './secrets';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

function signature(secret: string, signedContent: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(signedContent).digest('base64')}`;
}

/** The three headers of a webhook: its id (stable across retries), the send time and the signatures. */
export function signWebhook(secrets: readonly string[], id: string, sentAt: Date, body: string): SignedHeaders {
  const timestamp = String(Math.floor(sentAt.getTime() / 1000));
  const signedContent = `${id}.${timestamp}.${body}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((secret) => signature(secret, signedContent)).join(' '),
  };
}
