// GET /api/v1/profiles/{id}/home-kit-orders — the profile's kit orders, newest first, in one Query.
import { assertProfileGroupAccess } from '../../shared/auth/access';
import { NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { PageQuery } from '../../shared/schemas/pagination';
import { IdParams } from '../../shared/schemas/fields';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { loadCatalog } from '../../shared/store/catalog';
import { listHomeKitOrdersOfProfile } from '../../shared/store/home-kit-orders';
import { getProfile, PROFILE_NOT_FOUND } from '../../shared/store/profiles';
import { pageFor } from '../../shared/usecases/paging';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.listProfileHomeKitOrders,
  params: IdParams,
  query: PageQuery,
  async run({ params, query, access }) {
    const [profile, page, catalog] = await Promise.all([getProfile(params.id), listHomeKitOrdersOfProfile(params.id, pageFor(query, access)), loadCatalog()]);
    if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
    assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
    access.audit?.read(profile.id, 'profile home kit orders');
    return okPage({ ...page, items: page.items.map((order) => toHomeKitOrder(order, profile, catalog)) });
  },
});
