/** The rows of the routes table (shared/routes.ts) for webhooks and the event log. */
import type { Scope } from '../domain/scopes';
import type { Route } from './route';

const WEBHOOKS: readonly Scope[] = ['WEBHOOKS_MANAGE'];

// Ours: a client's webhook subscriptions (docs/events-and-webhooks.md "Webhooks").
export const createWebhook = {
  name: 'createWebhook',
  method: 'POST',
  path: '/api/v1/webhooks',
  handler: 'functions/webhooks/create.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
export const listWebhooks = {
  name: 'listWebhooks',
  method: 'GET',
  path: '/api/v1/webhooks',
  handler: 'functions/webhooks/list.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
export const getWebhook = {
  name: 'getWebhook',
  method: 'GET',
  path: '/api/v1/webhooks/{id}',
  handler: 'functions/webhooks/get.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
export const updateWebhook = {
  name: 'updateWebhook',
  method: 'PATCH',
  path: '/api/v1/webhooks/{id}',
  handler: 'functions/webhooks/update.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
export const deleteWebhook = {
  name: 'deleteWebhook',
  method: 'DELETE',
  path: '/api/v1/webhooks/{id}',
  handler: 'functions/webhooks/delete.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
export const rotateWebhookSecret = {
  name: 'rotateWebhookSecret',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/rotate-secret',
  handler: 'functions/webhooks/rotate-secret.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
export const sendTestWebhook = {
  name: 'sendTestWebhook',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/test',
  handler: 'functions/webhooks/test.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
export const listWebhookDeliveries = {
  name: 'listWebhookDeliveries',
  method: 'GET',
  path: '/api/v1/webhooks/{id}/deliveries',
  handler: 'functions/webhooks/list-deliveries.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
export const retryWebhookDelivery = {
  name: 'retryWebhookDelivery',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry',
  handler: 'functions/webhooks/retry-delivery.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
// Ours (issue #32): the events a key could receive by webhook, to reconcile from (docs/events-and-webhooks.md "Event log").
// Any key that may receive some event type; which ones it sees is decided per event.
export const listEvents = {
  name: 'listEvents',
  method: 'GET',
  path: '/api/v1/events',
  handler: 'functions/event-log/list.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
export const getEvent = {
  name: 'getEvent',
  method: 'GET',
  path: '/api/v1/events/{id}',
  handler: 'functions/event-log/get.ts',
  scopes: WEBHOOKS,
} as const satisfies Route;
