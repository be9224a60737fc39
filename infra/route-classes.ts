/**
 * What a Lambda may do and how large it is, by class. A route's class follows from its HTTP method; the
 * few per-route extras are listed here by route name (test/infra checks every name is in the routes
 * table), so that a new row of shared/routes.ts gets the right function without touching infra/.
 */
import { Duration } from 'aws-cdk-lib';
import type { Route, RouteName } from '../shared/routes';

export type FunctionClass = 'static' | 'read' | 'write' | 'document' | 'relay' | 'ingest';

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

export function routeClassOf(routeName: RouteName, route: Route): FunctionClass {
  if (STATIC_ROUTES.includes(routeName)) return 'static';
  if (DOCUMENT_READERS.includes(routeName)) return 'document';
  return route.method === 'GET' ? 'read' : 'write';
}

/**
 * DynamoDB actions per class, on the table and its indexes. Transactions need no action of their own:
 * IAM checks each Put/Update/Delete/ConditionCheck inside a TransactWriteItems.
 */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const WRITE_ACTIONS = [...READ_ACTIONS, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'];

export const TABLE_ACTIONS: Record<FunctionClass, readonly string[]> = {
  static: [],
  read: READ_ACTIONS,
  document: READ_ACTIONS,
  write: WRITE_ACTIONS,
  ingest: WRITE_ACTIONS,
  // What relayOutbox calls: Query GSI2 for pending entries, DeleteItem once published.
  relay: ['dynamodb:Query', 'dynamodb:DeleteItem'],
};

/** Classes whose functions put events on the bus: every state change may announce one (outbox). */
export const PUBLISHERS: ReadonlySet<FunctionClass> = new Set<FunctionClass>(['write', 'relay', 'ingest']);

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
  // Below the one-minute schedule, so that two runs never overlap and publish the same entry twice.
  relay: { memorySize: 256, timeout: Duration.seconds(50) },
  // S3 copies of the lab's files, a transaction and an event: generous, and never on a user's request.
  ingest: { memorySize: 512, timeout: Duration.seconds(60) },
};

/**
 * Files of installed packages that a route reads at run time instead of importing them (esbuild bundles
 * imports only), by route and package: copied beside the route's bundle, into node_modules/<package>/,
 * where Node's resolution from the bundle finds them. Files a package version lacks are skipped.
 */
export const PACKAGE_FILES: Partial<Record<RouteName, Readonly<Record<string, readonly string[]>>>> = {
  // What functions/docs/asset.ts serves (SWAGGER_UI_FILES), its manifest (resolved to find the folder),
  // and the license notices that must travel with the code.
  getDocsAsset: { 'swagger-ui-dist': ['swagger-ui-bundle.js', 'swagger-ui.css', 'package.json', 'LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt'] },
};
