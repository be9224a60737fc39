/**
 * The rows of the routes table (shared/routes.ts) for the one-click unsubscribe link of the patient emails
 * (issue #52, RFC 8058, docs/messages.md "Unsubscribe"). No API key: the token in the path is the credential,
 * and it opens nothing but this. `secretPath`: the logs name these routes by their template, never the path.
 */
import type { Route } from './route';

export const getUnsubscribePage = {
  name: 'getUnsubscribePage',
  method: 'GET',
  path: '/u/{token}',
  handler: 'functions/unsubscribe/page.ts',
  scopes: [],
  secretPath: true,
} as const satisfies Route;
export const unsubscribe = {
  name: 'unsubscribe',
  method: 'POST',
  path: '/u/{token}',
  handler: 'functions/unsubscribe/confirm.ts',
  scopes: [],
  secretPath: true,
} as const satisfies Route;
