// POST /api/v1/home-kit-orders/{id}/dispatch — the kit is in the mail: pending → dispatched, with its tracking number.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { assertDispatchable } from '../../shared/domain/home-kit-order';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { DispatchBody, toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { dispatchKit, getHomeKitOrderOrThrow, testCount } from '../../shared/store/home-kit-orders';
import { getExistingProfile } from '../../shared/store/profiles';

export const handler = httpHandler({
  route: 'dispatchHomeKitOrder',
  params: IdParams,
  body: DispatchBody,
  async run({ params, body, access, now }) {
    const order = await getHomeKitOrderOrThrow(params.id);
    assertProfileResourceAccess(access, order, 'home kit order');
    assertDispatchable(order.status, testCount(order));
    const [dispatched, profile] = await Promise.all([
      dispatchKit(params.id, body.tracking_number, body.carrier ?? null, now.toISOString()),
      getExistingProfile(order.profile_id),
    ]);
    return ok(toHomeKitOrder(dispatched, profile));
  },
});
