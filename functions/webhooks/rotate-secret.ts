// POST /api/v1/webhooks/{id}/rotate-secret — a new secret; the previous one keeps signing for 24 h.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toWebhookWithSecret, WebhookParams } from '../../shared/schemas/webhooks';
import { rotateWebhookSecret } from '../../shared/usecases/manage-webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.rotateWebhookSecret,
  params: WebhookParams,
  async run({ params, access, now }) {
    return ok(toWebhookWithSecret(await rotateWebhookSecret(params.id, { access, now })));
  },
});
