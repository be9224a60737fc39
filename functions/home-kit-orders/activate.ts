// POST /api/v1/home-kit-orders/{id}/activate — the patient registers the kit's barcode: the sample becomes an
// appointment (test_method home, blood_drawn) and the lab order pipeline starts, all in one transaction.
import { randomUUID } from 'node:crypto';
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { plannedBiomarkerIds } from '../../shared/domain/appointment';
import { decideActivation } from '../../shared/domain/home-kit-order';
import { labOrderRequested } from '../../shared/events/lab-order-requested';
import { publishCommitted } from '../../shared/events/outbox';
import { Conflict } from '../../shared/http/errors';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { ConfirmBody } from '../../shared/schemas/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { toHomeKitOrder } from '../../shared/schemas/home-kit-orders';
import type { AppointmentRecord } from '../../shared/store/appointments';
import { loadCatalog } from '../../shared/store/catalog';
import { activateKit, getHomeKitOrderOrThrow } from '../../shared/store/home-kit-orders';
import { getExistingProfile } from '../../shared/store/profiles';

export const handler = httpHandler({
  route: 'activateHomeKitOrder',
  params: IdParams,
  body: ConfirmBody,
  async run({ params, body, access, now }) {
    const order = await getHomeKitOrderOrThrow(params.id);
    assertProfileResourceAccess(access, order, 'home kit order');
    if (decideActivation(order.status, order.activation_barcode, body.barcode) === 'activate') {
      const at = now.toISOString();
      const appointment: AppointmentRecord = {
        id: randomUUID(),
        profile_id: order.profile_id,
        profile_group_slug: order.profile_group_slug,
        location_id: null,
        scheduled_at: null,
        status: 'blood_drawn',
        test_method: 'home',
        cancellation_reason: null,
        barcode: body.barcode,
        blood_drawn_at: at,
        picked_up_at: null,
        created_at: at,
        updated_at: null,
      };
      const catalog = await loadCatalog();
      const panelIds = Object.keys(order.panels);
      const event = labOrderRequested(
        {
          appointment_id: appointment.id,
          profile_id: order.profile_id,
          barcode: body.barcode,
          test_method: 'home',
          location_id: null,
          panel_ids: panelIds,
          biomarker_ids: plannedBiomarkerIds(
            panelIds.map((id) => catalog.panels.get(id)?.biomarker_ids ?? []),
            Object.keys(order.biomarkers).map(Number),
          ),
        },
        at,
      );
      if ((await activateKit(order, appointment, body.barcode, event)) === 'activated') {
        await publishCommitted([event]);
        return ok(toHomeKitOrder({ ...order, status: 'activated', activation_barcode: body.barcode, appointment_id: appointment.id, updated_at: at }, await getExistingProfile(order.profile_id)));
      }
    }
    // Already activated, or a racing activation won: the same barcode is a safe retry, another a conflict.
    const current = await getHomeKitOrderOrThrow(params.id);
    if (decideActivation(current.status, current.activation_barcode, body.barcode) !== 'already-activated') {
      throw new Conflict('The order changed while this request was processed; retry it');
    }
    return ok(toHomeKitOrder(current, await getExistingProfile(order.profile_id)));
  },
});
