/**
 * "A Lambda of this service": one handler module of the repository, bundled by the local esbuild into a
 * small ESM file for Node.js 24 on arm64, with the environment shared/config.ts reads, its own log group
 * and its own role holding exactly the rights of its class (infra/route-classes.ts). ApiFunction is that
 * Lambda for one row of the routes table (this module); LabFunction itself is infra/lab-function.ts.
 */
import { Aws } from 'aws-cdk-lib';
import { type IRestApi, Integration, IntegrationType } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { operations, type ResponseDoc } from '../shared/contract/operations';
import { AUDITED_ROUTES } from '../shared/http/audited-routes';
import type { Route, RouteName } from '../shared/routes';
import type { HipaaControls } from './hipaa-controls';
import { PACKAGE_FILES, REPORT_RENDERERS, routeClassOf, SIDE_MODULES } from './route-classes';
import { ReportFonts } from './report-fonts';
import type { StageName } from './settings';
import { LabFunction } from './lab-function';

export { bundleAliases, LAMBDA_BUNDLE, type PackageFiles, REPO_ROOT } from './bundling';
export { copyPackageFiles } from './bundle-all';
export { LabFunction, type LabFunctionProps, metricsNamespace, POWERTOOLS_ENVIRONMENT } from './lab-function';

export interface ApiFunctionProps {
  readonly routeName: RouteName;
  readonly route: Route;
  readonly stage: StageName;
  readonly table: Table;
  readonly bucket: Bucket;
  readonly bus: IEventBus;
  /** The key page cursors are signed with: given to the routes that serve paged lists, and to no other. */
  readonly cursorSecret: ISecret;
  /** The API whose method for this route may invoke the function, on the stage of that name only. */
  readonly api: IRestApi;
  /** Variables of this function only, beside the ones every function and the paged lists get. */
  readonly environment?: Readonly<Record<string, string>>;
  /** Where the stage runs the HIPAA checks: the key its logs are encrypted with. */
  readonly hipaa?: HipaaControls;
}

/** A method's path as execute-api ARNs write it: each path parameter is `*`. */
export const pathForArn = (path: string) => path.replace(/\{[^}]+\}/g, '*');

/**
 * The integration of a route's method: a Lambda proxy to its function. Not CDK's LambdaIntegration, which
 * puts the invoke permission beside the method (in the API's stack): here it sits beside the function, in
 * the function's own nested stack (ApiFunction), so that each route costs the API's stack one resource.
 */
export function routeIntegration(fn: ApiFunction): Integration {
  return new Integration({
    type: IntegrationType.AWS_PROXY,
    integrationHttpMethod: 'POST',
    uri: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${fn.function.functionArn}/invocations`,
  });
}

/** A route that answers pages: its contract documents the X-Next-Cursor header (shared/contract/operations.ts). */
export function servesPages(routeName: RouteName): boolean {
  const responses: Readonly<Record<number, ResponseDoc>> = operations[routeName].responses;
  return Object.values(responses).some((response) => response.headers?.['X-Next-Cursor'] !== undefined);
}

/**
 * CURSOR_SECRET reaches a paged list's function as an environment variable holding a CloudFormation dynamic
 * reference, resolved at deploy: no Secrets Manager call at cold start, no SDK client in the bundle, no IAM
 * right on the secret. The price: the value shows in the function's configuration to whoever may read it
 * (lambda:GetFunctionConfiguration, operators who can read the table anyway), and a new value reaches a
 * function only when a deploy updates it (CloudFormation resolves the reference again then, not otherwise). It only signs cursors (shared/store/pages.ts): a leak lets a reader forge a
 * cursor of a list it may already read, nothing more.
 */
const cursorEnvironment = (secret: ISecret) => ({ CURSOR_SECRET: secret.secretValue.unsafeUnwrap() });

/** The Lambda of one route: its class, and so its rights and size, follows from the routes table. */
export class ApiFunction extends LabFunction {
  readonly routeName: RouteName;
  readonly route: Route;
  /** The route records reads in the access log (AUDITED_ROUTES). */
  readonly recordsReads: boolean;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const { routeName, route } = props;
    super(scope, id, {
      ...props,
      handlerFile: route.handler,
      description: `${route.method} ${route.path} (${routeName})`,
      functionClass: routeClassOf(routeName, route),
      packageFiles: PACKAGE_FILES[routeName],
      sideModules: SIDE_MODULES[routeName],
      environment: { ...(servesPages(routeName) && cursorEnvironment(props.cursorSecret)), ...props.environment },
      recordsReads: AUDITED_ROUTES.has(routeName),
    });
    this.routeName = routeName;
    this.route = route;
    this.recordsReads = AUDITED_ROUTES.has(routeName);
    if (REPORT_RENDERERS.includes(routeName)) new ReportFonts(this);
    // Only this route's method may invoke it, on this stage only (no test invocations from the console:
    // one permission per route instead of two).
    this.function.addPermission('ApiInvoke', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: props.api.arnForExecuteApi(route.method, pathForArn(route.path), props.stage),
    });
  }
}
