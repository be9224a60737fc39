// POST /api/v1/home-kit-orders/{id}/biomarkers — attaches individual biomarkers while the order is pending; answers the order.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { assertCollectable } from '../../shared/domain/catalog';
import { assertAttachable, assertKitCapacity } from '../../shared/domain/home-kit-order';
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { ok } from '../../shared/http/responses';
import { AttachBiomarkersBody } from '../../shared/schemas/bodies/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { assertBiomarkersExist, loadCatalog } from '../../shared/store/catalog';
import { attachKitTests, getHomeKitOrderOrThrow } from '../../shared/store/home-kit-orders';
import { getExistingProfile } from '../../shared/store/profiles';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.attachHomeKitOrderBiomarkers,
  params: IdParams,
  body: jsonBody(AttachBiomarkersBody),
  async run({ params, body, access, now }) {
    const [order, biomarkers, catalog] = await Promise.all([getHomeKitOrderOrThrow(params.id), assertBiomarkersExist(body.biomarker_ids), loadCatalog()]);
    assertProfileResourceAccess(access, order, 'home kit order');
    assertAttachable(order.status);
    assertCollectable('Biomarker', biomarkers, 'home');
    assertKitCapacity(order, { biomarkerIds: body.biomarker_ids });
    const [updated, profile] = await Promise.all([
      attachKitTests(order, { biomarkerIds: body.biomarker_ids }, now.toISOString()),
      getExistingProfile(order.profile_id),
    ]);
    access.audit?.read(profile.id, `home kit order ${params.id}`);
    return ok(toHomeKitOrder(updated, profile, catalog));
  },
});
