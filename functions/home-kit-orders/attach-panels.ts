// POST /api/v1/home-kit-orders/{id}/panels — attaches catalog panels while the order is pending; answers the order.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { assertCollectable } from '../../shared/domain/catalog';
import { assertAttachable, assertKitCapacity } from '../../shared/domain/home-kit-order';
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { AttachPanelsBody } from '../../shared/schemas/bodies/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { assertPanelsExist, loadCatalog } from '../../shared/store/catalog';
import { attachKitTests, getHomeKitOrderOrThrow } from '../../shared/store/home-kit-orders';
import { getExistingProfile } from '../../shared/store/profiles';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.attachHomeKitOrderPanels,
  params: IdParams,
  body: jsonBody(AttachPanelsBody),
  async run({ params, body, access, now }) {
    const [order, panels, catalog] = await Promise.all([getHomeKitOrderOrThrow(params.id), assertPanelsExist(body.panel_ids), loadCatalog()]);
    assertProfileResourceAccess(access, order, 'home kit order');
    assertAttachable(order.status);
    assertCollectable('Panel', panels, 'home');
    assertKitCapacity(order, { panelIds: body.panel_ids });
    const [updated, profile] = await Promise.all([
      attachKitTests(order, { panelIds: body.panel_ids }, now.toISOString()),
      getExistingProfile(order.profile_id),
    ]);
    access.audit?.read(profile.id, `home kit order ${params.id}`);
    return ok(toHomeKitOrder(updated, profile, catalog));
  },
});
