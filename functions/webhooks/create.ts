// POST /api/v1/webhooks — subscribes this key to events; answers the signing secret, this once.
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { created } from '../../shared/http/responses';
import { toWebhookWithSecret } from '../../shared/schemas/webhooks';
import { CreateWebhookBody } from '../../shared/schemas/bodies/webhooks';
import { createWebhook } from '../../shared/usecases/manage-webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.createWebhook,
  body: jsonBody(CreateWebhookBody),
  async run({ body, access, now }) {
    return created(toWebhookWithSecret(await createWebhook(body, { access, now })));
  },
});
