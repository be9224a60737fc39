/**
 * THE table of endpoints. The local server, the CDK stack and the OpenAPI document are generated from it;
 * nothing else lists routes. A new endpoint is one row here, one handler file, one schema, tests.
 *
 * scopes: any one of them suffices (the spec's "or"), unless `allScopes` says every one is needed (a
 * person's export holds their profile and their results). An empty list means the route needs no API key.
 * handler: the module (relative to the repository root) whose `handler` export the Lambda runs.
 */
import type { Scope } from './domain/scopes';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  readonly method: HttpMethod;
  readonly path: string;
  readonly handler: string;
  readonly scopes: readonly Scope[];
  /** Every scope of `scopes` is needed, not one of them. */
  readonly allScopes?: true;
}

const CATALOG_READERS: readonly Scope[] = ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE', 'home_kit_orders_manage', 'RESULTS_VIEW'];

const KIT: readonly Scope[] = ['home_kit_orders_manage'];
const WEBHOOKS: readonly Scope[] = ['WEBHOOKS_MANAGE'];

export const routes = {
  health: { method: 'GET', path: '/health', handler: 'functions/health/get.ts', scopes: [] },
  // The API describes itself: its OpenAPI document and a docs page rendering it, both public.
  getOpenApiDocument: { method: 'GET', path: '/api/v1/openapi.json', handler: 'functions/openapi/get.ts', scopes: [] },
  getDocsPage: { method: 'GET', path: '/docs', handler: 'functions/docs/page.ts', scopes: [] },
  getDocsAsset: { method: 'GET', path: '/docs/assets/{file}', handler: 'functions/docs/asset.ts', scopes: [] },

  createProfile: { method: 'POST', path: '/api/v1/profiles', handler: 'functions/profiles/create.ts', scopes: ['CREATE_USER'] },
  getProfile: { method: 'GET', path: '/api/v1/profiles/{id}', handler: 'functions/profiles/get.ts', scopes: ['PROFILES_VIEW', 'IMPERSONATE'] },
  updateProfile: { method: 'PATCH', path: '/api/v1/profiles/{id}', handler: 'functions/profiles/update.ts', scopes: ['CREATE_USER'] },
  // Not in the spec: erasure of a person's identifiers (docs/privacy.md "Privacy").
  eraseProfile: { method: 'POST', path: '/api/v1/profiles/{id}/erase', handler: 'functions/profiles/erase.ts', scopes: ['PROFILES_ERASE'] },
  // Not in the spec: everything held about a person, as one document (docs/privacy.md "Privacy"); it holds their
  // results, so it needs both scopes.
  exportProfile: {
    method: 'GET',
    path: '/api/v1/profiles/{id}/export',
    handler: 'functions/profiles/export.ts',
    scopes: ['PROFILES_VIEW', 'RESULTS_VIEW'],
    allScopes: true,
  },

  listLocations: { method: 'GET', path: '/api/v1/locations', handler: 'functions/locations/list.ts', scopes: ['LOCATIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'] },
  getLocation: { method: 'GET', path: '/api/v1/locations/{id}', handler: 'functions/locations/get.ts', scopes: ['LOCATIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'] },
  // Not in the spec (issue #28): a location's schedule managed by the clinic, and its free slots.
  updateLocation: { method: 'PATCH', path: '/api/v1/locations/{id}', handler: 'functions/locations/update.ts', scopes: ['LOCATIONS_MANAGE'] },
  getLocationAvailability: {
    method: 'GET',
    path: '/api/v1/locations/{id}/availability',
    handler: 'functions/locations/availability.ts',
    scopes: ['LOCATIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
  },

  listPanels: { method: 'GET', path: '/api/v1/panels', handler: 'functions/panels/list.ts', scopes: CATALOG_READERS },
  listBiomarkers: { method: 'GET', path: '/api/v1/biomarkers', handler: 'functions/biomarkers/list.ts', scopes: CATALOG_READERS },

  createAppointment: { method: 'POST', path: '/api/v1/appointments', handler: 'functions/appointments/create.ts', scopes: ['TEST_SESSIONS_SCHEDULE'] },
  getAppointment: {
    method: 'GET',
    path: '/api/v1/appointments/{id}',
    handler: 'functions/appointments/get.ts',
    scopes: ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
  },
  updateAppointment: { method: 'PATCH', path: '/api/v1/appointments/{id}', handler: 'functions/appointments/update.ts', scopes: ['TEST_SESSIONS_SCHEDULE'] },
  attachAppointmentPanels: {
    method: 'POST',
    path: '/api/v1/appointments/{id}/panels',
    handler: 'functions/appointments/attach-panels.ts',
    scopes: ['TEST_SESSIONS_SCHEDULE'],
  },
  attachAppointmentBiomarkers: {
    method: 'POST',
    path: '/api/v1/appointments/{id}/biomarkers',
    handler: 'functions/appointments/attach-biomarkers.ts',
    scopes: ['TEST_SESSIONS_SCHEDULE'],
  },
  confirmAppointment: {
    method: 'POST',
    path: '/api/v1/appointments/{id}/confirm',
    handler: 'functions/appointments/confirm.ts',
    scopes: ['TEST_SESSIONS_SCHEDULE'],
  },
  cancelAppointment: {
    method: 'POST',
    path: '/api/v1/appointments/{id}/cancel',
    handler: 'functions/appointments/cancel.ts',
    scopes: ['TEST_SESSIONS_SCHEDULE', 'TEST_SESSIONS_MANAGE'],
  },
  pickupAppointments: {
    method: 'POST',
    path: '/api/v1/appointments/pickup',
    handler: 'functions/appointments/pickup.ts',
    scopes: ['TEST_SESSIONS_OPERATE', 'TEST_SESSIONS_MANAGE'],
  },
  listProfileAppointments: {
    method: 'GET',
    path: '/api/v1/profiles/{id}/appointments',
    handler: 'functions/profiles/list-appointments.ts',
    scopes: ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
  },
  // Status histories (beyond the spec): the resource's view scopes.
  listAppointmentHistory: {
    method: 'GET',
    path: '/api/v1/appointments/{id}/history',
    handler: 'functions/appointments/history.ts',
    scopes: ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
  },

  getAppointmentResults: { method: 'GET', path: '/api/v1/appointments/{id}/results', handler: 'functions/results/get.ts', scopes: ['RESULTS_VIEW'] },
  // Ours (issue #29): a clinician saw the critical values.
  acknowledgeAppointmentResults: {
    method: 'POST',
    path: '/api/v1/appointments/{id}/results/acknowledge',
    handler: 'functions/results/acknowledge.ts',
    scopes: ['RESULTS_VIEW'],
  },
  // Ours (issue #29): every version of every result, the values corrections replaced included.
  getAppointmentResultsHistory: {
    method: 'GET',
    path: '/api/v1/appointments/{id}/results/history',
    handler: 'functions/results/history.ts',
    scopes: ['RESULTS_VIEW'],
  },
  // Ours: the results as a FHIR R4 Bundle (docs/results.md "Results and documents").
  getAppointmentResultsFhir: { method: 'GET', path: '/api/v1/appointments/{id}/results/fhir', handler: 'functions/results/fhir.ts', scopes: ['RESULTS_VIEW'] },
  // Ours: the results as a PDF rendered by the service (docs/results.md "Results and documents").
  getAppointmentResultsReport: {
    method: 'GET',
    path: '/api/v1/appointments/{id}/results/report',
    handler: 'functions/results/report.ts',
    scopes: ['RESULTS_VIEW'],
  },
  getDocument: { method: 'GET', path: '/api/v1/documents/{id}', handler: 'functions/documents/get.ts', scopes: ['RESULTS_VIEW'] },

  createShipment: { method: 'POST', path: '/api/v1/shipments', handler: 'functions/shipments/create.ts', scopes: ['SHIPMENTS_MANAGE'] },
  listShipments: { method: 'GET', path: '/api/v1/shipments', handler: 'functions/shipments/list.ts', scopes: ['SHIPMENTS_MANAGE'] },
  getShipment: { method: 'GET', path: '/api/v1/shipments/{id}', handler: 'functions/shipments/get.ts', scopes: ['SHIPMENTS_MANAGE'] },
  updateShipment: { method: 'PATCH', path: '/api/v1/shipments/{id}', handler: 'functions/shipments/update.ts', scopes: ['SHIPMENTS_MANAGE'] },
  cancelShipment: { method: 'DELETE', path: '/api/v1/shipments/{id}', handler: 'functions/shipments/cancel.ts', scopes: ['SHIPMENTS_MANAGE'] },
  listShipmentHistory: { method: 'GET', path: '/api/v1/shipments/{id}/history', handler: 'functions/shipments/history.ts', scopes: ['SHIPMENTS_MANAGE'] },
  updateShipmentStatus: { method: 'POST', path: '/api/v1/shipments/{id}/status', handler: 'functions/shipments/status.ts', scopes: ['SHIPMENTS_TRACK'] },

  createHomeKitOrder: { method: 'POST', path: '/api/v1/home-kit-orders', handler: 'functions/home-kit-orders/create.ts', scopes: KIT },
  getHomeKitOrder: { method: 'GET', path: '/api/v1/home-kit-orders/{id}', handler: 'functions/home-kit-orders/get.ts', scopes: KIT },
  cancelHomeKitOrder: { method: 'DELETE', path: '/api/v1/home-kit-orders/{id}', handler: 'functions/home-kit-orders/cancel.ts', scopes: KIT },
  attachHomeKitOrderPanels: { method: 'POST', path: '/api/v1/home-kit-orders/{id}/panels', handler: 'functions/home-kit-orders/attach-panels.ts', scopes: KIT },
  attachHomeKitOrderBiomarkers: {
    method: 'POST',
    path: '/api/v1/home-kit-orders/{id}/biomarkers',
    handler: 'functions/home-kit-orders/attach-biomarkers.ts',
    scopes: KIT,
  },
  dispatchHomeKitOrder: { method: 'POST', path: '/api/v1/home-kit-orders/{id}/dispatch', handler: 'functions/home-kit-orders/dispatch.ts', scopes: KIT },
  activateHomeKitOrder: { method: 'POST', path: '/api/v1/home-kit-orders/{id}/activate', handler: 'functions/home-kit-orders/activate.ts', scopes: KIT },
  listHomeKitOrderHistory: { method: 'GET', path: '/api/v1/home-kit-orders/{id}/history', handler: 'functions/home-kit-orders/history.ts', scopes: KIT },

  // Ours: a client's webhook subscriptions (docs/events-and-webhooks.md "Webhooks").
  createWebhook: { method: 'POST', path: '/api/v1/webhooks', handler: 'functions/webhooks/create.ts', scopes: WEBHOOKS },
  listWebhooks: { method: 'GET', path: '/api/v1/webhooks', handler: 'functions/webhooks/list.ts', scopes: WEBHOOKS },
  getWebhook: { method: 'GET', path: '/api/v1/webhooks/{id}', handler: 'functions/webhooks/get.ts', scopes: WEBHOOKS },
  updateWebhook: { method: 'PATCH', path: '/api/v1/webhooks/{id}', handler: 'functions/webhooks/update.ts', scopes: WEBHOOKS },
  deleteWebhook: { method: 'DELETE', path: '/api/v1/webhooks/{id}', handler: 'functions/webhooks/delete.ts', scopes: WEBHOOKS },
  rotateWebhookSecret: { method: 'POST', path: '/api/v1/webhooks/{id}/rotate-secret', handler: 'functions/webhooks/rotate-secret.ts', scopes: WEBHOOKS },
  sendTestWebhook: { method: 'POST', path: '/api/v1/webhooks/{id}/test', handler: 'functions/webhooks/test.ts', scopes: WEBHOOKS },
  listWebhookDeliveries: { method: 'GET', path: '/api/v1/webhooks/{id}/deliveries', handler: 'functions/webhooks/list-deliveries.ts', scopes: WEBHOOKS },
  retryWebhookDelivery: {
    method: 'POST',
    path: '/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry',
    handler: 'functions/webhooks/retry-delivery.ts',
    scopes: WEBHOOKS,
  },
  // Ours (issue #32): the events a key could receive by webhook, to reconcile from (docs/events-and-webhooks.md "Event log").
  // Any key that may receive some event type; which ones it sees is decided per event.
  listEvents: { method: 'GET', path: '/api/v1/events', handler: 'functions/event-log/list.ts', scopes: WEBHOOKS },
  getEvent: { method: 'GET', path: '/api/v1/events/{id}', handler: 'functions/event-log/get.ts', scopes: WEBHOOKS },
  // Ours (issue #32): the lab's answer to a sandbox appointment, for sandbox keys only (docs/sandbox.md).
  simulateSandboxResults: {
    method: 'POST',
    path: '/api/v1/sandbox/appointments/{id}/results',
    handler: 'functions/sandbox/appointment-results.ts',
    scopes: ['RESULTS_VIEW'],
  },
  listProfileHomeKitOrders: {
    method: 'GET',
    path: '/api/v1/profiles/{id}/home-kit-orders',
    handler: 'functions/profiles/list-home-kit-orders.ts',
    scopes: KIT,
  },
  // Not in the spec: who read a person's data (docs/privacy.md "Privacy").
  listProfileAccessLog: { method: 'GET', path: '/api/v1/profiles/{id}/access-log', handler: 'functions/profiles/access-log.ts', scopes: ['AUDIT_VIEW'] },
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;

export const routeEntries = Object.entries(routes) as [RouteName, Route][];
