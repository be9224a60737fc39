/**
 * The patient's links to their appointment's page (issue #53, docs/patient-page.md): a token of 32 random bytes
 * of which only the SHA-256 is stored, in an item of its own naming the appointment it opens, the realm that
 * appointment is in, and the appointment's link generation it was issued in; and a counter per link and minute,
 * the link's rate limit. Revoking raises the generation on the appointment item, in the transaction that
 * writes the new link: every link of an older generation then opens nothing.
 *
 * Access patterns:
 * - issue a link ......................... TransactWrite: ConditionCheck APPT#<id> (generation as read) + Put PATIENT_LINK#<sha256(token)>
 * - issue a link, revoking the older ones  TransactWrite: Update APPT#<id> (generation + 1, as read) + Put PATIENT_LINK#<sha256(token)>
 * - what a token opens ................... GetItem PATIENT_LINK#<sha256(token)>
 * - count a link's request ............... UpdateItem PATIENT_LINK_RATE#<sha256(token)> / MINUTE#<minute>: ADD, expires with TTL
 * - take one of an appointment's changes .. UpdateItem PATIENT_LINK_CHANGES#<appointment id> / DAY#<day>: ADD if below the limit, expires with TTL
 * - give it back (the change failed) ..... UpdateItem the same: ADD -1; DeleteItem at 0
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { currentRealm, type Realm } from '../sandbox';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import { PATIENT_LINK_RATE_COUNT_ATTRIBUTE } from './keys';
import * as keys from './keys/items';
import { TTL_ATTRIBUTE } from './table';
import { named, transactWrite } from './transactions';

/** 32 random bytes, base64url: what a patient link carries. */
export const PATIENT_LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A link's item; the token itself is never stored. */
export interface PatientLinkRecord {
  /** A public id of the link, for the access log's reader (`patient_link:<id>`): never the token nor its hash. */
  link_id: string;
  appointment_id: string;
  realm: Realm;
  created_at: string;
  /** The appointment's link generation when it was issued: an older one than the appointment's opens nothing. */
  generation: number;
}

/** The appointment item's attribute that counts revocations (absent: 0). */
export const LINK_GENERATION = 'patient_link_generation';

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new link to `appointmentId`, whose generation was read as `generation`. With `revokePrevious` the
 * appointment's generation becomes one more in the same transaction, so every older link opens nothing from
 * the moment this one exists. Either way the write fails (TransactionCancelled, item `appointment`) when the
 * appointment is gone or its generation changed since it was read: the caller reads again.
 * The item expires (TTL) at `deleteAt`: after the link's own expiry, so it answers "expired" until then.
 */
export async function issuePatientLink(link: {
  appointmentId: string;
  generation: number;
  revokePrevious: boolean;
  at: Date;
  deleteAt: Date;
}): Promise<{ token: string; record: PatientLinkRecord }> {
  const token = randomBytes(32).toString('base64url');
  const generation = link.revokePrevious ? link.generation + 1 : link.generation;
  const record: PatientLinkRecord = {
    link_id: randomUUID(),
    appointment_id: link.appointmentId,
    realm: currentRealm(),
    created_at: link.at.toISOString(),
    generation,
  };
  const asRead = {
    ConditionExpression: `attribute_exists(PK) AND ${link.generation === 0 ? '(attribute_not_exists(#generation) OR #generation = :read)' : '#generation = :read'}`,
    ExpressionAttributeNames: { '#generation': LINK_GENERATION },
  };
  const appointment = link.revokePrevious
    ? {
        Update: {
          TableName: tableName,
          Key: keys.appointment(link.appointmentId),
          UpdateExpression: 'SET #generation = :next',
          ...asRead,
          ExpressionAttributeValues: { ':read': link.generation, ':next': generation },
        },
      }
    : {
        ConditionCheck: { TableName: tableName, Key: keys.appointment(link.appointmentId), ...asRead, ExpressionAttributeValues: { ':read': link.generation } },
      };
  await transactWrite([
    named('appointment', appointment),
    named('link', {
      Put: {
        TableName: tableName,
        Item: { ...keys.patientLink(tokenHash(token)), ...record, [TTL_ATTRIBUTE]: Math.floor(link.deleteAt.getTime() / 1000) },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    }),
  ]);
  return { token, record };
}

/** The link a token is; undefined for a token never issued, altered, or deleted by its TTL. */
export async function findPatientLink(hash: string): Promise<PatientLinkRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.patientLink(hash) }));
  if (typeof Item?.appointment_id !== 'string') return undefined;
  return {
    link_id: String(Item.link_id),
    appointment_id: Item.appointment_id,
    realm: Item.realm === 'sandbox' ? 'sandbox' : 'live',
    created_at: String(Item.created_at),
    generation: typeof Item.generation === 'number' ? Item.generation : 0,
  };
}

/**
 * Counts one request of a link in the minute `at` falls in, and answers the count so far (this one included).
 * The counter deletes itself (TTL) a few minutes later. Only an existing link's requests are counted (the
 * caller looks the link up first): an unknown token writes nothing.
 */
export async function countLinkRequest(hash: string, at: Date): Promise<number> {
  const minute = at.toISOString().slice(0, 16);
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.patientLinkRate(hash, minute),
      UpdateExpression: 'ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl)',
      // Only these attributes: the page's function may update no other of the item (infra/route-classes.ts LINK_REQUEST_COUNTERS).
      ExpressionAttributeNames: { '#count': PATIENT_LINK_RATE_COUNT_ATTRIBUTE, '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':one': 1, ':ttl': Math.floor(at.getTime() / 1000) + 300 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count: unknown = Attributes?.[PATIENT_LINK_RATE_COUNT_ATTRIBUTE];
  return typeof count === 'number' ? count : 1;
}

const DAY_S = 86_400;

/**
 * Takes one of the changes the appointment may have through its links on the UTC day `at` falls in: true when
 * fewer than `max` were taken that day (the count is then one more), false at the limit (nothing written).
 * The counter deletes itself (TTL) a day after its day ends. In the current realm: the appointment's.
 */
export async function takeLinkChange(appointmentId: string, at: Date, max: number): Promise<boolean> {
  const day = at.toISOString().slice(0, 10);
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.patientLinkChanges(appointmentId, day),
        UpdateExpression: 'ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
        ExpressionAttributeNames: { '#count': PATIENT_LINK_RATE_COUNT_ATTRIBUTE, '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':one': 1, ':max': max, ':ttl': Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 2 * DAY_S },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Gives back a change `takeLinkChange` took at `at` that did not happen (refused, or failed): the count one
 * less, and the item deleted when that leaves none, so that a refused change leaves the table as it was.
 */
export async function returnLinkChange(appointmentId: string, at: Date): Promise<void> {
  const key = keys.patientLinkChanges(appointmentId, at.toISOString().slice(0, 10));
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: 'ADD #count :minusOne',
      ConditionExpression: 'attribute_exists(#count)',
      ExpressionAttributeNames: { '#count': PATIENT_LINK_RATE_COUNT_ATTRIBUTE },
      ExpressionAttributeValues: { ':minusOne': -1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  if (Attributes?.[PATIENT_LINK_RATE_COUNT_ATTRIBUTE] === 0) {
    await dynamo
      .send(
        new DeleteCommand({
          TableName: tableName,
          Key: key,
          ConditionExpression: '#count = :zero',
          ExpressionAttributeNames: { '#count': PATIENT_LINK_RATE_COUNT_ATTRIBUTE },
          ExpressionAttributeValues: { ':zero': 0 },
        }),
      )
      // Taken again meanwhile: the item counts that change now.
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }
}
