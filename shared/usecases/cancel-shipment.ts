/** Cancels a pending shipment; after pickup, delivery or cancellation it is a conflict. */
import { assertLocationGroupAccess } from '../auth/access';
import { apiActor } from '../domain/lifecycle';
import { assertPending } from '../domain/shipment';
import { Conflict } from '../errors';
import { getShipmentOrThrow, SHIPMENT_CHANGED_MEANWHILE, shipmentLifecycle, type ShipmentRecord } from '../store/shipments';
import { TransactionCancelled } from '../store/transactions';
import { recorded } from '../store/transitions';
import { commit } from './commit';
import type { Caller } from './request';

export async function cancelShipment(id: string, { access, now }: Caller): Promise<ShipmentRecord> {
  const shipment = await getShipmentOrThrow(id);
  assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
  assertPending(shipment.status, 'cancelled');
  const at = now.toISOString();
  const after: ShipmentRecord = { ...shipment, status: 'cancelled', updated_at: at };
  try {
    await commit({ transitions: [{ lifecycle: shipmentLifecycle, before: shipment, after, actor: apiActor(access.keyId), at }], writtenAt: at });
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    assertPending((await getShipmentOrThrow(id)).status, 'cancelled');
    throw new Conflict(SHIPMENT_CHANGED_MEANWHILE);
  }
  return recorded(shipment, after);
}
