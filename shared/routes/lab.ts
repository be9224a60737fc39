/**
 * The rows of the routes table (shared/routes.ts) for the service's own lab operations (issue #51): the lab's
 * reports whose barcode matched no drawn order, which belong to no tenant until someone matches them
 * (docs/hl7.md "Results that match no order").
 */
import type { Route } from './route';

// Ours: the queue of unmatched results, newest first, paged.
export const listUnmatchedResults = {
  name: 'listUnmatchedResults',
  method: 'GET',
  path: '/api/v1/lab/unmatched-results',
  handler: 'functions/lab/list-unmatched-results.ts',
  scopes: ['LAB_RESULTS_MATCH'],
} as const satisfies Route;
// Ours: applies an unmatched result to an appointment of the key's access context, as the ingest would have.
export const matchUnmatchedResult = {
  name: 'matchUnmatchedResult',
  method: 'POST',
  path: '/api/v1/lab/unmatched-results/{id}/match',
  handler: 'functions/lab/match-unmatched-result.ts',
  scopes: ['LAB_RESULTS_MATCH'],
} as const satisfies Route;
// Ours: closes an unmatched result that belongs to no appointment, with the reason.
export const discardUnmatchedResult = {
  name: 'discardUnmatchedResult',
  method: 'POST',
  path: '/api/v1/lab/unmatched-results/{id}/discard',
  handler: 'functions/lab/discard-unmatched-result.ts',
  scopes: ['LAB_RESULTS_MATCH'],
} as const satisfies Route;
