/** The rows of the routes table (shared/routes.ts) for locations and the test catalog. */
import type { Scope } from '../domain/scopes';
import type { Route } from './route';

const CATALOG_READERS: readonly Scope[] = ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE', 'home_kit_orders_manage', 'RESULTS_VIEW'];

export const listLocations = {
  name: 'listLocations',
  method: 'GET',
  path: '/api/v1/locations',
  handler: 'functions/locations/list.ts',
  scopes: ['LOCATIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
export const getLocation = {
  name: 'getLocation',
  method: 'GET',
  path: '/api/v1/locations/{id}',
  handler: 'functions/locations/get.ts',
  scopes: ['LOCATIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
// Not in the spec (issue #28): a location's schedule managed by the clinic, and its free slots.
export const updateLocation = {
  name: 'updateLocation',
  method: 'PATCH',
  path: '/api/v1/locations/{id}',
  handler: 'functions/locations/update.ts',
  scopes: ['LOCATIONS_MANAGE'],
} as const satisfies Route;
export const getLocationAvailability = {
  name: 'getLocationAvailability',
  method: 'GET',
  path: '/api/v1/locations/{id}/availability',
  handler: 'functions/locations/availability.ts',
  scopes: ['LOCATIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
export const listPanels = {
  name: 'listPanels',
  method: 'GET',
  path: '/api/v1/panels',
  handler: 'functions/panels/list.ts',
  scopes: CATALOG_READERS,
} as const satisfies Route;
export const listBiomarkers = {
  name: 'listBiomarkers',
  method: 'GET',
  path: '/api/v1/biomarkers',
  handler: 'functions/biomarkers/list.ts',
  scopes: CATALOG_READERS,
} as const satisfies Route;
