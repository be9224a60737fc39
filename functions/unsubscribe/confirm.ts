// POST /u/{token} — no key, RFC 8058 one-click: `List-Unsubscribe=One-Click` sets transactional_emails_enabled to false.
import { donePage, invalidLinkPage, UNSUBSCRIBE_PAGE_HEADERS } from '../../shared/email/unsubscribe-pages';
import { formBody } from '../../shared/http/form-body';
import { publicHttpHandler } from '../../shared/http/stack';
import { OneClickBody, UnsubscribeParams } from '../../shared/schemas/unsubscribe';
import { unsubscribe } from '../../shared/usecases/unsubscribe';
import * as routes from '../../shared/routes/unsubscribe';

/**
 * Mail providers POST this cross-site, without cookies: no CSRF check applies, the token is the credential.
 * Idempotent: a second POST answers the same page.
 */
export const handler = publicHttpHandler({
  route: routes.unsubscribe,
  params: UnsubscribeParams,
  body: formBody(OneClickBody),
  headers: UNSUBSCRIBE_PAGE_HEADERS,
  async run({ params, now }) {
    const link = await unsubscribe(params.token, now);
    return link ? donePage(link.language, link.sender) : invalidLinkPage();
  },
});
