// POST /api/v1/profiles/{id}/erase — erases the person's identifiers and cancels what was still to happen (docs/privacy.md "Privacy").
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toFullProfile } from '../../shared/schemas/profiles';
import { eraseProfile } from '../../shared/usecases/erase-profile';
import * as routes from '../../shared/routes/profiles';

export const handler = httpHandler({
  route: routes.eraseProfile,
  params: IdParams,
  async run({ params, access, now }) {
    const erasure = await eraseProfile(params.id, { access, now });
    return ok({
      profile: toFullProfile(erasure.profile),
      cancelled_appointment_ids: erasure.cancelledAppointmentIds,
      cancelled_home_kit_order_ids: erasure.cancelledHomeKitOrderIds,
      erased_delivery_address_order_ids: erasure.erasedAddressOrderIds,
    });
  },
});
