/**
 * The routes of the API: every row of the routes table gets its function, in its domain's nested stack
 * (infra/route-stacks.ts), and its method on the resource of its path, keyed routes behind the key gate
 * (infra/key-gate.ts); every path with routes also answers its other methods 405 from API Gateway itself.
 */
import type { Stack } from 'aws-cdk-lib';
import {
  AuthorizationType,
  ContentHandling,
  type IResource,
  MockIntegration,
  PassthroughBehavior,
  type RequestAuthorizer,
  type RequestValidator,
  type RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { API_KEY_HEADER, wrongMethod } from '../shared/http/gateway-responses';
import { routeEntries } from '../shared/routes';
import { type ApiFunction, routeIntegration } from './api-function';
import { wrongMethodMock } from './cors';
import type { HipaaControls } from './hipaa-controls';
import { domainOf, ROUTE_DOMAINS, type RouteDomain, RouteStack } from './route-stacks';
import type { StageName } from './settings';

export interface RouteMethodsProps {
  readonly stage: StageName;
  readonly table: Table;
  readonly bucket: Bucket;
  readonly bus: IEventBus;
  readonly cursorSecret: ISecret;
  readonly hipaa?: HipaaControls;
  /** The stage's allowed browser origins (empty: no CORS). */
  readonly cors: readonly string[];
  readonly auditRetentionDays: number;
  /** The stage's patientPageOrigin (unset: none): PATIENT_PAGE_ORIGIN of the patient link's routes. */
  readonly patientPageOrigin?: string;
  readonly requireKey: RequestValidator;
  readonly keyAuthorizer: RequestAuthorizer;
}

/** Adds every route's function and method; answers the functions. */
export function routeMethods(scope: Stack, api: RestApi, props: RouteMethodsProps): ApiFunction[] {
  const { stage, table, bucket, bus, cursorSecret, hipaa, cors, auditRetentionDays, patientPageOrigin, requireKey, keyAuthorizer } = props;
  // Every route: its own function, in its domain's nested stack (infra/route-stacks.ts), and its method on
  // the resource of its path, here.
  const routeStacks = (Object.keys(ROUTE_DOMAINS) as RouteDomain[]).flatMap((domain) => {
    const routes = routeEntries.filter(([routeName, route]) => domainOf(routeName, route) === domain);
    if (routes.length === 0) return [];
    // The functions name an allowed origin on their answers (shared/http/cors.ts), from the same list.
    const environment: Record<string, string> = cors.length > 0 ? { CORS_ALLOW_ORIGINS: cors.join(',') } : {};
    return [new RouteStack(scope, domain, { routes, stage, table, bucket, bus, cursorSecret, api, environment, auditRetentionDays, patientPageOrigin, hipaa })];
  });
  const routeFunctions = routeStacks.flatMap((routeStack) => routeStack.functions);
  const methodsByResource = new Map<IResource, string[]>();
  for (const fn of routeFunctions) {
    const { route } = fn;
    const resource = api.root.resourceForPath(route.path);
    const keyed = route.scopes.length > 0;
    resource.addMethod(
      route.method,
      routeIntegration(fn),
      keyed
        ? {
            requestParameters: { [`method.request.header.${API_KEY_HEADER}`]: true },
            requestValidator: requireKey,
            authorizer: keyAuthorizer,
            authorizationType: AuthorizationType.CUSTOM,
            // Counted, and over its limits refused, by the key's usage plan.
            apiKeyRequired: true,
          }
        : {},
    );
    methodsByResource.set(resource, [...(methodsByResource.get(resource) ?? []), route.method]);
  }

  // A known path with another method: 405 from API Gateway itself (an explicit method wins over ANY); with
  // CORS, an OPTIONS there is the preflight (infra/cors.ts).
  for (const [resource, methods] of methodsByResource) {
    const answer = wrongMethod('$context.httpMethod', methods);
    const mock = wrongMethodMock(answer, methods, cors);
    resource.addMethod(
      'ANY',
      new MockIntegration({
        requestTemplates: { 'application/json': JSON.stringify({ statusCode: answer.statusCode }) },
        // Any body (JSON, text, bytes) still reaches the default response below instead of a 415 or 500.
        passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
        // binaryMediaTypes */* makes every request body binary; a mock integration needs text.
        contentHandling: ContentHandling.CONVERT_TO_TEXT,
        integrationResponses: [
          { statusCode: String(answer.statusCode), responseParameters: mock.responseParameters, responseTemplates: { 'application/json': mock.template } },
        ],
      }),
      { methodResponses: mock.methodResponses },
    );
  }
  return routeFunctions;
}
