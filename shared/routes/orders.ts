/** The rows of the routes table (shared/routes.ts) for an appointment's lab order (issue #50). */
import type { Route } from './route';

// Ours: the order as FHIR R4 ServiceRequests (docs/orders.md).
export const getAppointmentOrderFhir = {
  name: 'getAppointmentOrderFhir',
  method: 'GET',
  path: '/api/v1/appointments/{id}/order/fhir',
  handler: 'functions/appointments/order-fhir.ts',
  scopes: ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE', 'RESULTS_VIEW'],
} as const satisfies Route;
