// POST /api/v1/home-kit-orders — orders a kit mailed to a test location or an inline address; created bare.
import { randomUUID } from 'node:crypto';
import { assertLocationGroupAccess, assertProfileGroupAccess } from '../../shared/auth/access';
import { NotFound } from '../../shared/http/errors';
import { httpHandler } from '../../shared/http/handler';
import { idempotentCreate } from '../../shared/http/idempotency';
import { created } from '../../shared/http/responses';
import { CreateHomeKitOrderBody, toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import { createHomeKitOrder, type HomeKitOrderRecord } from '../../shared/store/home-kit-orders';
import { getLocation, LOCATION_NOT_FOUND } from '../../shared/store/locations';
import { getProfile, PROFILE_NOT_FOUND } from '../../shared/store/profiles';

export const handler = httpHandler({
  route: 'createHomeKitOrder',
  idempotency: idempotentCreate(),
  body: CreateHomeKitOrderBody,
  async run({ body, access, now }) {
    const address = body.delivery_address;
    const [profile, location] = await Promise.all([
      getProfile(body.profile_id),
      'location_id' in address ? getLocation(address.location_id) : undefined,
    ]);
    if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
    if ('location_id' in address && !location?.active) throw new NotFound(LOCATION_NOT_FOUND);
    assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
    if (location) assertLocationGroupAccess(access, location.location_group_slug, 'location');
    const order: HomeKitOrderRecord = {
      id: randomUUID(),
      profile_id: profile.id,
      profile_group_slug: profile.profile_group_slug,
      status: 'pending',
      delivery_address: address,
      panels: {},
      biomarkers: {},
      tracking_number: null,
      carrier: null,
      dispatched_at: null,
      activation_barcode: null,
      appointment_id: null,
      created_at: now.toISOString(),
      updated_at: null,
    };
    await createHomeKitOrder(order);
    return created(toHomeKitOrder(order, profile));
  },
});
