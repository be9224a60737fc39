/**
 * A webhook's signing secret, as Standard Webhooks writes one (https://www.standardwebhooks.com): `whsec_`
 * and 32 random bytes in base64. A module apart from the signing (shared/webhooks/signing.ts), so that the
 * routes that only make or rotate a secret do not bundle the signing library (issue #33).
 */
import { randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}
