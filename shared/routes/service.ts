/** The rows of the routes table (shared/routes.ts) for the service itself (health, the OpenAPI document, the docs). */
import type { Route } from './route';

export const health = { name: 'health', method: 'GET', path: '/health', handler: 'functions/health/get.ts', scopes: [] } as const satisfies Route;
// The API describes itself: its OpenAPI document and a docs page rendering it, both public.
export const getOpenApiDocument = {
  name: 'getOpenApiDocument',
  method: 'GET',
  path: '/api/v1/openapi.json',
  handler: 'functions/openapi/get.ts',
  scopes: [],
} as const satisfies Route;
export const getDocsPage = { name: 'getDocsPage', method: 'GET', path: '/docs', handler: 'functions/docs/page.ts', scopes: [] } as const satisfies Route;
export const getDocsAsset = {
  name: 'getDocsAsset',
  method: 'GET',
  path: '/docs/assets/{file}',
  handler: 'functions/docs/asset.ts',
  scopes: [],
} as const satisfies Route;
