// GET /api/v1/webhooks/{id}/deliveries — the delivery log, newest first, a page at a time.
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { PageQuery } from '../../shared/schemas/pagination';
import { toWebhookDelivery, WebhookParams } from '../../shared/schemas/webhooks';
import { pageDeliveries } from '../../shared/store/webhook-deliveries';
import { ownWebhook } from '../../shared/usecases/manage-webhooks';
import { pageFor } from '../../shared/usecases/paging';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.listWebhookDeliveries,
  params: WebhookParams,
  query: PageQuery,
  async run({ params, query, access }) {
    const [, page] = await Promise.all([ownWebhook(params.id, access), pageDeliveries(params.id, pageFor(query, access))]);
    return okPage({ ...page, items: page.items.map(toWebhookDelivery) });
  },
});
