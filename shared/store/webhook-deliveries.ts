/**
 * Webhook deliveries: one per event and subscription, in the subscription's partition, with the retry
 * schedule's state (docs/events-and-webhooks.md "Webhooks"). An attempt first claims its delivery with a conditional write
 * (attempts + 1, due again only after a lease), so two dispatchers, a retry sweep and a manual retry
 * never send the same attempt twice; one that dies mid-attempt leaves it due when the lease ends.
 *
 * Access patterns:
 * - create (once per event and subscription) ... Put, conditional on a deterministic id
 * - claim, record an attempt ................... UpdateItem, conditional on the attempt count
 * - deliveries due for an attempt .............. Query GSI2 WEBHOOK_DUE / <due_at>#…  (sparse: pending only)
 * - a subscription's delivery log .............. Query WEBHOOK#<id> / DELIVERY#…, newest first
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DELIVERY_RETENTION_MS, type DeliveryOutcome } from '../domain/webhook';
import { Conflict } from '../errors';
import { dynamo, tableName } from './client';
import { isConditionFailure, writtenIf } from './conditions';
import { deliveriesOf } from './keys';
import * as keys from './keys/items';
import * as index from './keys/index-entries';
import { type Page, type PageRequest, pageOfPartition } from './pages';
import { dueOnGsi2, withoutKeys } from './query';
import { TTL_ATTRIBUTE } from './table';

export interface DeliveryRecord {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  occurred_at: string;
  created_at: string;
  /** The exact body sent, so that every retry and replay signs and sends the same bytes. */
  payload: string;
  attempts: number;
  outcome: DeliveryOutcome;
  /** When a pending delivery may be attempted next (after an attempt in flight: when its lease ends). */
  due_at: string | null;
  /** While an attempt is in flight: when its claim lapses (absent otherwise). */
  leased_until?: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
}

const dueIndex = (delivery: { webhook_id: string; id: string }, dueAt: string) => index.dueDelivery(dueAt, delivery.webhook_id, delivery.id);

/**
 * Stores a new delivery already claimed for its first attempt. Answers false when this event was already
 * delivered to this subscription (a duplicate event).
 */
const expiryOf = (now: Date) => Math.floor((now.getTime() + DELIVERY_RETENTION_MS) / 1000);

export async function insertClaimedDelivery(delivery: DeliveryRecord, now: Date): Promise<boolean> {
  const expiresAt = expiryOf(now);
  return writtenIf(
    dynamo.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.webhookDelivery(delivery.webhook_id, delivery.id),
          ...dueIndex(delivery, delivery.due_at as string),
          ...delivery,
          [TTL_ATTRIBUTE]: expiresAt,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    ),
  );
}

export async function getDelivery(webhookId: string, id: string): Promise<DeliveryRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.webhookDelivery(webhookId, id), ConsistentRead: true }));
  return Item ? withoutKeys<DeliveryRecord>(Item) : undefined;
}

/**
 * Claims the next attempt of a delivery until `leaseUntil`. `due` claims a pending delivery whose time
 * has come (the retry sweep); `any` any delivery that has no attempt in flight, whatever its outcome (a
 * manual retry). Answers the claimed delivery, or undefined when another attempt got it first or it is
 * not due.
 */
export async function claimDelivery(delivery: DeliveryRecord, mode: 'due' | 'any', now: Date, leaseUntil: Date): Promise<DeliveryRecord | undefined> {
  const lease = leaseUntil.toISOString();
  const ready = mode === 'due' ? 'outcome = :pending AND due_at <= :now' : '(attribute_not_exists(leased_until) OR leased_until <= :now)';
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.webhookDelivery(delivery.webhook_id, delivery.id),
        // The log keeps a delivery 30 days from its last claim, so a retried one does not expire mid-attempt.
        UpdateExpression: `SET attempts = attempts + :one, outcome = :pending, due_at = :lease, leased_until = :lease, GSI2PK = :duePk, GSI2SK = :dueSk, ${TTL_ATTRIBUTE} = :expires`,
        ConditionExpression: `attribute_exists(PK) AND attempts = :seen AND ${ready}`,
        ExpressionAttributeValues: {
          ':one': 1,
          ':pending': 'pending',
          ':lease': lease,
          ':now': now.toISOString(),
          ':seen': delivery.attempts,
          ':expires': expiryOf(now),
          ':duePk': dueIndex(delivery, lease).GSI2PK,
          ':dueSk': dueIndex(delivery, lease).GSI2SK,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return withoutKeys<DeliveryRecord>(Attributes as Record<string, unknown>);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

export interface AttemptRecord {
  outcome: DeliveryOutcome;
  next_attempt_at: string | null;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
}

/** Writes what the claimed attempt found; a pending delivery stays in the due index at its next time. */
export async function recordAttempt(claimed: DeliveryRecord, attempt: AttemptRecord): Promise<DeliveryRecord> {
  const due = attempt.outcome === 'pending' && attempt.next_attempt_at ? dueIndex(claimed, attempt.next_attempt_at) : undefined;
  const { Attributes } = await dynamo
    .send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.webhookDelivery(claimed.webhook_id, claimed.id),
        UpdateExpression:
          'SET outcome = :outcome, due_at = :due, last_attempt_at = :at, last_status_code = :code, last_error = :error' +
          (due ? ', GSI2PK = :duePk, GSI2SK = :dueSk REMOVE leased_until' : ' REMOVE leased_until, GSI2PK, GSI2SK'),
        // Only the attempt that claimed it records it.
        ConditionExpression: 'attempts = :attempts',
        ExpressionAttributeValues: {
          ':outcome': attempt.outcome,
          ':due': attempt.next_attempt_at,
          ':at': attempt.attempted_at,
          ':code': attempt.status_code,
          ':error': attempt.error,
          ':attempts': claimed.attempts,
          ...(due ? { ':duePk': due.GSI2PK, ':dueSk': due.GSI2SK } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    )
    .catch((error: unknown) => {
      // Only when the claim's lease ran out and another attempt took over: that one records.
      if (isConditionFailure(error)) throw new Conflict('Another attempt of this delivery took over meanwhile; read the delivery log');
      throw error;
    });
  return withoutKeys<DeliveryRecord>(Attributes as Record<string, unknown>);
}

/** Up to `limit` pending deliveries whose next attempt is due at `now`, the longest waiting first. */
export async function dueDeliveries(now: Date, limit: number): Promise<DeliveryRecord[]> {
  return dueOnGsi2<DeliveryRecord>(index.dueDeliveriesBefore(now.toISOString()), limit);
}

/** A page of a subscription's delivery log, newest first. */
export async function pageDeliveries(webhookId: string, page: PageRequest): Promise<Page<DeliveryRecord>> {
  return pageOfPartition<DeliveryRecord>(deliveriesOf(webhookId), page, { newestFirst: true });
}
