/** The rows of the routes table (shared/routes.ts) for appointments. */
import type { Route } from './route';

export const createAppointment = {
  name: 'createAppointment',
  method: 'POST',
  path: '/api/v1/appointments',
  handler: 'functions/appointments/create.ts',
  scopes: ['TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
export const getAppointment = {
  name: 'getAppointment',
  method: 'GET',
  path: '/api/v1/appointments/{id}',
  handler: 'functions/appointments/get.ts',
  scopes: ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
export const updateAppointment = {
  name: 'updateAppointment',
  method: 'PATCH',
  path: '/api/v1/appointments/{id}',
  handler: 'functions/appointments/update.ts',
  scopes: ['TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
export const attachAppointmentPanels = {
  name: 'attachAppointmentPanels',
  method: 'POST',
  path: '/api/v1/appointments/{id}/panels',
  handler: 'functions/appointments/attach-panels.ts',
  scopes: ['TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
export const attachAppointmentBiomarkers = {
  name: 'attachAppointmentBiomarkers',
  method: 'POST',
  path: '/api/v1/appointments/{id}/biomarkers',
  handler: 'functions/appointments/attach-biomarkers.ts',
  scopes: ['TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
export const confirmAppointment = {
  name: 'confirmAppointment',
  method: 'POST',
  path: '/api/v1/appointments/{id}/confirm',
  handler: 'functions/appointments/confirm.ts',
  scopes: ['TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
export const cancelAppointment = {
  name: 'cancelAppointment',
  method: 'POST',
  path: '/api/v1/appointments/{id}/cancel',
  handler: 'functions/appointments/cancel.ts',
  scopes: ['TEST_SESSIONS_SCHEDULE', 'TEST_SESSIONS_MANAGE'],
} as const satisfies Route;
export const pickupAppointments = {
  name: 'pickupAppointments',
  method: 'POST',
  path: '/api/v1/appointments/pickup',
  handler: 'functions/appointments/pickup.ts',
  scopes: ['TEST_SESSIONS_OPERATE', 'TEST_SESSIONS_MANAGE'],
} as const satisfies Route;
export const listProfileAppointments = {
  name: 'listProfileAppointments',
  method: 'GET',
  path: '/api/v1/profiles/{id}/appointments',
  handler: 'functions/profiles/list-appointments.ts',
  scopes: ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
// Status histories (beyond the spec): the resource's view scopes.
export const listAppointmentHistory = {
  name: 'listAppointmentHistory',
  method: 'GET',
  path: '/api/v1/appointments/{id}/history',
  handler: 'functions/appointments/history.ts',
  scopes: ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
// Ours (issue #50): the requisition form that travels with the sample, PDF (docs/orders.md).
export const getAppointmentRequisition = {
  name: 'getAppointmentRequisition',
  method: 'GET',
  path: '/api/v1/appointments/{id}/requisition',
  handler: 'functions/appointments/requisition.ts',
  scopes: ['TEST_SESSIONS_VIEW', 'TEST_SESSIONS_SCHEDULE', 'RESULTS_VIEW'],
} as const satisfies Route;
// Ours (issue #53): a link the patient can hold, to their appointment's page (docs/patient-page.md).
export const createPatientLink = {
  name: 'createPatientLink',
  method: 'POST',
  path: '/api/v1/appointments/{id}/patient-link',
  handler: 'functions/appointments/patient-link.ts',
  scopes: ['TEST_SESSIONS_SCHEDULE'],
} as const satisfies Route;
