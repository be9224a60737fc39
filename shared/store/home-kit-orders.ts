/**
 * Home kit orders. Unlike an appointment's, a kit's attachments live IN its item, as maps
 * (panel id → added_at, biomarker id → added_at): one GetItem reads the whole order, the profile's list
 * is one Query that returns complete orders, and attaching is one conditional UpdateItem. A kit holds
 * at most 90 tests, far below the item size limit.
 *
 * Access patterns:
 * - an order by id ........................ GetItem        PK=KIT#<id>
 * - a profile's orders, newest first ...... Query          GSI1 PROFILE#<id> / KIT#<created_at>#<id>, descending
 * - attach / dispatch / cancel ............ UpdateItem     (status condition)
 * - activate .............................. TransactWrite  Update KIT (dispatched) + Put APPT + links + BARCODE# + OUTBOX#
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { assertAttachable, assertCancellable, assertDispatchable, type HomeKitOrderStatus } from '../domain/home-kit-order';
import { outboxPut } from '../events/outbox';
import type { DomainEvent } from '../events/publisher';
import { Conflict, NotFound } from '../http/errors';
import type { DeliveryAddress } from '../domain/address';
import { type AppointmentRecord, appointmentItems } from './appointments';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import { index, keys } from './keys';
import { type Page, type PageRequest, pageByIndexPrefix } from './pages';
import { withoutKeys } from './query';
import { TransactionCancelled, transactWrite } from './transactions';

export interface HomeKitOrderRecord {
  id: string;
  profile_id: string;
  /** The profile's group: the access context of an order. */
  profile_group_slug: string;
  status: HomeKitOrderStatus;
  delivery_address: DeliveryAddress;
  /** panel id → added_at of its first attachment */
  panels: Record<string, string>;
  /** biomarker id → added_at of its first attachment */
  biomarkers: Record<string, string>;
  tracking_number: string | null;
  carrier: string | null;
  dispatched_at: string | null;
  activation_barcode: string | null;
  appointment_id: string | null;
  created_at: string;
  updated_at: string | null;
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

export async function createHomeKitOrder(order: HomeKitOrderRecord): Promise<void> {
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.homeKitOrder(order.id), ...index.homeKitOrderOfProfile(order.profile_id, order.created_at, order.id), ...order },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

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

const changedMeanwhile = () => new Conflict('The order changed while this request was processed; retry it');

/**
 * Re-attaching keeps the first added_at (if_not_exists). Only while pending, and only if the order still
 * has the tests it was read with: the capacity check (MAX_KIT_TESTS) must hold against concurrent attaches.
 */
export function attachKitTests(read: HomeKitOrderRecord, tests: { panelIds?: string[]; biomarkerIds?: number[] }, at: string) {
  const id = read.id;
  const names: Record<string, string> = {};
  const assignments = [
    ...(tests.panelIds ?? []).map((panelId, i) => ((names[`#p${i}`] = panelId), `panels.#p${i} = if_not_exists(panels.#p${i}, :at)`)),
    ...(tests.biomarkerIds ?? []).map((biomarkerId, i) => ((names[`#b${i}`] = String(biomarkerId)), `biomarkers.#b${i} = if_not_exists(biomarkers.#b${i}, :at)`)),
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
      throw changedMeanwhile();
    },
  );
}

export const dispatchKit = (id: string, trackingNumber: string, carrier: string | null, at: string) =>
  updateOrder(
    id,
    {
      UpdateExpression: 'SET #status = :dispatched, tracking_number = :tracking, carrier = :carrier, dispatched_at = :at, updated_at = :at',
      // An order with no test cannot be dispatched: re-checked here against a racing change.
      ConditionExpression: '#status = :pending AND (size(panels) > :zero OR size(biomarkers) > :zero)',
      values: { ':dispatched': 'dispatched', ':pending': 'pending', ':tracking': trackingNumber, ':carrier': carrier, ':at': at, ':zero': 0 },
    },
    (current) => {
      assertDispatchable(current.status, testCount(current));
      throw changedMeanwhile();
    },
  );

export const cancelKit = (id: string, at: string) =>
  updateOrder(
    id,
    {
      UpdateExpression: 'SET #status = :cancelled, updated_at = :at',
      ConditionExpression: '#status IN (:pending, :dispatched)',
      values: { ':cancelled': 'cancelled', ':pending': 'pending', ':dispatched': 'dispatched', ':at': at },
    },
    (current) => {
      assertCancellable(current.status);
      throw changedMeanwhile();
    },
  );

/**
 * Activation in ONE transaction: the order (still dispatched) becomes activated, and the appointment
 * with its tests, the barcode (unique across all samples) and the LabOrderRequested outbox entry appear.
 * Returns 'lost-race' when the order was no longer dispatched; throws 409 for a used barcode.
 */
export async function activateKit(
  order: HomeKitOrderRecord,
  appointment: AppointmentRecord,
  barcode: string,
  event: DomainEvent,
): Promise<'activated' | 'lost-race'> {
  const at = appointment.created_at;
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: keys.homeKitOrder(order.id),
          UpdateExpression: 'SET #status = :activated, activation_barcode = :barcode, appointment_id = :appointment, updated_at = :at',
          ConditionExpression: '#status = :dispatched',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':activated': 'activated', ':dispatched': 'dispatched', ':barcode': barcode, ':appointment': appointment.id, ':at': at },
        },
      },
      {
        Put: {
          TableName: tableName,
          Item: { ...keys.barcode(barcode), barcode, appointment_id: appointment.id, home_kit_order_id: order.id, created_at: at },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      outboxPut(event, at),
      ...appointmentItems(appointment, {
        panels: Object.entries(order.panels).map(([panel_id, added_at]) => ({ panel_id, added_at })),
        biomarkers: Object.entries(order.biomarkers).map(([id, added_at]) => ({ biomarker_id: Number(id), added_at })),
      }),
    ]);
    return 'activated';
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    if (error.failedAt(0)) return 'lost-race';
    if (error.failedAt(1)) throw new Conflict('This barcode is already used by another sample');
    throw error;
  }
}
