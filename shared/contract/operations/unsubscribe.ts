/**
 * What the unsubscribe link's routes answer (issue #52, RFC 8058, docs/messages.md "Unsubscribe"): HTML pages
 * for a person, with the security headers of shared/email/unsubscribe-pages.ts on every answer. Joined with the
 * other resources in shared/contract/operations.ts.
 */
import type { RouteName } from '../../routes';
import { type OperationDoc } from '../operation-doc';

const HTML = { type: 'text/html', schema: { type: 'string' } } as const;
const PAGE_HEADERS = {
  'Content-Security-Policy': { description: "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'", required: true },
  'Content-Language': { description: "The profile's language (en, de or fi); `en, de, fi` on the page of a link that opens nothing.", required: true },
} as const;
const INVALID_LINK = {
  description:
    'The link opens nothing: a token never issued, altered or expired (400 days), or its profile was erased. An HTML page, in the three ' +
    'languages, saying so and to contact the clinic.',
  content: HTML,
  headers: PAGE_HEADERS,
} as const;
/** A public route that reads the table can find it busy too. */
const BUSY = 'the database could not answer now: retry after Retry-After seconds';

export const unsubscribeOperations = {
  getUnsubscribePage: {
    tag: 'Patient links',
    summary: 'The unsubscribe page',
    description:
      "Where an email's unsubscribe link leads: a page, in the profile's language, asking whether to stop the emails, with a button that " +
      'POSTs `List-Unsubscribe=One-Click` to the same address. Opening it changes nothing (mail scanners follow links). No API key.',
    responses: { 200: { description: 'The page.', content: HTML, headers: PAGE_HEADERS }, 404: INVALID_LINK },
    errors: { 503: BUSY },
  },
  unsubscribe: {
    tag: 'Patient links',
    summary: 'Unsubscribe (one click)',
    description:
      "RFC 8058's one-click unsubscribe, as mail providers send it (cross-site, without cookies: the token is the credential) and as the " +
      "page's button does: sets the profile's `transactional_emails_enabled` to false. Idempotent: a second POST answers the same page. " +
      'The body is `List-Unsubscribe=One-Click`, form-encoded or multipart, at most 1 KiB. No API key.',
    responses: { 200: { description: 'A page saying it is done.', content: HTML, headers: PAGE_HEADERS }, 404: INVALID_LINK },
    errors: {
      413: 'the body is larger than 1 KiB',
      415: 'the body is neither application/x-www-form-urlencoded nor multipart/form-data',
      503: BUSY,
    },
    requestExample: { 'List-Unsubscribe': 'One-Click' },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
