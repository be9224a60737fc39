/**
 * The delivery state of a sample's lab order (issue #51): `lab_order` on the appointment item and, for a
 * home kit's sample, the same value on the kit's item, written together in one transaction so the two
 * representations never disagree. Every write is conditional on the state it was decided from
 * (shared/domain/lab-order.ts LAB_ORDER_CHANGES_FROM): an answer is final, and only a redrive moves a failed
 * order on. The answers' events travel in the same transaction (the caller adds the outbox entry: commit).
 *
 * Access patterns:
 * - the sample, as stored now ........ GetItem (consistent)  APPT#<id> / APPT
 * - the first attempt starts ......... TransactWriteItems    APPT (and KIT) if no lab_order yet
 * - an attempt takes its lease ....... UpdateItem            APPT lab_order.sending_until, if waiting and no unexpired lease
 * - an attempt without an answer ..... TransactWriteItems    APPT (and KIT) lab_order.error (the lease removed), if still pending (or failed)
 * - an answer (or the last attempt) .. TransactWriteItems    APPT (and KIT) if lab_order.status is one it may change from, + outbox
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LAB_ORDER_CHANGES_FROM, type LabOrderState } from '../domain/lab-order';
import { dynamo, tableName } from './client';
import { writtenIf } from './conditions';
import type { AppointmentRecord } from './appointments/records';
import * as keys from './keys/items';
import { withoutKeys } from './query';
import { type NamedItem, named, transactedIf, transactWrite } from './transactions';

/** The appointment item alone, read consistently: the sender decides on what is stored now. */
export async function getSample(appointmentId: string): Promise<AppointmentRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.appointment(appointmentId), ConsistentRead: true }));
  return Item ? withoutKeys<AppointmentRecord>(Item) : undefined;
}

/** Where a sample's lab order is shown: its appointment, and its home kit when it came from one. */
export interface LabOrderHolders {
  appointmentId: string;
  homeKitOrderId: string | null;
}

const keysOf = (holders: LabOrderHolders) => [
  { name: 'appointment', key: keys.appointment(holders.appointmentId) },
  ...(holders.homeKitOrderId ? [{ name: 'kit', key: keys.homeKitOrder(holders.homeKitOrderId) }] : []),
];

type HolderUpdate = Pick<
  NonNullable<NamedItem['Update']>,
  'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;

/** The same conditional update of `lab_order` on each holder, as the items of one transaction. */
const onEachHolder = (holders: LabOrderHolders, update: HolderUpdate): NamedItem[] =>
  keysOf(holders).map(({ name, key }) => named(name, { Update: { TableName: tableName, Key: key, ...update } }));

/** `lab_order` set to `state` on each holder, if its current status is one of `from` (none: if it has no lab_order yet). */
function updates(holders: LabOrderHolders, state: LabOrderState, from: readonly string[]): NamedItem[] {
  const condition =
    from.length === 0 ? 'attribute_exists(PK) AND attribute_not_exists(#order)' : `#order.#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`;
  return onEachHolder(holders, {
    UpdateExpression: 'SET #order = :state',
    ConditionExpression: condition,
    ExpressionAttributeNames: { '#order': 'lab_order', ...(from.length > 0 ? { '#status': 'status' } : {}) },
    ExpressionAttributeValues: { ':state': state, ...Object.fromEntries(from.map((status, i) => [`:from${i}`, status])) },
  });
}

/**
 * Marks the order pending as its first attempt starts. False when it already has a lab_order (a redelivered
 * event, a redrive): the caller reads it again and goes on from there.
 */
export async function startLabOrder(holders: LabOrderHolders, state: LabOrderState & { status: 'pending' }): Promise<boolean> {
  return transactedIf(transactWrite(updates(holders, state, [])));
}

/**
 * The sending lease of an order waiting for an answer (pending, or failed during a redrive): its
 * `lab_order.sending_until` set to `until` on the appointment item, if it has none or it ended by `at`.
 * False when another attempt holds it (or the order was answered meanwhile): this attempt sends nothing.
 * An answer's state replaces it; noteLabOrderAttempt removes it.
 */
export async function leaseLabOrder(appointmentId: string, at: string, until: string): Promise<boolean> {
  return writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.appointment(appointmentId),
        UpdateExpression: 'SET #order.#until = :until',
        ConditionExpression: '#order.#status IN (:pending, :failed) AND (attribute_not_exists(#order.#until) OR #order.#until <= :at)',
        ExpressionAttributeNames: { '#order': 'lab_order', '#status': 'status', '#until': 'sending_until' },
        ExpressionAttributeValues: { ':until': until, ':at': at, ':pending': 'pending', ':failed': 'failed' },
      }),
    ),
  );
}

/**
 * The items of an answer's transaction: `lab_order` becomes `state` where its status is one it may change
 * from. A cancelled transaction (TransactionCancelled) means another attempt recorded an answer first.
 */
export function labOrderChange(holders: LabOrderHolders, state: LabOrderState & { status: keyof typeof LAB_ORDER_CHANGES_FROM }): NamedItem[] {
  return updates(holders, state, LAB_ORDER_CHANGES_FROM[state.status]);
}

/**
 * Why the last attempt got no answer, on an order still waiting for one (pending, or failed during a
 * redrive): no status change, so no event; the attempt's lease removed. False when an answer was recorded meanwhile.
 */
export async function noteLabOrderAttempt(holders: LabOrderHolders, error: string): Promise<boolean> {
  const items = onEachHolder(holders, {
    UpdateExpression: 'SET #order.#error = :error REMOVE #order.#until',
    ConditionExpression: '#order.#status IN (:pending, :failed)',
    ExpressionAttributeNames: { '#order': 'lab_order', '#status': 'status', '#error': 'error', '#until': 'sending_until' },
    ExpressionAttributeValues: { ':error': error, ':pending': 'pending', ':failed': 'failed' },
  });
  return transactedIf(transactWrite(items));
}

/** What a refused order's `error` reads once its person is erased: the lab's own words may quote them. */
export const ERASED_LAB_TEXT = "The lab's reason was removed when the person's data was erased";

/**
 * A refused order's lab text replaced by ERASED_LAB_TEXT on each holder (GDPR erasure: docs/privacy.md). A
 * no-op on an order not refused, or already erased (the condition fails, nothing is written).
 */
export async function eraseLabOrderText(holders: LabOrderHolders): Promise<void> {
  const items = onEachHolder(holders, {
    UpdateExpression: 'SET #order.#error = :erased',
    ConditionExpression: '#order.#status = :refused AND #order.#error <> :erased',
    ExpressionAttributeNames: { '#order': 'lab_order', '#status': 'status', '#error': 'error' },
    ExpressionAttributeValues: { ':erased': ERASED_LAB_TEXT, ':refused': 'refused' },
  });
  await transactedIf(transactWrite(items));
}
