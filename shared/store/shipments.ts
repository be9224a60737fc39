/**
 * Shipments: courier orders that move samples from a location to a lab.
 *
 * Access patterns:
 * - a shipment by reference ................. GetItem        PK=SHIPMENT#<ref>
 * - the day's next reference ................ UpdateItem     COUNTER#SHIPMENT#<YYMMDD> ADD seq (atomic, bounded)
 * - create .................................. TransactWrite  ConditionCheck active location + Put
 * - shipments of a location group ........... Query          GSI1 LOCGROUP#<slug> / SHIPMENT#<created_at>#<ref>, descending, paged
 * - the appointments a shipment carries ..... Query          GSI1 SHIPMENT#<ref> / APPT#<id>
 * - change the window / cancel .............. UpdateItem     (status = pending)
 * - a provider status update ................ TransactWrite  Update (status and time order) + Put OUTBOX#
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Address } from '../domain/address';
import type { PickupWindow } from '../domain/pickup-window';
import { assertPending, MAX_DAILY_SEQUENCE, type LogisticsProvider, type ShipmentStatus, shipmentReference } from '../domain/shipment';
import { outboxPut } from '../events/outbox';
import type { DomainEvent } from '../events/publisher';
import { Conflict, NotFound, ServiceUnavailable } from '../http/errors';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import { index, keys } from './keys';
import { LOCATION_NOT_FOUND } from './locations';
import { type Page, type PageRequest, pageByIndexPrefix } from './pages';
import { listByIndexPrefix, withoutKeys } from './query';
import { TransactionCancelled, transactWrite } from './transactions';
import { setAttributes } from './update-expression';

export interface ShipmentRecord extends PickupWindow {
  id: string;
  location_id: string;
  /** The location's group: the access context of a shipment. */
  location_group_slug: string;
  status: ShipmentStatus;
  logistics_provider: LogisticsProvider;
  tracking_number: string | null;
  origin: Address | null;
  destination: Address | null;
  notes: string | null;
  shipped_at: string | null;
  arrived_at: string | null;
  /** occurred_at of the last provider update applied: older ones are ignored. */
  last_status_at: string | null;
  created_at: string;
  updated_at: string | null;
}

export const SHIPMENT_NOT_FOUND = 'Shipment not found';

export async function getShipment(reference: string): Promise<ShipmentRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.shipment(reference), ConsistentRead: true }));
  return Item ? withoutKeys<ShipmentRecord>(Item) : undefined;
}

export async function getShipmentOrThrow(reference: string): Promise<ShipmentRecord> {
  const shipment = await getShipment(reference);
  if (!shipment) throw new NotFound(SHIPMENT_NOT_FOUND);
  return shipment;
}

/** The next reference of a Berlin day; 503 once the day's 9999 are used, never a duplicate. */
export async function nextShipmentReference(berlinDate: string): Promise<string> {
  const day = berlinDate.slice(2).replaceAll('-', '');
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.shipmentCounter(day),
        UpdateExpression: 'ADD seq :one',
        ConditionExpression: 'attribute_not_exists(seq) OR seq < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': MAX_DAILY_SEQUENCE },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return shipmentReference(berlinDate, Attributes?.seq as number);
  } catch (error) {
    if (isConditionFailure(error)) {
      throw new ServiceUnavailable(`All ${MAX_DAILY_SEQUENCE} shipment references of ${berlinDate} are used; create the shipment tomorrow`);
    }
    throw error;
  }
}

export async function createShipment(shipment: ShipmentRecord): Promise<void> {
  try {
    await transactWrite([
      {
        ConditionCheck: {
          TableName: tableName,
          Key: keys.location(shipment.location_id),
          ConditionExpression: 'active = :true',
          ExpressionAttributeValues: { ':true': true },
        },
      },
      {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.shipment(shipment.id),
            ...index.shipmentOfLocationGroup(shipment.location_group_slug, shipment.created_at, shipment.id),
            ...shipment,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.failedAt(0)) throw new NotFound(LOCATION_NOT_FOUND);
    throw error;
  }
}

/** Shipments of the given location groups, newest first, a page at a time: one Query per group. */
export function listShipments(locationGroups: Iterable<string>, page: PageRequest): Promise<Page<ShipmentRecord>> {
  return pageByIndexPrefix<ShipmentRecord>([...locationGroups].map((group) => index.shipmentsOfLocationGroup(group)), page);
}

/** The appointments a shipment carries, with their profile group (for the reader's access context). */
export async function appointmentsOfShipment(reference: string): Promise<{ appointment_id: string; profile_group_slug: string }[]> {
  return listByIndexPrefix(index.appointmentsOfShipment(reference));
}

/** A conditional update of a pending shipment; a racing change answers the 409 its new status calls for. */
async function updatePending(reference: string, attributes: Record<string, unknown>, action: string): Promise<ShipmentRecord> {
  const update = setAttributes(attributes);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.shipment(reference),
        ...update,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#status': 'status' },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':pending': 'pending' },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return withoutKeys<ShipmentRecord>(Attributes ?? {});
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const status = (error.Item?.status as { S?: ShipmentStatus } | undefined)?.S;
    if (!status) throw new NotFound(SHIPMENT_NOT_FOUND);
    assertPending(status, action);
    throw new Conflict('The shipment changed while this request was processed; retry it');
  }
}

export const changePickupWindow = (reference: string, window: PickupWindow, at: string) =>
  updatePending(reference, { ...window, updated_at: at }, 'modified');

export const cancelShipment = (reference: string, at: string) =>
  updatePending(reference, { status: 'cancelled', updated_at: at }, 'cancelled');

/**
 * Applies a provider update in one transaction with its ShipmentStatusChanged outbox entry. The
 * condition re-checks what the decision was based on: the status, and that no newer update was applied.
 */
export async function applyProviderUpdate(
  shipment: ShipmentRecord,
  changes: Partial<ShipmentRecord> & { status: ShipmentStatus; updated_at: string },
  occurredAt: string,
  event: DomainEvent,
): Promise<{ shipment: ShipmentRecord; applied: boolean }> {
  const update = setAttributes({ ...changes, last_status_at: occurredAt });
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: keys.shipment(shipment.id),
          ...update,
          ConditionExpression: '#status = :seen AND (attribute_not_exists(last_status_at) OR last_status_at = :null OR last_status_at <= :occurred)',
          ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#status': 'status' },
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':seen': shipment.status, ':occurred': occurredAt, ':null': null },
        },
      },
      outboxPut(event, changes.updated_at),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionCancelled && error.failedAt(0))) throw error;
    // A racing callback won. The same move, or a newer one, makes ours a no-op, as if it came second.
    const current = await getShipmentOrThrow(shipment.id);
    if (current.status === changes.status || (current.last_status_at && occurredAt < current.last_status_at)) {
      return { shipment: current, applied: false };
    }
    throw new Conflict('The shipment changed while this update was processed; send it again');
  }
  return { shipment: { ...shipment, ...changes, last_status_at: occurredAt }, applied: true };
}
