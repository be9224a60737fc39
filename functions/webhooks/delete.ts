// DELETE /api/v1/webhooks/{id} — no further deliveries; the delivery log expires by itself.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { WebhookParams } from '../../shared/schemas/webhooks';
import { removeWebhook } from '../../shared/usecases/manage-webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.deleteWebhook,
  params: WebhookParams,
  async run({ params, access, now }) {
    await removeWebhook(params.id, { access, now });
    return ok({ success: true as const });
  },
});
