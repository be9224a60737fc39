/**
 * The rows of the routes table (shared/routes.ts) for the patient's page of one appointment (issue #53,
 * docs/patient-page.md): the page, and its two changes. No API key: the token in the path is the credential,
 * and it opens that one appointment and nothing else. `secretPath`: the logs name these routes by their
 * template, never the path. One Lambda each.
 */
import type { Route } from './route';

export const getPatientPage = {
  name: 'getPatientPage',
  method: 'GET',
  path: '/p/{token}',
  handler: 'functions/patient-page/page.ts',
  scopes: [],
  secretPath: true,
} as const satisfies Route;
export const reschedulePatientAppointment = {
  name: 'reschedulePatientAppointment',
  method: 'POST',
  path: '/p/{token}/reschedule',
  handler: 'functions/patient-page/reschedule.ts',
  scopes: [],
  secretPath: true,
} as const satisfies Route;
export const cancelPatientAppointment = {
  name: 'cancelPatientAppointment',
  method: 'POST',
  path: '/p/{token}/cancel',
  handler: 'functions/patient-page/cancel.ts',
  scopes: [],
  secretPath: true,
} as const satisfies Route;
