/**
 * A lease: at most one holder at a time for a named job (the outbox relay, the webhook retry sweep), kept
 * in one table item, so that a scheduled run that overlaps the previous one does nothing instead of doing
 * the same work twice. This replaces reserved concurrency, which takes from the account's quota and made a
 * deploy fail on accounts below 100 + the reservations (docs/deploy.md "Deploy").
 *
 * Each step is one conditional UpdateItem (the rights both jobs' roles already have): take the lease when
 * nobody holds it, when its time is up, or when the same holder asks again; give it back only if still
 * ours. A holder that crashes keeps it until its time is up, which the caller sets past the end of its
 * invocation (Lambda stops it by then), so a lease can never outlive the run that holds it by more than a
 * margin, and never ends while that run still works. The item also carries the table's TTL attribute, a
 * day later, for DynamoDB to remove leases of jobs that no longer run.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import * as keys from './keys/items';
import { TTL_ATTRIBUTE } from './table';

const DAY_SECONDS = 86_400;

/** Takes the lease `name` for `holder` until `until`; false when another holder's lease runs still. */
export async function acquireLease(name: string, holder: string, now: Date, until: Date): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.lease(name),
        UpdateExpression: 'SET holder = :holder, held_until = :until, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(PK) OR held_until <= :now OR holder = :holder',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':holder': holder,
          ':until': until.getTime(),
          ':now': now.getTime(),
          ':ttl': Math.floor(until.getTime() / 1000) + DAY_SECONDS,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Gives the lease back, if `holder` still holds it: the next run need not wait for its time to be up. */
export async function releaseLease(name: string, holder: string): Promise<void> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.lease(name),
        UpdateExpression: 'SET held_until = :free',
        ConditionExpression: 'holder = :holder',
        ExpressionAttributeValues: { ':holder': holder, ':free': 0 },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Beyond the invocation's own end: the lease must not lapse while its run still works. */
export const LEASE_MARGIN_MS = 5_000;

/**
 * Runs `work` while holding the lease `name`, for at most `remainingMs` (the invocation's time left) plus
 * the margin; gives it back after. Returns undefined, without running `work`, when another run holds it.
 */
export async function whileHolding<T>(name: string, holder: string, remainingMs: number, work: () => Promise<T>): Promise<T | undefined> {
  const now = new Date();
  if (!(await acquireLease(name, holder, now, new Date(now.getTime() + remainingMs + LEASE_MARGIN_MS)))) return undefined;
  try {
    return await work();
  } finally {
    await releaseLease(name, holder);
  }
}
