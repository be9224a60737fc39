/**
 * Cancels a pending shipment; after pickup, delivery or cancellation it is a conflict. The write is
 * conditional on the window as read (the answer shows it); a racing PATCH makes it read the shipment again
 * and decide again (shared/usecases/decide-again.ts), a racing pickup or cancel answers 409.
 */
import { assertLocationGroupAccess } from '../auth/access';
import { apiActor } from '../domain/lifecycle';
import { assertPending } from '../domain/shipment';
import { getShipmentOrThrow, shipmentLifecycle, type ShipmentRecord } from '../store/shipments';
import { recorded } from '../store/transitions';
import { commit } from './commit';
import { decideAgainOnRace } from './decide-again';
import type { Caller } from './request';

async function writeCancel(shipment: ShipmentRecord, actorKeyId: string, at: string): Promise<ShipmentRecord> {
  const after: ShipmentRecord = { ...shipment, status: 'cancelled', updated_at: at };
  await commit({
    transitions: [
      {
        lifecycle: shipmentLifecycle,
        before: shipment,
        after,
        actor: apiActor(actorKeyId),
        at,
        // The answer is the shipment as read: a PATCH of the window landing meanwhile must fail the write.
        condition: {
          expression: 'pickup_date = :readDate AND pickup_time_from = :readFrom AND pickup_time_till = :readTill',
          values: { ':readDate': shipment.pickup_date, ':readFrom': shipment.pickup_time_from, ':readTill': shipment.pickup_time_till },
        },
      },
    ],
    writtenAt: at,
  });
  return recorded(shipment, after);
}

export async function cancelShipment(id: string, { access, now }: Caller): Promise<ShipmentRecord> {
  const shipment = await getShipmentOrThrow(id);
  assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
  assertPending(shipment.status, 'cancelled');
  const at = now.toISOString();
  return decideAgainOnRace({
    read: shipment,
    reread: () => getShipmentOrThrow(id),
    assertAllowed: (current) => assertPending(current.status, 'cancelled'),
    write: (current) => writeCancel(current, access.keyId, at),
    what: 'shipment',
  });
}
