/**
 * What a Lambda may do and how large it is, by class. A route's class follows from its HTTP method; the
 * few per-route extras are listed here by route name (test/infra checks every name is in the routes
 * table), so that a new row of shared/routes.ts gets the right function without touching infra/.
 */
import { Duration } from 'aws-cdk-lib';
import type { Route, RouteName } from '../shared/routes';
import type { SideModules } from './bundling';

export type FunctionClass =
  | 'static'
  | 'read'
  | 'write'
  | 'document'
  | 'report'
  | 'export'
  | 'webhook-sender'
  | 'relay'
  | 'ingest'
  | 'webhook-dispatch'
  | 'webhook-retries'
  | 'critical-check'
  | 'lab-order-sender'
  | 'patient-messages'
  | 'message-reminders'
  | 'email-feedback'
  | 'authorizer';

/**
 * Routes that answer only what was deployed with them (health, the OpenAPI document, the docs page and its
 * files), never stored data: no right on the table, the bucket or the bus.
 */
export const STATIC_ROUTES: readonly RouteName[] = ['health', 'getOpenApiDocument', 'getDocsPage', 'getDocsAsset'];

/**
 * Routes that read lab report files from S3 (shared/documents/s3.ts): only under `documents/` — the files
 * ingest has filed — never the lab's raw uploads under `incoming/`.
 */
export const DOCUMENT_READERS: readonly RouteName[] = ['getDocument'];

/**
 * Routes that handle the files of the lab's reports that matched no order (issue #51), beyond a write's
 * rights: a match files them under `documents/` as results-ingest would, a discard deletes them
 * (infra/function-s3-rights.ts).
 */
export const UNMATCHED_RESULT_FILERS: readonly RouteName[] = ['matchUnmatchedResult', 'discardUnmatchedResult'];

/**
 * Routes that send one webhook to a client's endpoint inside the API request (a test send, a manual
 * retry): they wait up to 10 s for the receiver, so they get more time than a write. They put no event
 * on the bus.
 */
export const WEBHOOK_SENDERS: readonly RouteName[] = ['sendTestWebhook', 'retryWebhookDelivery'];

/**
 * Routes that render a PDF in the function (the results report, the requisition forms): a read route with
 * the memory and CPU to parse and subset the fonts (a CJK font is 10 MB), Noto Sans beside its bundle, and
 * the CJK fallbacks in S3 (infra/report-fonts.ts).
 */
export const REPORT_RENDERERS: readonly RouteName[] = ['getAppointmentResultsReport', 'getAppointmentRequisition', 'getHomeKitOrderRequisition'];

/**
 * Routes that read everything of a person in one request (the export): two Queries per appointment, 8 at a
 * time, and a document of up to 6 MB serialised twice (the answer and its size check), so more time and CPU
 * than a read.
 */
export const PERSON_EXPORTERS: readonly RouteName[] = ['exportProfile'];

/**
 * The route classes the service levels are written for (docs/operations.md "Service levels"), by function class: what
 * a client waits for alike. Reads answer from one or a few items (and the static routes from memory);
 * writes commit a transaction, or wait for a client's webhook endpoint; renders build a PDF or a person's
 * whole export. Functions no client waits on (events, schedules, the authorizer) have none.
 */
export const SERVICE_LEVEL_CLASSES: Readonly<Partial<Record<FunctionClass, ServiceLevelClass>>> = {
  static: 'read',
  read: 'read',
  document: 'read',
  write: 'write',
  'webhook-sender': 'write',
  report: 'render',
  export: 'render',
};

export const SERVICE_LEVEL_CLASS_NAMES = ['read', 'write', 'render'] as const;
export type ServiceLevelClass = (typeof SERVICE_LEVEL_CLASS_NAMES)[number];

export function routeClassOf(routeName: RouteName, route: Route): FunctionClass {
  if (STATIC_ROUTES.includes(routeName)) return 'static';
  if (DOCUMENT_READERS.includes(routeName)) return 'document';
  if (WEBHOOK_SENDERS.includes(routeName)) return 'webhook-sender';
  if (REPORT_RENDERERS.includes(routeName)) return 'report';
  if (PERSON_EXPORTERS.includes(routeName)) return 'export';
  if (CONSENT_WITHDRAWERS.includes(routeName)) return 'read';
  return route.method === 'GET' ? 'read' : 'write';
}

/**
 * DynamoDB actions per class, on the table and its indexes. Transactions need no action of their own:
 * IAM checks each Put/Update/Delete/ConditionCheck inside a TransactWriteItems.
 */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const WRITE_ACTIONS = [...READ_ACTIONS, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'];
/**
 * What delivering webhooks calls (shared/usecases/deliver-webhooks.ts): reads subscriptions, API keys
 * (a key id's KEYID# item, then its secrets' APIKEY# items, or GSI1 for a key older than those items)
 * and due deliveries (GetItem, BatchGetItem, Query on the table and GSI1/GSI2), puts a new delivery,
 * updates claims, attempts and failure streaks. Never a delete, never a transaction.
 */
const WEBHOOK_DELIVERY_ACTIONS = [...READ_ACTIONS, 'dynamodb:PutItem', 'dynamodb:UpdateItem'];
/**
 * What sending patient email calls (issue #52, shared/usecases/patient-messages.ts): reads the appointment or
 * kit, its profile, location, group and catalog (GetItem, BatchGetItem, Query on the table and its indexes, the
 * due reminders on GSI2), claims each message with a conditional put before SES has it and records SES's answer
 * (PutItem, UpdateItem, ConditionCheckItem, in transactions too), and moves or removes a reminder (DeleteItem):
 * a write's actions. Never an event on the bus, never S3.
 */
const EMAIL_SENDER_ACTIONS = WRITE_ACTIONS;

export const TABLE_ACTIONS: Record<FunctionClass, readonly string[]> = {
  static: [],
  read: READ_ACTIONS,
  document: READ_ACTIONS,
  report: READ_ACTIONS,
  export: READ_ACTIONS,
  write: WRITE_ACTIONS,
  'webhook-sender': WRITE_ACTIONS,
  ingest: WRITE_ACTIONS,
  // What relayOutbox calls: Query GSI2 for pending entries, GetItem to read each again (GSI2 lags),
  // DeleteItem once published, UpdateItem to keep only the events EventBridge did not take when it took
  // some (shared/store/outbox.ts currentOutboxEntry, keepUnpublished).
  relay: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:DeleteItem', 'dynamodb:UpdateItem'],
  'webhook-dispatch': WEBHOOK_DELIVERY_ACTIONS,
  'webhook-retries': WEBHOOK_DELIVERY_ACTIONS,
  // The critical results check only lists GSI2's unacknowledged appointments (shared/store/critical-results.ts).
  'critical-check': ['dynamodb:Query'],
  // The lab order sender reads the sample and its profile (GetItem), writes lab_order on the appointment and
  // its kit with the outbox entry, in one transaction (shared/store/lab-orders.ts: Update and Put items), and
  // clears that entry once its event is published (DeleteItem; UpdateItem after a partial publish), as a write does.
  'lab-order-sender': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
  'patient-messages': EMAIL_SENDER_ACTIONS,
  'message-reminders': EMAIL_SENDER_ACTIONS,
  // A bounce or complaint (shared/usecases/email-feedback.ts): the sent email by SES's message id and its profile
  // (GetItem; Query for a lookup through an index), the message and the profile's email_status marked (UpdateItem),
  // the address's suppression recorded (PutItem). Never a delete, never a transaction.
  'email-feedback': ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  // The gateway's authorizer reads API key items only: a statement of its own (AUTHORIZER_ACTIONS) limits
  // it to their partitions, so none here.
  authorizer: [],
};

/** The authorizer's one right: GetItem of an API key's item (`APIKEY#<sha256>`), nothing else of the table. */
export const AUTHORIZER_ACTIONS = ['dynamodb:GetItem'] as const;

/**
 * What the routes that record reads in the access log get beyond their class (docs/privacy.md "Privacy"): PutItem,
 * only into the access-log partitions (IAM `dynamodb:LeadingKeys` ACCESS#*). Those routes are one list,
 * AUDITED_ROUTES (shared/http/audited-routes.ts), not a class: a GET of locations or webhooks has no right to
 * write an entry. IAM cannot require the put's condition (attribute_not_exists), so the fewer functions hold
 * the right, the fewer could replace an entry; our code never does.
 */
export const AUDIT_ACTIONS = ['dynamodb:PutItem'] as const;

/**
 * Classes that authenticate requests with an API key but may not otherwise update items: authenticating
 * records the key's day of last use (shared/auth/api-keys.ts), at most once a day per key. UpdateItem only,
 * only in API key partitions (IAM `dynamodb:LeadingKeys` APIKEY#*) and only of that attribute
 * (`dynamodb:Attributes`: the key attributes and last_used_on), so a read function cannot change a key's
 * scopes, groups, expiry or revocation.
 */
export const KEY_USE_RECORDERS: ReadonlySet<FunctionClass> = new Set<FunctionClass>(['read', 'document', 'report', 'export']);
export const KEY_USE_ACTIONS = ['dynamodb:UpdateItem'] as const;

/**
 * Reading routes that count a patient link's request (issue #53, shared/store/patient-links.ts
 * countLinkRequest): the patient's page is a GET, so a read, yet each view raises its link's rate counter.
 * UpdateItem only, only in the counters' partitions (IAM `dynamodb:LeadingKeys` PATIENT_LINK_RATE#*) and only
 * of the counter and its TTL (`dynamodb:Attributes`). The link's two changes count the same item, and are
 * writes: their class covers it.
 */
export const LINK_REQUEST_COUNTERS: readonly RouteName[] = ['getPatientPage'];
export const LINK_COUNT_ACTIONS = ['dynamodb:UpdateItem'] as const;

/**
 * The one-click unsubscribe (issue #52, `POST /u/{token}`, shared/usecases/unsubscribe.ts): a POST anyone on the
 * internet may send, with no key, so the narrowest rights that do its one write — a read's (the token's item,
 * the profile, its group), and UpdateItem only in profiles' partitions (IAM `dynamodb:LeadingKeys` PROFILE#*)
 * and only of the consent flag and `updated_at` (`dynamodb:Attributes`; `erased_at` too, which its condition
 * reads: the write never sets it). Never a write's Put, Delete or any other attribute of a person.
 */
export const CONSENT_WITHDRAWERS: readonly RouteName[] = ['unsubscribe'];
export const CONSENT_WITHDRAWAL_ATTRIBUTES = ['PK', 'SK', 'transactional_emails_enabled', 'updated_at', 'erased_at'] as const;

/**
 * Classes whose functions put events on the bus: every state change may announce one (outbox). Webhook
 * senders, the dispatcher and the retry sweep change deliveries only, which announce nothing.
 */
export const PUBLISHERS: ReadonlySet<FunctionClass> = new Set<FunctionClass>(['write', 'relay', 'ingest', 'lab-order-sender']);

/**
 * How the functions of a class are invoked, which decides what a failed invocation leaves behind:
 * - `api`: synchronously by API Gateway (a route's Lambda proxy integration, the request authorizer): the
 *   caller gets the error;
 * - `schedule`: asynchronously by an EventBridge schedule, never retried: the next run does the work again;
 * - `queue`: by an SQS event source mapping (synchronous): a failing message goes to the queue's own DLQ;
 * - `event`: asynchronously by EventBridge rules with data in the event: Lambda's DLQ keeps what failed.
 */
export type Invocation = 'api' | 'schedule' | 'queue' | 'event';

export const INVOKED_BY: Record<FunctionClass, Invocation> = {
  static: 'api',
  read: 'api',
  write: 'api',
  document: 'api',
  report: 'api',
  export: 'api',
  'webhook-sender': 'api',
  authorizer: 'api',
  relay: 'schedule',
  'webhook-retries': 'schedule',
  'critical-check': 'schedule',
  'message-reminders': 'schedule',
  'webhook-dispatch': 'queue',
  'lab-order-sender': 'queue',
  'patient-messages': 'queue',
  ingest: 'event',
  'email-feedback': 'event',
};

export interface FunctionSize {
  readonly memorySize: number;
  readonly timeout: Duration;
}

/**
 * API functions answer within API Gateway's 29 s; a stuck one must not hold a container that long. On
 * arm64, 256 MB is plenty for a DynamoDB round trip or two; 512 MB for the functions that hold files in
 * memory (a 4 MiB report inline is ~10 MB as bytes plus base64) and get twice the CPU for it.
 */
export const FUNCTION_SIZES: Record<FunctionClass, FunctionSize> = {
  // Swagger UI's script is gzipped once per container (0.15 s on a whole core here: about 1 s at 256 MB).
  static: { memorySize: 256, timeout: Duration.seconds(6) },
  read: { memorySize: 256, timeout: Duration.seconds(6) },
  write: { memorySize: 256, timeout: Duration.seconds(10) },
  document: { memorySize: 512, timeout: Duration.seconds(15) },
  // Fonts parsed and subset per report (the CJK ones only when a name needs them): 1 GB buys the CPU.
  report: { memorySize: 1024, timeout: Duration.seconds(15) },
  // Measured (npm run bench): 200 appointments are 400 Queries and 0.5 MB. The 6 MB ceiling is about 2,000
  // appointments: 4,000 Queries, 16 at a time (8 appointments), 250 rounds: 2–5 s at DynamoDB's usual
  // latency; 25 s leaves room for a slow table and stays below API Gateway's 29 s. 1 GB for the CPU.
  export: { memorySize: 1024, timeout: Duration.seconds(25) },
  // One outbound request of at most 10 s (ATTEMPT_TIMEOUT_MS) plus a few DynamoDB round trips, inside
  // the API request: twice the attempt's timeout, still well below API Gateway's 29 s.
  'webhook-sender': { memorySize: 256, timeout: Duration.seconds(20) },
  // Below the one-minute schedule, so that two runs never overlap and publish the same entry twice.
  relay: { memorySize: 256, timeout: Duration.seconds(50) },
  // S3 copies of the lab's files, a transaction and an event: generous, and never on a user's request.
  ingest: { memorySize: 512, timeout: Duration.seconds(60) },
  // A batch of up to 10 events, each fanned out to its subscriptions in parallel, every attempt at most
  // 10 s: a minute is ample. The webhook queue hides a received batch 6 times this long (infra/webhooks.ts).
  'webhook-dispatch': { memorySize: 256, timeout: Duration.seconds(60) },
  // Below the one-minute schedule, like the relay. Its loop starts a batch only while more than
  // ATTEMPT_LEASE_MS (30 s) remain, so 50 s leaves 20 s of batches and ends each run within its minute.
  'webhook-retries': { memorySize: 256, timeout: Duration.seconds(50) },
  // One Query of a list that holds only what nobody acknowledged: seconds at most, every 5 minutes.
  'critical-check': { memorySize: 256, timeout: Duration.seconds(30) },
  // One order: an MLLP attempt of at most 30 s (ACK_TIMEOUT_MS, connecting included) and a few DynamoDB round trips.
  'lab-order-sender': { memorySize: 256, timeout: Duration.seconds(60) },
  // A batch of up to 10 events, each a few DynamoDB round trips and one SES call (the SDK's own retries of
  // SES throttling included): 30 s is ample. Its queue hides a received batch 6 times this long (infra/patient-email.ts).
  'patient-messages': { memorySize: 256, timeout: Duration.seconds(30) },
  // Below the one-minute schedule, like the relay: each run sends the reminders that came due and ends within its minute.
  'message-reminders': { memorySize: 256, timeout: Duration.seconds(50) },
  // One bounce or complaint: a read and two or three writes.
  'email-feedback': { memorySize: 256, timeout: Duration.seconds(30) },
  // One GetItem per key and minute (API Gateway caches its answer): it must answer well inside the 29 s.
  authorizer: { memorySize: 256, timeout: Duration.seconds(5) },
};

/** Noto Sans, the PDFs' font (shared/report/font-faces.ts), and its package manifest. */
const NOTO_SANS_FILES = ['400Regular/NotoSans_400Regular.ttf', '700Bold/NotoSans_700Bold.ttf', 'package.json'];

/**
 * Files of installed packages that a route reads at run time instead of importing them (esbuild bundles
 * imports only), by route and package: copied beside the route's bundle, into node_modules/<package>/,
 * where Node's resolution from the bundle finds them. Files a package version lacks are skipped.
 */
export const PACKAGE_FILES: Partial<Record<RouteName, Readonly<Record<string, readonly string[]>>>> = {
  // What functions/docs/asset.ts serves (SWAGGER_UI_FILES), its manifest (resolved to find the folder),
  // and the license notices that must travel with the code.
  getDocsAsset: { 'swagger-ui-dist': ['swagger-ui-bundle.js', 'swagger-ui.css', 'package.json', 'LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt'] },
  // Noto Sans beside the results report's bundle; its CJK fallbacks are file assets the function fetches
  // once per container (infra/report-fonts.ts).
  getAppointmentResultsReport: { '@expo-google-fonts/noto-sans': NOTO_SANS_FILES },
  // The same fonts for the requisition forms (shared/report/requisition.ts), which print a name in any script.
  getAppointmentRequisition: { '@expo-google-fonts/noto-sans': NOTO_SANS_FILES },
  getHomeKitOrderRequisition: { '@expo-google-fonts/noto-sans': NOTO_SANS_FILES },
};

/**
 * Modules a route imports at run time from beside its bundle, bundled on their own in the synth's one build
 * (infra/bundle-all.ts), by route: the file name the code imports (`./<name>`, which the bundles leave
 * external) and the source it is built from. Code a cold start should not parse: the S3 client the report
 * needs only to fetch a CJK font (shared/report/font-object.mts). esbuild leaves out every import written
 * `./<name>`, from whichever file of any bundle (the build is one), so a name here is for one importer only.
 */
export const SIDE_MODULES: Partial<Record<RouteName, SideModules>> = {
  getAppointmentResultsReport: { 'font-object.mjs': 'shared/report/font-object.mts' },
  getAppointmentRequisition: { 'font-object.mjs': 'shared/report/font-object.mts' },
  getHomeKitOrderRequisition: { 'font-object.mjs': 'shared/report/font-object.mts' },
};
