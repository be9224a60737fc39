/**
 * Lab reports whose barcode matched no drawn order (issue #51): what a kept one can be, and how long it is
 * kept. Pure constants: the contract (docs/openapi.json) and the CDK app read them without the store.
 */

/** waiting: listed, to be matched or discarded; matched: its results are an appointment's now; discarded: closed. */
export const UNMATCHED_STATUSES = ['waiting', 'matched', 'discarded'] as const;
export type UnmatchedStatus = (typeof UNMATCHED_STATUSES)[number];

/** How long one is kept, its patient fields and files with it (issue #51: 90 days). */
export const UNMATCHED_RETENTION_DAYS = 90;
