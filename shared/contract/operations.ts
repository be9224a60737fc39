/**
 * What each route of the routes table answers, in the spec's words: the second half of the contract.
 * shared/routes.ts says where a route lives and who may call it; each handler declares what it accepts
 * (its params, query and body schemas); this table says what it answers. infra/contract/openapi.ts joins
 * the three into docs/openapi.json. shared/http/handler.ts types every handler's return value by its row
 * here (a success status and body type the row does not document do not compile); errors are thrown, so
 * the tests check them: every response the suites receive is validated against the document
 * (test/support/contract.ts), an undocumented status or field included.
 *
 * Only successes and route-specific errors are listed: 400, 401, 403, 415, the idempotency refusals, 500 and
 * 503 (with Retry-After: DynamoDB or S3 could not answer now, on every keyed route) follow from the route's
 * inputs, scopes and Idempotency-Key support (the generator adds them).
 *
 * The rows live by resource in operations/<resource>.ts; what a row is and the phrases rows share, in
 * operation-doc.ts. Every route must have its row here: the type says so.
 */
import type { RouteName } from '../routes';
import { type OperationDoc } from './operation-doc';
import { serviceOperations } from './operations/service';
import { profilesOperations } from './operations/profiles';
import { locationsOperations } from './operations/locations';
import { appointmentsOperations } from './operations/appointments';
import { resultsOperations } from './operations/results';
import { ordersOperations } from './operations/orders';
import { shipmentsOperations } from './operations/shipments';
import { homeKitOrdersOperations } from './operations/home-kit-orders';
import { webhooksOperations } from './operations/webhooks';
import { labOperations } from './operations/lab';
import { unsubscribeOperations } from './operations/unsubscribe';
import { patientPageOperations } from './operations/patient-page';

export { type OperationDoc, type ResponseDoc, TAGS } from './operation-doc';

export const operations = {
  ...serviceOperations,
  ...profilesOperations,
  ...locationsOperations,
  ...appointmentsOperations,
  ...resultsOperations,
  ...ordersOperations,
  ...shipmentsOperations,
  ...homeKitOrdersOperations,
  ...webhooksOperations,
  ...labOperations,
  ...unsubscribeOperations,
  ...patientPageOperations,
} as const satisfies Record<RouteName, OperationDoc>;

export type Operations = typeof operations;
