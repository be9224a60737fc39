/**
 * Home kit orders. Unlike an appointment's, a kit's attachments live IN its item, as maps
 * (panel id → added_at, biomarker id → added_at): one GetItem reads the whole order, the profile's list
 * is one Query that returns complete orders, and attaching is one conditional UpdateItem. A kit holds
 * at most 90 tests, far below the item size limit.
 *
 * Access patterns:
 * - an order by id ........................ GetItem        PK=KIT#<id>
 * - a profile's orders, newest first ...... Query          GSI1 PROFILE#<id> / KIT#<created_at>#<id>, descending
 * - attach ................................ UpdateItem     (status condition)
 * - status changes ........................ through shared/store/transitions.ts (shared/usecases/*-home-kit-order.ts)
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryAddress } from '../domain/address';
import type { LabOrderState } from '../domain/lab-order';
import { assertAttachable, type HomeKitOrderStatus } from '../domain/home-kit-order';
import { Conflict, NotFound } from '../errors';
import { homeKitOrderStatusChanged } from '../events/status-changed';
import { dynamo, tableName } from './client';
import { isConditionFailure, writtenIf } from './conditions';
import * as keys from './keys/items';
import * as index from './keys/index-entries';
import { type Page, type PageRequest, pageByIndexPrefix } from './pages';
import { withoutKeys } from './query';
import type { Lifecycle } from './transitions';

export interface HomeKitOrderRecord {
  id: string;
  profile_id: string;
  /** The profile's group: the access context of an order. */
  profile_group_slug: string;
  status: HomeKitOrderStatus;
  /** null once the person was erased and the order had an inline address (docs/privacy.md "Privacy"). */
  delivery_address: DeliveryAddress | null;
  /** panel id → added_at of its first attachment */
  panels: Record<string, string>;
  /** biomarker id → added_at of its first attachment */
  biomarkers: Record<string, string>;
  tracking_number: string | null;
  carrier: string | null;
  dispatched_at: string | null;
  activation_barcode: string | null;
  appointment_id: string | null;
  /** The requisition its activation made (the appointment keeps its tests); absent before. */
  requisition?: { number: string; created_at: string };
  /** Its sample's order delivery to the lab, the appointment's lab_order mirrored (shared/store/lab-orders.ts); absent without one. */
  lab_order?: LabOrderState;
  created_at: string;
  updated_at: string | null;
  /** How many history entries it has (shared/store/transitions.ts); absent before the history existed. */
  history_seq?: number;
}

export const HOME_KIT_ORDER_NOT_FOUND = 'Home kit order not found';

export const testCount = (order: HomeKitOrderRecord) => Object.keys(order.panels).length + Object.keys(order.biomarkers).length;

export async function getHomeKitOrder(id: string): Promise<HomeKitOrderRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.homeKitOrder(id), ConsistentRead: true }));
  return Item ? withoutKeys<HomeKitOrderRecord>(Item) : undefined;
}

export async function getHomeKitOrderOrThrow(id: string): Promise<HomeKitOrderRecord> {
  const order = await getHomeKitOrder(id);
  if (!order) throw new NotFound(HOME_KIT_ORDER_NOT_FOUND);
  return order;
}

export const homeKitOrderLifecycle: Lifecycle<HomeKitOrderRecord> = {
  key: (order) => keys.homeKitOrder(order.id),
  item: (order) => ({ ...keys.homeKitOrder(order.id), ...index.homeKitOrderOfProfile(order.profile_id, order.created_at, order.id), ...order }),
  event: ({ before, after, actor, at }) =>
    homeKitOrderStatusChanged({
      occurred_at: at,
      source: actor.source,
      home_kit_order_id: after.id,
      profile_id: after.profile_id,
      profile_group_slug: after.profile_group_slug,
      appointment_id: after.appointment_id,
      from_status: before?.status ?? null,
      status: after.status,
    }),
};

export function listHomeKitOrdersOfProfile(profileId: string, page: PageRequest): Promise<Page<HomeKitOrderRecord>> {
  return pageByIndexPrefix<HomeKitOrderRecord>([index.homeKitOrdersOfProfile(profileId)], page);
}

/**
 * A conditional update of an order; when the condition fails, the order as it is now goes to
 * `explain`, which throws the 409 it calls for.
 */
async function updateOrder(
  id: string,
  update: { UpdateExpression: string; ConditionExpression: string; names?: Record<string, string>; values: Record<string, unknown> },
  explain: (current: HomeKitOrderRecord) => never,
): Promise<HomeKitOrderRecord> {
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.homeKitOrder(id),
        UpdateExpression: update.UpdateExpression,
        ConditionExpression: update.ConditionExpression,
        ExpressionAttributeNames: { '#status': 'status', ...update.names },
        ExpressionAttributeValues: update.values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return withoutKeys<HomeKitOrderRecord>(Attributes ?? {});
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    explain(await getHomeKitOrderOrThrow(id));
  }
}

/**
 * Removes an order's inline delivery address (a copy of an erased person's data) without a status change;
 * false when there was none left to remove.
 */
export async function removeDeliveryAddress(id: string, at: string): Promise<boolean> {
  return writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.homeKitOrder(id),
        UpdateExpression: 'SET delivery_address = :none, updated_at = :at',
        // An inline address is the one without a location_id.
        ConditionExpression: 'attribute_exists(PK) AND attribute_type(delivery_address, :map) AND attribute_not_exists(delivery_address.location_id)',
        ExpressionAttributeValues: { ':none': null, ':at': at, ':map': 'M' },
      }),
    ),
  );
}

export const ORDER_CHANGED_MEANWHILE = 'The order changed while this request was processed; retry it';

/**
 * Re-attaching keeps the first added_at (if_not_exists). Only while pending, and only if the order still
 * has the tests it was read with: the capacity check (MAX_KIT_TESTS) must hold against concurrent attaches.
 */
export function attachKitTests(read: HomeKitOrderRecord, tests: { panelIds?: string[]; biomarkerIds?: number[] }, at: string) {
  const id = read.id;
  const names: Record<string, string> = {};
  const assignments = [
    ...(tests.panelIds ?? []).map((panelId, i) => ((names[`#p${i}`] = panelId), `panels.#p${i} = if_not_exists(panels.#p${i}, :at)`)),
    ...(tests.biomarkerIds ?? []).map(
      (biomarkerId, i) => ((names[`#b${i}`] = String(biomarkerId)), `biomarkers.#b${i} = if_not_exists(biomarkers.#b${i}, :at)`),
    ),
  ];
  return updateOrder(
    id,
    {
      UpdateExpression: `SET ${assignments.join(', ')}, updated_at = :at`,
      ConditionExpression: '#status = :pending AND size(panels) = :panelCount AND size(biomarkers) = :biomarkerCount',
      names,
      values: {
        ':at': at,
        ':pending': 'pending',
        ':panelCount': Object.keys(read.panels).length,
        ':biomarkerCount': Object.keys(read.biomarkers).length,
      },
    },
    (current) => {
      assertAttachable(current.status);
      throw new Conflict(ORDER_CHANGED_MEANWHILE);
    },
  );
}
