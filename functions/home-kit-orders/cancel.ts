// DELETE /api/v1/home-kit-orders/{id} — cancels a pending or dispatched order; its tests stay listed.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { assertCancellable } from '../../shared/domain/home-kit-order';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { cancelKit, getHomeKitOrderOrThrow } from '../../shared/store/home-kit-orders';
import { getExistingProfile } from '../../shared/store/profiles';

export const handler = httpHandler({
  route: 'cancelHomeKitOrder',
  params: IdParams,
  async run({ params, access, now }) {
    const order = await getHomeKitOrderOrThrow(params.id);
    assertProfileResourceAccess(access, order, 'home kit order');
    assertCancellable(order.status);
    const [cancelled, profile] = await Promise.all([cancelKit(params.id, now.toISOString()), getExistingProfile(order.profile_id)]);
    return ok(toHomeKitOrder(cancelled, profile));
  },
});
