/** The rows of the routes table (shared/routes.ts) for profiles. */
import type { Route } from './route';

export const createProfile = {
  name: 'createProfile',
  method: 'POST',
  path: '/api/v1/profiles',
  handler: 'functions/profiles/create.ts',
  scopes: ['CREATE_USER'],
} as const satisfies Route;
export const getProfile = {
  name: 'getProfile',
  method: 'GET',
  path: '/api/v1/profiles/{id}',
  handler: 'functions/profiles/get.ts',
  scopes: ['PROFILES_VIEW', 'IMPERSONATE'],
} as const satisfies Route;
export const updateProfile = {
  name: 'updateProfile',
  method: 'PATCH',
  path: '/api/v1/profiles/{id}',
  handler: 'functions/profiles/update.ts',
  scopes: ['CREATE_USER'],
} as const satisfies Route;
// Not in the spec: erasure of a person's identifiers (docs/privacy.md "Privacy").
export const eraseProfile = {
  name: 'eraseProfile',
  method: 'POST',
  path: '/api/v1/profiles/{id}/erase',
  handler: 'functions/profiles/erase.ts',
  scopes: ['PROFILES_ERASE'],
} as const satisfies Route;
// Not in the spec: everything held about a person, as one document (docs/privacy.md "Privacy"); it holds their
// results, so it needs both scopes.
export const exportProfile = {
  name: 'exportProfile',
  method: 'GET',
  path: '/api/v1/profiles/{id}/export',
  handler: 'functions/profiles/export.ts',
  scopes: ['PROFILES_VIEW', 'RESULTS_VIEW'],
  allScopes: true,
} as const satisfies Route;
// Not in the spec: who read a person's data (docs/privacy.md "Privacy").
export const listProfileAccessLog = {
  name: 'listProfileAccessLog',
  method: 'GET',
  path: '/api/v1/profiles/{id}/access-log',
  handler: 'functions/profiles/access-log.ts',
  scopes: ['AUDIT_VIEW'],
} as const satisfies Route;
// Not in the spec: the emails sent to a person, or why none was (issue #52, docs/messages.md).
export const listProfileMessages = {
  name: 'listProfileMessages',
  method: 'GET',
  path: '/api/v1/profiles/{id}/messages',
  handler: 'functions/profiles/messages.ts',
  scopes: ['PROFILES_VIEW'],
} as const satisfies Route;
