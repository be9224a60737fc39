/**
 * A client's webhook subscriptions: create, change, delete, rotate the secret. A subscription belongs to
 * the key that made it; another key (even of the same tenant) gets 403 for it.
 */
import { randomUUID } from 'node:crypto';
import { type AccessContext, hasAnyScope } from '../auth/access';
import { config } from '../config';
import { MAX_SECRETS, SECRET_OVERLAP_MS, type WebhookStatus } from '../domain/webhook';
import { NotPermitted } from '../errors';
import { scopesToReceive, type WebhookEventType } from '../webhooks/event-types';
import { newWebhookSecret } from '../webhooks/secrets';
import { assertWebhookUrl } from '../webhooks/url-policy';
import { deleteWebhook, getWebhookOrThrow, insertWebhook, replaceWebhook, type WebhookRecord } from '../store/webhooks';
import type { Caller } from './request';

export function assertOwnWebhook(access: AccessContext, webhook: WebhookRecord): void {
  if (webhook.key_id !== access.keyId) throw new NotPermitted('This API key has no access to this webhook: a webhook belongs to the key that created it');
}

export async function ownWebhook(id: string, access: AccessContext): Promise<WebhookRecord> {
  const webhook = await getWebhookOrThrow(id);
  assertOwnWebhook(access, webhook);
  return webhook;
}

/** A key receives only what it could read itself: each event type needs the scope of its resource's GET. */
function assertMayReceive(access: AccessContext, types: readonly WebhookEventType[]): void {
  for (const type of types) {
    const scopes = scopesToReceive(type);
    if (!hasAnyScope(access, scopes))
      throw new NotPermitted(`This API key may not receive ${type}: it lacks the scope to read it (one of: ${scopes.join(', ')})`);
  }
}

export interface NewWebhook {
  url: string;
  event_types: WebhookEventType[];
  description?: string | null;
}

/** Answers the subscription and its signing secret, which no later answer shows again. */
export async function createWebhook(input: NewWebhook, { access, now }: Caller): Promise<{ webhook: WebhookRecord; secret: string }> {
  assertMayReceive(access, input.event_types);
  const url = await assertWebhookUrl(input.url, config.webhookUrlPolicy);
  const at = now.toISOString();
  const secret = newWebhookSecret();
  const webhook: WebhookRecord = {
    id: randomUUID(),
    key_id: access.keyId,
    url,
    event_types: [...new Set(input.event_types)],
    description: input.description ?? null,
    status: 'enabled',
    disabled_reason: null,
    created_at: at,
    updated_at: null,
    secrets: [{ secret, created_at: at, expires_at: null }],
    failed_deliveries: 0,
    version: 1,
  };
  await insertWebhook(webhook);
  return { webhook, secret };
}

export interface WebhookChanges {
  url?: string;
  event_types?: WebhookEventType[];
  description?: string | null;
  status?: WebhookStatus;
}

/** Enabling again clears the failure streak and the reason it was disabled. */
export async function updateWebhook(id: string, changes: WebhookChanges, { access, now }: Caller): Promise<WebhookRecord> {
  const before = await ownWebhook(id, access);
  if (changes.event_types) assertMayReceive(access, changes.event_types);
  const url = changes.url === undefined ? before.url : await assertWebhookUrl(changes.url, config.webhookUrlPolicy);
  const status = changes.status ?? before.status;
  const statusChanged = status !== before.status;
  const after: WebhookRecord = {
    ...before,
    url,
    event_types: changes.event_types ? [...new Set(changes.event_types)] : before.event_types,
    description: changes.description === undefined ? before.description : changes.description,
    status,
    disabled_reason: !statusChanged ? before.disabled_reason : status === 'disabled' ? 'disabled through the API' : null,
    failed_deliveries: statusChanged && status === 'enabled' ? 0 : before.failed_deliveries,
    updated_at: now.toISOString(),
    version: before.version + 1,
  };
  await replaceWebhook(before, after);
  return after;
}

export async function removeWebhook(id: string, { access }: Caller): Promise<void> {
  await deleteWebhook(await ownWebhook(id, access));
}

/**
 * A new current secret; the one it replaces keeps signing beside it for SECRET_OVERLAP_MS, so that a
 * client can deploy the new secret without missing a webhook. Answers the new secret, shown once.
 */
export async function rotateWebhookSecret(id: string, { access }: Caller): Promise<{ webhook: WebhookRecord; secret: string }> {
  const before = await ownWebhook(id, access);
  // The real clock, as signing uses: the overlap is a property of the transport, not of LAB_CLOCK's story.
  const now = new Date();
  const at = now.toISOString();
  const overlapEnds = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString();
  const secret = newWebhookSecret();
  const kept = before.secrets
    .map((old) => ({ ...old, expires_at: old.expires_at ?? overlapEnds }))
    .filter((old) => Date.parse(old.expires_at) > now.getTime())
    .slice(0, MAX_SECRETS - 1);
  const after: WebhookRecord = { ...before, secrets: [{ secret, created_at: at, expires_at: null }, ...kept], updated_at: at, version: before.version + 1 };
  await replaceWebhook(before, after);
  return { webhook: after, secret };
}
