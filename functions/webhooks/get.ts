// GET /api/v1/webhooks/{id} — one subscription of this key.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toWebhook, WebhookParams } from '../../shared/schemas/webhooks';
import { ownWebhook } from '../../shared/usecases/manage-webhooks';

export const handler = httpHandler({
  route: 'getWebhook',
  params: WebhookParams,
  async run({ params, access }) {
    return ok(toWebhook(await ownWebhook(params.id, access)));
  },
});
