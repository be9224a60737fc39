/**
 * The records behind `Idempotency-Key` (shared/http/idempotency.ts): one item per key, in a partition of its
 * own (`IDEMPOTENCY#<key hash>`), so that creates never queue behind one another on a single partition.
 *
 * A record is taken "in progress" by one conditional put, which also answers, when it fails, with the record
 * that stood in its way (ReturnValuesOnConditionCheckFailure): one round trip either way. It may be taken
 * when there is none, when it has expired (DynamoDB's TTL deletes late), or when the request that held it
 * ran past its deadline without finishing (its Lambda died). The record then holds the answer ("completed"),
 * or is deleted when the create failed, so that a corrected retry may create. Both only by the request
 * that took it: the take writes a token of its own, and the two writes are conditioned on it, so a request
 * that outlived its deadline (its record since taken by a retry) never overwrites or deletes the retry's.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { isConditionFailure, writtenIf } from './conditions';
import * as keys from './keys/items';
import { TTL_ATTRIBUTE } from './table';

type IdempotencyStatus = 'INPROGRESS' | 'COMPLETED';

/** What a record says to the request that could not take it. */
interface StandingRecord {
  status: IdempotencyStatus;
  /** The hash of the body of the request that took it. */
  payloadHash: string;
  /** The answer, as JSON, once completed. */
  answer?: string;
}

/**
 * Takes the record of `keyHash` for this request, under `holder` (a token of the request's own), or answers
 * the one that stands (in DynamoDB's own notation).
 */
export async function takeIdempotencyRecord(
  keyHash: string,
  payloadHash: string,
  holder: string,
  { nowMs, inProgressUntilMs, expiresAtSeconds }: { nowMs: number; inProgressUntilMs: number; expiresAtSeconds: number },
): Promise<{ taken: true } | { taken: false; record: StandingRecord }> {
  try {
    await dynamo.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.idempotencyRecord(keyHash),
          status: 'INPROGRESS',
          holder,
          payload_hash: payloadHash,
          in_progress_until: inProgressUntilMs,
          [TTL_ATTRIBUTE]: expiresAtSeconds,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR #expires < :nowSeconds OR (#status = :inProgress AND in_progress_until < :nowMs)',
        ExpressionAttributeNames: { '#expires': TTL_ATTRIBUTE, '#status': 'status' },
        ExpressionAttributeValues: { ':nowSeconds': Math.floor(nowMs / 1000), ':nowMs': nowMs, ':inProgress': 'INPROGRESS' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { taken: true };
  } catch (error) {
    if (!isConditionFailure(error) || !error.Item) throw error;
    const { status, payload_hash, answer } = error.Item;
    return { taken: false, record: { status: status?.S as IdempotencyStatus, payloadHash: payload_hash?.S ?? '', answer: answer?.S } };
  }
}

/** Keeps the answer of the request that holds the record, for its retries (a ConditionalCheckFailed when it no longer holds it). */
export async function completeIdempotencyRecord(keyHash: string, holder: string, answer: string): Promise<void> {
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.idempotencyRecord(keyHash),
      UpdateExpression: 'SET #status = :completed, answer = :answer REMOVE in_progress_until',
      ConditionExpression: 'holder = :holder',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':completed': 'COMPLETED', ':answer': answer, ':holder': holder },
    }),
  );
}

/** Lets the key go: the create failed, and a retry (corrected or not) may create. Only while this request holds it. */
export async function releaseIdempotencyRecord(keyHash: string, holder: string): Promise<void> {
  await writtenIf(
    dynamo.send(
      new DeleteCommand({
        TableName: tableName,
        Key: keys.idempotencyRecord(keyHash),
        ConditionExpression: 'holder = :holder',
        ExpressionAttributeValues: { ':holder': holder },
      }),
    ),
  );
}
