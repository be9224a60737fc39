// POST /api/v1/shipments/{id}/status — the courier integration reports a move (spec "not shown"; SHIPMENTS_TRACK).
import { assertLocationGroupAccess } from '../../shared/auth/access';
import { toUtcInstant } from '../../shared/domain/instant';
import { decideProviderUpdate } from '../../shared/domain/shipment';
import { shipmentStatusChanged } from '../../shared/events/shipment-status-changed';
import { publishCommitted } from '../../shared/events/outbox';
import { BadRequest } from '../../shared/http/errors';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { ProviderUpdateBody, ShipmentParams, toShipment } from '../../shared/schemas/shipments';
import { applyProviderUpdate, getShipmentOrThrow } from '../../shared/store/shipments';

/** Provider clocks drift; an update from further in the future than this is refused. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

export const handler = httpHandler({
  route: 'updateShipmentStatus',
  params: ShipmentParams,
  body: ProviderUpdateBody,
  async run({ params, body, access, now }) {
    // Both forms to the second in UTC: they are compared as strings with the last applied update.
    const occurredAt = body.occurred_at ?? toUtcInstant(now);
    if (Date.parse(occurredAt) > now.getTime() + MAX_CLOCK_SKEW_MS) throw new BadRequest('occurred_at must not be in the future');
    const shipment = await getShipmentOrThrow(params.id);
    assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
    // Out-of-order callbacks: an update older than the last one applied never moves a shipment backwards.
    if (shipment.last_status_at && occurredAt < shipment.last_status_at) return ok(toShipment(shipment));
    if (decideProviderUpdate(shipment.status, body.status) === 'unchanged') return ok(toShipment(shipment));
    const changes = {
      status: body.status,
      updated_at: now.toISOString(),
      ...(body.tracking_number ? { tracking_number: body.tracking_number } : {}),
      ...(body.status === 'shipped' ? { shipped_at: occurredAt } : {}),
      ...(body.status === 'delivered' ? { arrived_at: occurredAt } : {}),
    };
    const event = shipmentStatusChanged({
      occurred_at: occurredAt,
      shipment_id: shipment.id,
      location_id: shipment.location_id,
      previous_status: shipment.status,
      status: body.status,
      tracking_number: body.tracking_number ?? shipment.tracking_number,
    });
    const { shipment: updated, applied } = await applyProviderUpdate(shipment, changes, occurredAt, event);
    if (applied) await publishCommitted([event]);
    return ok(toShipment(updated));
  },
});
