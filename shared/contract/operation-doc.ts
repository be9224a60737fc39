/**
 * What an operation's row says (shared/contract/operations.ts joins the rows of every resource): the tags
 * of the docs page, the shape of a row, and the phrases several rows share.
 */
import * as v from 'valibot';
import { Success } from '../schemas/fields';

export const TAGS = {
  Profiles: 'The people tested: names, birth date, contact data. Each belongs to one profile group.',
  Locations: 'Test locations (clinics, labs) where blood is drawn.',
  Catalog: 'Panels and biomarkers that can be ordered.',
  Appointments: 'Blood-draw appointments: booking, tests, the draw (confirm), courier pickup.',
  Results: 'Lab results of an appointment and the lab report files.',
  Shipments: 'Courier shipments of samples from a location to the lab.',
  'Home kit orders': 'Home test kits: ordered, dispatched, activated with the sample barcode.',
  Webhooks:
    "A client's subscriptions to the domain events, delivered as signed Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) " +
    'with retries, a delivery log and replay. Scope WEBHOOKS_MANAGE; a subscription belongs to the key that made it.',
  Events: 'The event log: the events a key could receive by webhook, kept 30 days, to reconcile from.',
  'Lab operations':
    "The service's own lab-operations staff (scope LAB_RESULTS_MATCH): the lab's reports whose barcode matched no drawn order, " +
    'kept 90 days to be matched to their appointment or discarded.',
  Sandbox: "Sandbox keys (lab_test_…) work on data of their own; they can simulate the lab's answers.",
  Service: 'Health, this document and its docs page: no API key needed.',
  'Patient links':
    'The pages a patient opens from an email or a link their clinic gave them: the one-click unsubscribe (RFC 8058), and the page of ' +
    "their appointment (see it, reschedule or cancel it). No API key: the link's token is the credential, and it opens nothing else.",
} as const;

export interface ResponseDoc {
  readonly description: string;
  /** The JSON body; absent for a body of another content type. */
  readonly schema?: v.GenericSchema;
  /** A body that is not JSON: its content type and a JSON Schema of it. */
  readonly content?: { readonly type: string; readonly schema: object };
  readonly headers?: { readonly [name: string]: { readonly description: string; readonly required?: boolean } };
  readonly example?: unknown;
}

export interface OperationDoc {
  readonly tag: keyof typeof TAGS;
  readonly summary: string;
  readonly description: string;
  /** The answers a handler returns, by status. */
  readonly responses: { readonly [status: number]: ResponseDoc };
  /** The errors this route adds to the generic ones, by status: when they happen. */
  readonly errors?: { readonly [status: number]: string };
  readonly requestExample?: unknown;
}

export const list = <S extends v.GenericSchema>(item: S) => v.array(item);
export const success = { description: 'Done.', schema: Success } as const;
export const PAGE = {
  headers: {
    'X-Next-Cursor': { description: 'The cursor of the next page (pass it as `cursor`); absent on the last page.' },
  },
} as const;
export const CHANGED_MEANWHILE = 'a concurrent request changed the resource meanwhile: retry';
/** The attach routes' own 400 (issue #50): a test the order's collection method cannot collect. */
export const UNCOLLECTABLE = (test: 'panel' | 'biomarker', order: 'appointment' | 'kit') =>
  `a ${test} whose collection_methods exclude the ${order === 'kit' ? "kit's method (home)" : "appointment's test_method (practitioner at a location)"}, ` +
  'named with the method; nothing is attached';
/** A cancel or dispatch that lost a race decides again on the new state; this is when that kept losing (shared/usecases/decide-again.ts). */
export const KEPT_CHANGING = 'the resource kept changing under concurrent requests: retry';
/** The routes that show a person's data record each read first (docs/privacy.md "Privacy", shared/http/audit.ts). */
/** The 200 of both requisition form routes (an appointment's, a kit's): the PDF, named by its number. */
export const REQUISITION_PDF = {
  description: 'The PDF.',
  content: { type: 'application/pdf', schema: { type: 'string', contentMediaType: 'application/pdf' } },
  headers: {
    'Content-Disposition': { description: 'attachment; filename="requisition-<number>.pdf": the requisition number, no personal data', required: true },
    'Content-Language': { description: 'en: the lab reads it', required: true },
  },
} as const;

export const READ_NOT_RECORDED = 'the read could not be recorded in the access log, so nothing is shown: retry';
/** The changes that answer the person record that answer as a read; the change is made before (docs/privacy.md "Privacy"). */
export const CHANGE_NOT_SHOWN =
  'the change was made, but its answer could not be recorded in the access log, so nothing is shown: read the resource, do not repeat the change';
