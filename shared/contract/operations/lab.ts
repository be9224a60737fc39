/** What the lab-operations routes answer: the lab's reports that matched no drawn order (issue #51). Joined with the other resources in shared/contract/operations.ts. */
import type { RouteName } from '../../routes';
import { UnmatchedResult } from '../../schemas/unmatched-results';
import * as examples from '../examples';
import { CHANGE_NOT_SHOWN, list, type OperationDoc, PAGE, READ_NOT_RECORDED } from '../operation-doc';

export const labOperations = {
  listUnmatchedResults: {
    tag: 'Lab operations',
    summary: 'List the lab results that matched no order',
    description:
      "The lab's reports (HL7 ORU^R01 or JSON) whose barcode no drawn order holds, waiting to be matched or discarded, newest first, paged. " +
      "Each shows the barcode, the patient as the lab named them (HL7 PID-5/PID-7, a JSON report's patient) and the tests it carries. " +
      "They belong to no tenant: every one is listed to every key with LAB_RESULTS_MATCH, the service's own lab-operations staff. " +
      'Each one shown is recorded in the access log under its own id. Kept 90 days, then deleted with its patient fields and files.',
    responses: {
      200: { description: 'A page of unmatched results, each waiting.', schema: list(UnmatchedResult), ...PAGE, example: [examples.unmatchedResult] },
    },
    errors: { 503: READ_NOT_RECORDED },
  },
  matchUnmatchedResult: {
    tag: 'Lab operations',
    summary: 'Match a lab result to its appointment',
    description:
      'Applies the report to the drawn appointment as if its barcode had matched: every rule of the ingest, its results, documents, ' +
      'completion, events and webhooks included, in one transaction with the close of the unmatched result, whose patient fields ' +
      "are removed. The appointment must be in the key's access context. Never replaces a final result: an appointment that holds " +
      'one for a test of the report is a 409 (the lab corrects a value with a corrected result). Matching again to the same ' +
      "appointment answers the matched result again. The answer is recorded in the access log of the appointment's profile.",
    responses: { 200: { description: 'The unmatched result, matched.', schema: UnmatchedResult } },
    errors: {
      404: 'unmatched result not found or deleted after 90 days; or appointment not found',
      409:
        'the appointment is not drawn (scheduled or cancelled), already holds these results or a final result for a test of the report, ' +
        'planned none of its tests, or the ingest refuses the report for it (the reason said); or the unmatched result was matched to another ' +
        'appointment or discarded',
      503: CHANGE_NOT_SHOWN,
    },
    requestExample: examples.matchUnmatchedResultBody,
  },
  discardUnmatchedResult: {
    tag: 'Lab operations',
    summary: 'Discard a lab result that matched no order',
    description:
      'Closes an unmatched result that belongs to no appointment, with the reason: its patient fields and report are removed and ' +
      'its files deleted; the closed record (barcode, tests, who closed it, when and why) stays until the 90 days end. Discarding ' +
      'again answers it as discarded first.',
    responses: { 200: { description: 'The unmatched result, discarded.', schema: UnmatchedResult } },
    errors: { 404: 'unmatched result not found or deleted after 90 days', 409: 'the unmatched result was matched to an appointment' },
    requestExample: { reason: 'A test sample of the lab, not a patient' },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
