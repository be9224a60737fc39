// POST /api/v1/webhooks/{id}/test — a webhook.test event now; answers the delivery after its first attempt.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toWebhookDelivery, WebhookParams } from '../../shared/schemas/webhooks';
import { sendTestWebhook } from '../../shared/usecases/deliver-webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.sendTestWebhook,
  params: WebhookParams,
  async run({ params, access, now }) {
    return ok(toWebhookDelivery(await sendTestWebhook(params.id, { access, now })));
  },
});
