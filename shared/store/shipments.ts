/**
 * Shipments: courier orders that move samples from a location to a lab.
 *
 * Access patterns:
 * - a shipment by reference ................. GetItem        PK=SHIPMENT#<ref>
 * - create, cancel, courier updates ......... through shared/store/transitions.ts (shared/usecases/*shipment*.ts);
 *                                              a create's Put is conditional (attribute_not_exists(PK)): a random
 *                                              reference already taken fails it, never overwrites
 * - shipments of a location group ........... Query          GSI1 LOCGROUP#<slug> / SHIPMENT#<created_at>#<ref>, descending, paged
 * - the appointments a shipment carries ..... Query          GSI1 SHIPMENT#<ref> / APPT#<id>
 * - change the window ....................... UpdateItem     (status = pending, the window as read)
 */
import { randomInt } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Address } from '../domain/address';
import type { PickupWindow } from '../domain/pickup-window';
import { assertPending, type LogisticsProvider, SHIPMENT_REFERENCE_VALUES, type ShipmentStatus, shipmentReference } from '../domain/shipment';
import { shipmentStatusChanged } from '../events/status-changed';
import { Conflict, NotFound } from '../errors';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import * as keys from './keys/items';
import * as index from './keys/index-entries';
import { type Page, type PageRequest, pageByIndexPrefix } from './pages';
import { listByIndexPrefix, withoutKeys } from './query';
import type { Lifecycle } from './transitions';
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
  /** How many history entries it has (shared/store/transitions.ts); absent before the history existed. */
  history_seq?: number;
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

/** A new reference, drawn uniformly from all 10^10 by the CSPRNG: unguessable, unrelated to any other. */
export const randomShipmentReference = (): string => shipmentReference(randomInt(SHIPMENT_REFERENCE_VALUES));

export const shipmentLifecycle: Lifecycle<ShipmentRecord> = {
  key: (shipment) => keys.shipment(shipment.id),
  item: (shipment) => ({
    ...keys.shipment(shipment.id),
    ...index.shipmentOfLocationGroup(shipment.location_group_slug, shipment.created_at, shipment.id),
    ...shipment,
  }),
  event: ({ before, after, actor, at }) =>
    shipmentStatusChanged({
      occurred_at: at,
      source: actor.source,
      shipment_id: after.id,
      location_id: after.location_id,
      location_group_slug: after.location_group_slug,
      from_status: before?.status ?? null,
      status: after.status,
      tracking_number: after.tracking_number,
    }),
};

/** Shipments of the given location groups, newest first, a page at a time: one Query per group. */
export function listShipments(locationGroups: Iterable<string>, page: PageRequest): Promise<Page<ShipmentRecord>> {
  return pageByIndexPrefix<ShipmentRecord>(
    [...locationGroups].map((group) => index.shipmentsOfLocationGroup(group)),
    page,
  );
}

/** The appointments a shipment carries, with their profile group (for the reader's access context). */
export async function appointmentsOfShipment(reference: string): Promise<{ appointment_id: string; profile_group_slug: string }[]> {
  return listByIndexPrefix(index.appointmentsOfShipment(reference));
}

/**
 * A conditional update of a pending shipment; a racing change answers the 409 its new status calls for.
 * `asRead`: attributes the change was decided from (a PATCH merges into the window it read), re-checked
 * at the write, so that a PATCH landing meanwhile is never silently undone.
 */
async function updatePending(
  reference: string,
  attributes: Record<string, unknown>,
  action: string,
  asRead: Record<string, unknown> = {},
): Promise<ShipmentRecord> {
  const update = setAttributes(attributes);
  const read = Object.entries(asRead);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.shipment(reference),
        ...update,
        ConditionExpression: ['#status = :pending', ...read.map((_, i) => `#read${i} = :read${i}`)].join(' AND '),
        ExpressionAttributeNames: {
          ...update.ExpressionAttributeNames,
          '#status': 'status',
          ...Object.fromEntries(read.map(([name], i) => [`#read${i}`, name])),
        },
        ExpressionAttributeValues: {
          ...update.ExpressionAttributeValues,
          ':pending': 'pending',
          ...Object.fromEntries(read.map(([, value], i) => [`:read${i}`, value])),
        },
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
    throw new Conflict(SHIPMENT_CHANGED_MEANWHILE);
  }
}

/** The merged window replaces the one it was merged into (`read`), or 409 when another change landed first. */
export const changePickupWindow = (read: ShipmentRecord, window: PickupWindow, at: string) =>
  updatePending(read.id, { ...window, updated_at: at }, 'modified', {
    pickup_date: read.pickup_date,
    pickup_time_from: read.pickup_time_from,
    pickup_time_till: read.pickup_time_till,
  });

export const SHIPMENT_CHANGED_MEANWHILE = 'The shipment changed while this request was processed; retry it';
