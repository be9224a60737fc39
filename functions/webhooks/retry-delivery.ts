// POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/retry — one more attempt now, same webhook-id and body.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { DeliveryParams, toWebhookDelivery } from '../../shared/schemas/webhooks';
import { retryDelivery } from '../../shared/usecases/deliver-webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = httpHandler({
  route: routes.retryWebhookDelivery,
  params: DeliveryParams,
  async run({ params, access, now }) {
    return ok(toWebhookDelivery(await retryDelivery(params.id, params.delivery_id, { access, now })));
  },
});
