// GET /api/v1/webhooks/{id} — one subscription of this key.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toWebhook, WebhookParams } from '../../shared/schemas/webhooks';
import { ownWebhook } from '../../shared/usecases/manage-webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.getWebhook,
  params: WebhookParams,
  async run({ params, access }) {
    return ok(toWebhook(await ownWebhook(params.id, access)));
  },
});
