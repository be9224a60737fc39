/**
 * The courier integration reports a move (shipped, in_transit, delivered, fault). Couriers retry and
 * deliver out of order: the same status again is a no-op, an update older than the last one applied is
 * ignored (a shipment never moves backwards), and one from too far in the future is refused.
 */
import { assertLocationGroupAccess } from '../auth/access';
import { isBeyondClockSkew, toUtcInstant } from '../domain/instant';
import { courierActor } from '../domain/lifecycle';
import { decideProviderUpdate, type ProviderStatus } from '../domain/shipment';
import { Conflict, InvalidInput } from '../errors';
import { getShipmentOrThrow, shipmentLifecycle, type ShipmentRecord } from '../store/shipments';
import { TransactionCancelled } from '../store/transactions';
import { recorded } from '../store/transitions';
import { commit } from './commit';
import type { Caller } from './request';

export async function recordShipmentStatus(
  id: string,
  update: { status: ProviderStatus; tracking_number?: string; occurred_at?: string },
  { access, now }: Caller,
): Promise<ShipmentRecord> {
  // Both forms to the second in UTC: they are compared as strings with the last applied update.
  const occurredAt = update.occurred_at ?? toUtcInstant(now);
  if (isBeyondClockSkew(occurredAt, now)) throw new InvalidInput('occurred_at must not be in the future');
  const shipment = await getShipmentOrThrow(id);
  assertLocationGroupAccess(access, shipment.location_group_slug, 'shipment');
  if (isStale(shipment, occurredAt) || decideProviderUpdate(shipment.status, update.status) === 'unchanged') return shipment;
  const after: ShipmentRecord = {
    ...shipment,
    status: update.status,
    updated_at: now.toISOString(),
    last_status_at: occurredAt,
    ...(update.tracking_number ? { tracking_number: update.tracking_number } : {}),
    ...(update.status === 'shipped' ? { shipped_at: occurredAt } : {}),
    ...(update.status === 'delivered' ? { arrived_at: occurredAt } : {}),
  };
  try {
    await commit({
      transitions: [
        {
          lifecycle: shipmentLifecycle,
          before: shipment,
          after,
          actor: courierActor(access.keyId),
          at: occurredAt,
          // The decision also read the last update applied: no newer one may have landed meanwhile.
          condition: {
            expression: 'attribute_not_exists(last_status_at) OR last_status_at = :null OR last_status_at <= :occurred',
            values: { ':null': null, ':occurred': occurredAt },
          },
        },
      ],
      writtenAt: now.toISOString(),
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelled && error.failed('state'))) throw error;
    // A racing callback won. The same move, or a newer one, makes ours a no-op, as if it came second.
    const current = await getShipmentOrThrow(id);
    if (current.status === update.status || isStale(current, occurredAt)) return current;
    throw new Conflict('The shipment changed while this update was processed; send it again');
  }
  return recorded(shipment, after);
}

/** Out-of-order callbacks: an update older than the last one applied never moves a shipment backwards. */
const isStale = (shipment: ShipmentRecord, occurredAt: string) => !!shipment.last_status_at && occurredAt < shipment.last_status_at;
