// GET /api/v1/webhooks — this key's subscriptions (at most 10), oldest first.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toWebhook } from '../../shared/schemas/webhooks';
import { listWebhooksOfKey } from '../../shared/store/webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.listWebhooks,
  async run({ access }) {
    return ok((await listWebhooksOfKey(access.keyId)).map(toWebhook));
  },
});
