// GET /u/{token} — no key: asks whether to stop the patient emails; changes nothing (mail scanners follow links).
import { invalidLinkPage, questionPage, UNSUBSCRIBE_PAGE_HEADERS } from '../../shared/email/unsubscribe-pages';
import { publicHttpHandler } from '../../shared/http/stack';
import { UnsubscribeParams } from '../../shared/schemas/unsubscribe';
import { openUnsubscribeLink } from '../../shared/usecases/unsubscribe';
import * as routes from '../../shared/routes/unsubscribe';

export const handler = publicHttpHandler({
  route: routes.getUnsubscribePage,
  params: UnsubscribeParams,
  headers: UNSUBSCRIBE_PAGE_HEADERS,
  async run({ params }) {
    const link = await openUnsubscribeLink(params.token);
    return link ? questionPage(link.language, link.sender) : invalidLinkPage();
  },
});
