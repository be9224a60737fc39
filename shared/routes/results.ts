/** The rows of the routes table (shared/routes.ts) for results, their documents and the sandbox's lab. */
import type { Route } from './route';

export const getAppointmentResults = {
  name: 'getAppointmentResults',
  method: 'GET',
  path: '/api/v1/appointments/{id}/results',
  handler: 'functions/results/get.ts',
  scopes: ['RESULTS_VIEW'],
} as const satisfies Route;
// Ours (issue #29): a clinician saw the critical values.
export const acknowledgeAppointmentResults = {
  name: 'acknowledgeAppointmentResults',
  method: 'POST',
  path: '/api/v1/appointments/{id}/results/acknowledge',
  handler: 'functions/results/acknowledge.ts',
  scopes: ['RESULTS_VIEW'],
} as const satisfies Route;
// Ours (issue #29): every version of every result, the values corrections replaced included.
export const getAppointmentResultsHistory = {
  name: 'getAppointmentResultsHistory',
  method: 'GET',
  path: '/api/v1/appointments/{id}/results/history',
  handler: 'functions/results/history.ts',
  scopes: ['RESULTS_VIEW'],
} as const satisfies Route;
// Ours: the results as a FHIR R4 Bundle (docs/results.md "Results and documents").
export const getAppointmentResultsFhir = {
  name: 'getAppointmentResultsFhir',
  method: 'GET',
  path: '/api/v1/appointments/{id}/results/fhir',
  handler: 'functions/results/fhir.ts',
  scopes: ['RESULTS_VIEW'],
} as const satisfies Route;
// Ours: the results as a PDF rendered by the service (docs/results.md "Results and documents").
export const getAppointmentResultsReport = {
  name: 'getAppointmentResultsReport',
  method: 'GET',
  path: '/api/v1/appointments/{id}/results/report',
  handler: 'functions/results/report.ts',
  scopes: ['RESULTS_VIEW'],
} as const satisfies Route;
export const getDocument = {
  name: 'getDocument',
  method: 'GET',
  path: '/api/v1/documents/{id}',
  handler: 'functions/documents/get.ts',
  scopes: ['RESULTS_VIEW'],
} as const satisfies Route;
// Ours (issue #32): the lab's answer to a sandbox appointment, for sandbox keys only (docs/sandbox.md).
export const simulateSandboxResults = {
  name: 'simulateSandboxResults',
  method: 'POST',
  path: '/api/v1/sandbox/appointments/{id}/results',
  handler: 'functions/sandbox/appointment-results.ts',
  scopes: ['RESULTS_VIEW'],
} as const satisfies Route;
