/**
 * Webhook subscriptions. A subscription belongs to the API key that made it; its signing secrets are
 * stored here because the dispatcher must sign with them (DynamoDB encrypts them at rest; no answer but
 * the create and the rotation ever shows one, and nothing logs them).
 *
 * Access patterns:
 * - one subscription .......................... GetItem  WEBHOOK#<id> / WEBHOOK
 * - a key's subscriptions ..................... Query    GSI1 KEYID#<key id>#WEBHOOKS
 * - the subscriptions of an event type ........ Query    WEBHOOK_ROUTE#<type>  (one item per type wanted)
 * - at most 10 per key ........................ a counter KEYID#<key id> / WEBHOOK_COUNT, in the create's
 *                                               and the delete's transaction
 * Every change is conditional on the version it was decided from, so concurrent changes never mix.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DISABLE_AFTER_FAILED_DELIVERIES, MAX_WEBHOOKS_PER_KEY, type WebhookStatus } from '../domain/webhook';
import { Conflict, NotFound } from '../errors';
import { batchGetAll, listByIndexPrefix, queryAll, withoutKeys } from './query';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import { webhookRoutesOf } from './keys';
import * as keys from './keys/items';
import * as index from './keys/index-entries';
import { named, type NamedItem, TransactionCancelled, transactWrite } from './transactions';

export interface WebhookSecret {
  secret: string;
  created_at: string;
  /** null for the current secret; a rotated-out one signs until then. */
  expires_at: string | null;
}

export interface WebhookRecord {
  id: string;
  key_id: string;
  url: string;
  event_types: string[];
  description: string | null;
  status: WebhookStatus;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string | null;
  /** Newest first; the first is the current one. */
  secrets: WebhookSecret[];
  /** Deliveries that failed in a row since the last one accepted. */
  failed_deliveries: number;
  version: number;
}

export const WEBHOOK_NOT_FOUND = 'webhook not found';
const CHANGED_MEANWHILE = 'the webhook was changed by a concurrent request meanwhile; read it and retry';

const toRecord = (item: Record<string, unknown>) => withoutKeys<WebhookRecord>(item);

export async function getWebhook(id: string): Promise<WebhookRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.webhook(id), ConsistentRead: true }));
  return Item ? toRecord(Item) : undefined;
}

export async function getWebhookOrThrow(id: string): Promise<WebhookRecord> {
  const webhook = await getWebhook(id);
  if (!webhook) throw new NotFound(WEBHOOK_NOT_FOUND);
  return webhook;
}

export async function getWebhooks(ids: string[]): Promise<WebhookRecord[]> {
  return (await batchGetAll(ids.map(keys.webhook))).map(toRecord);
}

export async function listWebhooksOfKey(keyId: string): Promise<WebhookRecord[]> {
  return listByIndexPrefix<WebhookRecord>(index.webhooksOfKey(keyId));
}

/** The subscriptions that want an event type: their ids and the keys that own them. */
export async function webhooksFor(eventType: string): Promise<{ webhook_id: string; key_id: string }[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': webhookRoutesOf(eventType) },
  });
  return items.map((item) => ({ webhook_id: item.webhook_id as string, key_id: item.key_id as string }));
}

const routePut = (webhook: WebhookRecord, type: string): NamedItem =>
  named('route', { Put: { TableName: tableName, Item: { ...keys.webhookRoute(type, webhook.id), webhook_id: webhook.id, key_id: webhook.key_id } } });
const routeDelete = (webhookId: string, type: string): NamedItem =>
  named('route', { Delete: { TableName: tableName, Key: keys.webhookRoute(type, webhookId) } });

const webhookItem = (webhook: WebhookRecord) => ({
  ...keys.webhook(webhook.id),
  ...index.webhookOfKey(webhook.key_id, webhook.created_at, webhook.id),
  ...webhook,
});

/** Stores a new subscription; 409 when its key already has MAX_WEBHOOKS_PER_KEY. */
export async function insertWebhook(webhook: WebhookRecord): Promise<void> {
  try {
    await transactWrite([
      named('webhook', { Put: { TableName: tableName, Item: webhookItem(webhook), ConditionExpression: 'attribute_not_exists(PK)' } }),
      ...webhook.event_types.map((type) => routePut(webhook, type)),
      named('count', {
        Update: {
          TableName: tableName,
          Key: keys.webhookCount(webhook.key_id),
          UpdateExpression: 'ADD subscriptions :one',
          ConditionExpression: 'attribute_not_exists(subscriptions) OR subscriptions < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOKS_PER_KEY },
        },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.failed('count')) {
      throw new Conflict(`This API key already has ${MAX_WEBHOOKS_PER_KEY} webhook subscriptions, the most it may have; delete one first`);
    }
    throw error;
  }
}

/**
 * Replaces a subscription by its changed version (`after.version` = `before.version` + 1), adding and
 * removing its event-type routes as its types change.
 */
export async function replaceWebhook(before: WebhookRecord, after: WebhookRecord): Promise<void> {
  const added = after.event_types.filter((type) => !before.event_types.includes(type));
  const removed = before.event_types.filter((type) => !after.event_types.includes(type));
  try {
    await transactWrite([
      named('webhook', {
        Put: {
          TableName: tableName,
          Item: webhookItem(after),
          ConditionExpression: 'attribute_exists(PK) AND version = :version',
          ExpressionAttributeValues: { ':version': before.version },
        },
      }),
      ...added.map((type) => routePut(after, type)),
      ...removed.map((type) => routeDelete(after.id, type)),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.failed('webhook')) throw new Conflict(CHANGED_MEANWHILE);
    throw error;
  }
}

/** Deletes a subscription, its routes, and its place in the key's count. Its delivery log expires by itself. */
export async function deleteWebhook(webhook: WebhookRecord): Promise<void> {
  try {
    await transactWrite([
      named('webhook', {
        Delete: {
          TableName: tableName,
          Key: keys.webhook(webhook.id),
          ConditionExpression: 'attribute_exists(PK) AND version = :version',
          ExpressionAttributeValues: { ':version': webhook.version },
        },
      }),
      ...webhook.event_types.map((type) => routeDelete(webhook.id, type)),
      named('count', {
        Update: {
          TableName: tableName,
          Key: keys.webhookCount(webhook.key_id),
          UpdateExpression: 'ADD subscriptions :minusOne',
          ConditionExpression: 'subscriptions > :zero',
          ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
        },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.failed('webhook')) throw new Conflict(CHANGED_MEANWHILE);
    throw error;
  }
}

/**
 * After a delivery ends: an accepted one clears the failure streak; a failed one extends it, and the
 * DISABLE_AFTER_FAILED_DELIVERIES-th in a row disables the subscription, saying why. One UpdateItem each,
 * without the version: the count changes from concurrent deliveries must all add up.
 */
export async function recordDeliveryEnd(webhookId: string, accepted: boolean, at: string): Promise<'disabled' | undefined> {
  if (accepted) {
    await dynamo
      .send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.webhook(webhookId),
          UpdateExpression: 'SET failed_deliveries = :zero, version = version + :one',
          ConditionExpression: 'attribute_exists(PK) AND failed_deliveries > :zero',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        }),
      )
      .catch(ignoreConditionFailure);
    return undefined;
  }
  await dynamo
    .send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.webhook(webhookId),
        // `version` moves so that a PATCH decided before this write conflicts instead of undoing it.
        UpdateExpression: 'SET failed_deliveries = failed_deliveries + :one, version = version + :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    )
    .catch(ignoreConditionFailure);
  const disabled = await dynamo
    .send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.webhook(webhookId),
        UpdateExpression: 'SET #status = :disabled, disabled_reason = :reason, version = version + :one, updated_at = :at',
        ConditionExpression: 'attribute_exists(PK) AND #status = :enabled AND failed_deliveries >= :limit',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':disabled': 'disabled',
          ':enabled': 'enabled',
          ':one': 1,
          ':at': at,
          ':limit': DISABLE_AFTER_FAILED_DELIVERIES,
          ':reason': `${DISABLE_AFTER_FAILED_DELIVERIES} deliveries in a row failed after every retry; fix the endpoint, then PATCH status enabled`,
        },
      }),
    )
    .then(() => true)
    .catch((error: unknown) => {
      ignoreConditionFailure(error);
      return false;
    });
  return disabled ? 'disabled' : undefined;
}

function ignoreConditionFailure(error: unknown): void {
  if (!isConditionFailure(error)) throw error;
}
