/**
 * The messages sent to a person (issue #52, docs/messages.md): one item per message, keyed by the event it
 * answers and its type (a time-ordered id derived from both, domain/messages.ts), in a partition of the
 * profile's own. The item IS the claim that makes a message go once: whoever writes it first decides it.
 *
 * Access patterns:
 * - decide a message that is not sent (skipped, simulated, suppressed) ... PutItem, condition: not there yet
 * - claim a message for sending ........................................ PutItem, condition: not there yet, or
 *                                                                         pending and its claim expired (in doubt)
 * - record what SES answered ............................................ TransactWrite: Update the message (still
 *                                                                         ours) + Put SES#<ses message id>
 * - give a claim back (SES throttled: SQS tries again) .................. UpdateItem, condition: ours
 * - a bounce or complaint: which message ................................ GetItem SES#<ses message id>
 * - a profile's messages, newest first ................................... Query MESSAGES#<profile id> / MSG#…
 * - erase a profile's messages (docs/privacy.md) ......................... Query MESSAGES#<profile id>, then DeleteItem
 *                                                                         each message and its SES#<ses message id>
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageType } from '../email/content';
import { dynamo, tableName } from './client';
import { isConditionFailure, writtenIf } from './conditions';
import { type ItemKey, messagesOf } from './keys';
import * as keys from './keys/items';
import { type Page, type PageRequest, pageOfPartition } from './pages';
import { queryAll, withoutKeys } from './query';
import { named, transactWrite } from './transactions';
import { setAttributes } from './update-expression';

export const MESSAGE_STATUSES = [
  'pending',
  'sent',
  'failed',
  'bounced',
  'complained',
  'suppressed',
  'skipped_no_consent',
  'skipped_no_address',
  'simulated',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** The statuses decided without sending anything. */
export type UnsentStatus = Extract<MessageStatus, 'suppressed' | 'skipped_no_consent' | 'skipped_no_address' | 'simulated'>;

export interface MessageRecord {
  id: string;
  profile_id: string;
  type: MessageType;
  channel: 'email';
  status: MessageStatus;
  /** The subject as sent (or as it would have been: simulated); null when nothing was composed. */
  subject: string | null;
  created_at: string;
  sent_at: string | null;
  /** The event the message answers (for a reminder: the event that booked or moved the appointment). */
  event_id: string;
  appointment_id?: string;
  home_kit_order_id?: string;
  /** Why a message failed for good (SES's error name), never the address. */
  failure?: string;
  /** Until when (epoch ms) the claim of a pending message holds: a consumer that died mid-send leaves it to expire. */
  claimed_until?: number;
  attempts?: number;
  ses_message_id?: string;
}

/** What the list answers of a message: its bookkeeping (claim, attempts, SES's id) stays here. */
export type MessageEntry = Pick<MessageRecord, 'id' | 'type' | 'channel' | 'status' | 'subject' | 'created_at' | 'sent_at' | 'event_id'>;

/**
 * Records a message decided without sending: false when it was decided before (a redelivered event). A
 * pending message whose claim expired (its send failed, and consent was withdrawn or the address suppressed
 * before the retry) is decided so too, rather than left pending.
 */
export async function recordUnsent(message: MessageRecord & { status: UnsentStatus }, now: Date): Promise<boolean> {
  return writtenIf(
    dynamo.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.message(message.profile_id, message.id), ...message },
        ConditionExpression: 'attribute_not_exists(PK) OR (#status = :pending AND claimed_until <= :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending', ':now': now.getTime() },
      }),
    ),
  );
}

export type Claim = { kind: 'claimed'; attempts: number } | { kind: 'decided'; status: MessageStatus } | { kind: 'in-flight' };

/**
 * Claims a message for sending until `until`: written as pending when nobody decided it yet, or taken over
 * when it is pending and its last claim has expired — a sender that died after SES took the message and
 * before this item said so, or one that gave it back after a throttle. Answers who has it otherwise.
 */
export async function claimToSend(message: MessageRecord, now: Date, until: Date): Promise<Claim> {
  const { id: _id, profile_id: _profile, attempts: _attempts, ...fields } = message;
  const set = setAttributes({ ...fields, status: 'pending', claimed_until: until.getTime() });
  try {
    // One UpdateItem: it writes the message, or takes over an expired claim, and counts the attempt.
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.message(message.profile_id, message.id),
        UpdateExpression: `${set.UpdateExpression}, id = :id, profile_id = :profile, attempts = if_not_exists(attempts, :zero) + :one`,
        ConditionExpression: 'attribute_not_exists(PK) OR (#status = :pending AND claimed_until <= :now)',
        ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#status': 'status' },
        ExpressionAttributeValues: {
          ...set.ExpressionAttributeValues,
          ':id': message.id,
          ':profile': message.profile_id,
          ':zero': 0,
          ':one': 1,
          ':pending': 'pending',
          ':now': now.getTime(),
        },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { kind: 'claimed', attempts: Number(Attributes?.attempts ?? 1) };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const status = error.Item?.status?.S as MessageStatus | undefined;
    return status === 'pending' ? { kind: 'in-flight' } : { kind: 'decided', status: status ?? 'pending' };
  }
}

const stillPending = { ConditionExpression: '#status = :pending', names: { '#status': 'status' }, values: { ':pending': 'pending' } };

/**
 * SES took the message: the message is sent, with its subject, and SES's id points back to it (what a bounce
 * or complaint names) — one transaction, so neither is written without the other.
 */
export async function markSent(message: MessageRecord, sent: { subject: string; sesMessageId: string; at: string; addressHash: string }): Promise<void> {
  await transactWrite([
    named('message', {
      Update: {
        TableName: tableName,
        Key: keys.message(message.profile_id, message.id),
        UpdateExpression: 'SET #status = :sent, subject = :subject, sent_at = :at, ses_message_id = :ses REMOVE claimed_until',
        ConditionExpression: stillPending.ConditionExpression,
        ExpressionAttributeNames: stillPending.names,
        ExpressionAttributeValues: { ...stillPending.values, ':sent': 'sent', ':subject': sent.subject, ':at': sent.at, ':ses': sent.sesMessageId },
      },
    }),
    named('ses', {
      Put: {
        TableName: tableName,
        Item: {
          ...keys.sentEmail(sent.sesMessageId),
          message_key: keys.message(message.profile_id, message.id),
          profile_id: message.profile_id,
          address_hash: sent.addressHash,
        },
      },
    }),
  ]);
}

/** SES refused the message for good (its error's name, never the address): failed, not tried again. */
export async function markFailed(message: MessageRecord, failure: string, subject: string | null): Promise<void> {
  await writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.message(message.profile_id, message.id),
        UpdateExpression: 'SET #status = :failed, failure = :failure, subject = :subject REMOVE claimed_until',
        ConditionExpression: stillPending.ConditionExpression,
        ExpressionAttributeNames: stillPending.names,
        ExpressionAttributeValues: { ...stillPending.values, ':failed': 'failed', ':failure': failure, ':subject': subject },
      }),
    ),
  );
}

/** SES did not take it (throttled, unavailable): the claim ends now, so the queue's next receive sends it. */
export async function releaseClaim(message: MessageRecord): Promise<void> {
  await writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.message(message.profile_id, message.id),
        UpdateExpression: 'SET claimed_until = :zero',
        ConditionExpression: stillPending.ConditionExpression,
        ExpressionAttributeNames: stillPending.names,
        ExpressionAttributeValues: { ...stillPending.values, ':zero': 0 },
      }),
    ),
  );
}

export interface SentEmail {
  message_key: ItemKey;
  profile_id: string;
  address_hash: string;
}

/** Which message SES's id names; undefined for a message that is not ours (or whose profile was erased since). */
export async function getSentEmail(sesMessageId: string): Promise<SentEmail | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.sentEmail(sesMessageId) }));
  return Item ? withoutKeys<SentEmail>(Item) : undefined;
}

/** A sent message bounced or was complained about: what the list shows of it. */
export async function markFeedback(messageKey: ItemKey, status: 'bounced' | 'complained'): Promise<void> {
  await writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: messageKey,
        UpdateExpression: 'SET #status = :status',
        // A complaint outranks a bounce; an erased profile's messages are gone and stay gone.
        ConditionExpression: 'attribute_exists(PK) AND #status <> :complained',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':complained': 'complained' },
      }),
    ),
  );
}

/** A page of a profile's messages, newest first. */
export async function pageMessages(profileId: string, page: PageRequest): Promise<Page<MessageRecord>> {
  return pageOfPartition<MessageRecord>(messagesOf(profileId), page, { newestFirst: true });
}

/**
 * Deletes every message of a profile and the SES#<id> item that points back to each sent one (it holds the
 * profile id and the address's hash): the erasure's (docs/privacy.md). Idempotent: a retry deletes what is left.
 * Answers how many messages it deleted.
 */
export async function deleteMessagesOf(profileId: string): Promise<number> {
  const { PK, skPrefix } = messagesOf(profileId);
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': PK, ':prefix': skPrefix },
    ProjectionExpression: 'PK, SK, ses_message_id',
    ConsistentRead: true,
  });
  for (const item of items) {
    // The pointer first: a retry after a failure between the two still finds the message, and so the pointer.
    if (typeof item.ses_message_id === 'string') await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.sentEmail(item.ses_message_id) }));
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: { PK: item.PK, SK: item.SK } }));
  }
  return items.length;
}
