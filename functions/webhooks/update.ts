// PATCH /api/v1/webhooks/{id} — url, event types, description or status (enabling clears the failure count).
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { toWebhook, WebhookParams } from '../../shared/schemas/webhooks';
import { UpdateWebhookBody } from '../../shared/schemas/bodies/webhooks';
import { updateWebhook } from '../../shared/usecases/manage-webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.updateWebhook,
  params: WebhookParams,
  body: jsonBody(UpdateWebhookBody),
  async run({ params, body, access, now }) {
    return ok(toWebhook(await updateWebhook(params.id, body, { access, now })));
  },
});
