/**
 * Where a person can be reached by email (issue #52, docs/messages.md): the addresses that bounced or
 * complained, which no message goes to again, and the one-click unsubscribe links (RFC 8058) that withdraw a
 * profile's consent. An address is kept by its SHA-256 only, a token by its SHA-256 only: neither is in a key
 * or an item in clear.
 *
 * Access patterns:
 * - is an address suppressed ................. GetItem   EMAIL#<sha256(address)>
 * - suppress an address (bounce, complaint) .. UpdateItem EMAIL#<sha256(address)>, a complaint never downgraded
 * - issue an unsubscribe token ............... PutItem   UNSUBSCRIBE#<sha256(token)> → the profile
 * - the profile a token unsubscribes ......... GetItem   UNSUBSCRIBE#<sha256(token)>
 * - withdraw a profile's consent ............. UpdateItem PROFILE#<id>, condition: exists and not erased
 * - a profile's email_status ................. UpdateItem PROFILE#<id>, condition: exists and not erased
 */
import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { writtenIf } from './conditions';
import * as keys from './keys/items';
import { TTL_ATTRIBUTE } from './table';

export const EMAIL_STATUSES = ['ok', 'bounced', 'complained'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export type Suppression = Exclude<EmailStatus, 'ok'>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** An address as mail systems compare it: case-insensitively (in practice), without surrounding space. */
export const addressHash = (address: string) => sha256(address.trim().toLowerCase());

/** Why no message may go to `address` any more, if it bounced or complained. */
export async function suppressionOf(address: string): Promise<Suppression | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.emailAddress(addressHash(address)),
      ProjectionExpression: '#status',
      ExpressionAttributeNames: { '#status': 'status' },
    }),
  );
  return Item?.status as Suppression | undefined;
}

/** Marks an address bounced or complained; a complaint stays a complaint whatever bounces later. */
export async function suppressAddress(hash: string, status: Suppression, at: string): Promise<void> {
  await writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.emailAddress(hash),
        UpdateExpression: 'SET #status = :status, suppressed_at = :at',
        ConditionExpression: 'attribute_not_exists(#status) OR #status <> :complained',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':at': at, ':complained': 'complained' },
      }),
    ),
  );
}

/** Shows an address's fate on the profile that holds it; nothing for an erased or unknown profile. */
export async function setEmailStatus(profileId: string, status: EmailStatus, at: string): Promise<void> {
  await writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.profile(profileId),
        UpdateExpression: 'SET email_status = :status, updated_at = :at',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(erased_at)',
        ExpressionAttributeValues: { ':status': status, ':at': at },
      }),
    ),
  );
}

/** 32 random bytes, base64url: what an unsubscribe link carries. */
export const UNSUBSCRIBE_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** A link stays good for longer than any mail client keeps a message's headers in view. */
const TOKEN_DAYS = 400;

/** A new token unsubscribing `profileId`, for one message; only its hash is stored. */
export async function issueUnsubscribeToken(profileId: string, at: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.unsubscribeToken(sha256(token)),
        profile_id: profileId,
        created_at: at.toISOString(),
        [TTL_ATTRIBUTE]: Math.floor(at.getTime() / 1000) + TOKEN_DAYS * 86_400,
      },
    }),
  );
  return token;
}

/** The profile a token unsubscribes; undefined for a token never issued, altered or expired. */
export async function profileOfUnsubscribeToken(token: string): Promise<string | undefined> {
  if (!UNSUBSCRIBE_TOKEN.test(token)) return undefined;
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.unsubscribeToken(sha256(token)) }));
  return typeof Item?.profile_id === 'string' ? Item.profile_id : undefined;
}

/** transactional_emails_enabled = false: false when the profile is gone or erased (nothing to withdraw). */
export async function withdrawEmailConsent(profileId: string, at: string): Promise<boolean> {
  return writtenIf(
    dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.profile(profileId),
        UpdateExpression: 'SET transactional_emails_enabled = :false, updated_at = :at',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(erased_at)',
        ExpressionAttributeValues: { ':false': false, ':at': at },
      }),
    ),
  );
}
