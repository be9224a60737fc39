/**
 * The route functions, one nested stack per domain. CloudFormation allows 500 resources in a stack, and each
 * route's function costs five (function, role, policy, log group, invoke permission): in one stack the
 * routes alone would fill it. A nested stack has 500 of its own, so the functions live in their domain's
 * nested stack, while the API itself (every resource, method, the deployment and the stage) stays whole in
 * the parent: one RestApi, one Deployment that CDK renews whenever a method changes, and each route costs
 * the parent one method (and, for a new path, its resource and the mock ANY method that answers 405).
 *
 * Least privilege is unchanged: every function keeps its own role with its class's rights
 * (infra/route-classes.ts), its own log group and a permission for its own method only.
 *
 * A route's domain follows from the folder of its handler (`functions/<folder>/…`), so a new row of
 * shared/routes.ts lands in its domain's stack with no change here; a new folder must be given a domain
 * below (the synth fails, naming it, until it is). Moving a folder to another domain replaces its functions.
 */
import { NestedStack } from 'aws-cdk-lib';
import type { IRestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { Route, RouteName } from '../shared/routes';
import { ApiFunction } from './api-function';
import type { HipaaControls } from './hipaa-controls';
import type { StageName } from './settings';

/** Nested stack (construct id) → the handler folders whose routes it holds. */
export const ROUTE_DOMAINS = {
  PlatformRoutes: ['health', 'openapi', 'docs'],
  ProfileRoutes: ['profiles', 'unsubscribe'],
  SchedulingRoutes: ['locations', 'panels', 'biomarkers', 'appointments', 'patient-page'],
  HomeKitRoutes: ['home-kit-orders'],
  LogisticsRoutes: ['shipments'],
  ResultRoutes: ['results', 'documents', 'lab'],
  WebhookRoutes: ['webhooks', 'event-log'],
  SandboxRoutes: ['sandbox'],
} as const satisfies Record<string, readonly string[]>;

export type RouteDomain = keyof typeof ROUTE_DOMAINS;

/**
 * The routes that build the patient's page links or check its posts' Origin against it (docs/patient-page.md):
 * they get PATIENT_PAGE_ORIGIN when the stage names the page's origin (patientPageOrigin), no other route.
 */
export const PAGE_ORIGIN_ROUTES: readonly RouteName[] = ['createPatientLink', 'reschedulePatientAppointment', 'cancelPatientAppointment'];

export function domainOf(routeName: RouteName, route: Route): RouteDomain {
  const folder = route.handler.split('/')[1];
  const found = (Object.keys(ROUTE_DOMAINS) as RouteDomain[]).find((domain) => (ROUTE_DOMAINS[domain] as readonly string[]).includes(folder ?? ''));
  if (!found) throw new Error(`Route ${routeName}: its handler folder functions/${folder}/ has no domain; add it to ROUTE_DOMAINS in infra/route-stacks.ts`);
  return found;
}

export interface RouteStackProps {
  readonly routes: readonly (readonly [RouteName, Route])[];
  readonly stage: StageName;
  readonly table: Table;
  readonly bucket: Bucket;
  readonly bus: IEventBus;
  readonly cursorSecret: ISecret;
  readonly api: IRestApi;
  /** Variables of every route function of the stage (CORS origins). */
  readonly environment: Readonly<Record<string, string>>;
  /** AUDIT_RETENTION_DAYS of the functions that record reads. */
  readonly auditRetentionDays: number;
  /** The stage's patientPageOrigin: PATIENT_PAGE_ORIGIN of PAGE_ORIGIN_ROUTES; unset: none. */
  readonly patientPageOrigin?: string;
  /** Where the stage runs the HIPAA checks: the key of the functions' logs, from the parent (a parameter here). */
  readonly hipaa?: HipaaControls;
}

/** The functions of one domain's routes. */
export class RouteStack extends NestedStack {
  readonly functions: ApiFunction[];

  constructor(scope: Construct, id: RouteDomain, props: RouteStackProps) {
    super(scope, id, { description: `Lab API route functions: ${ROUTE_DOMAINS[id].map((folder) => `functions/${folder}`).join(', ')}` });
    const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
    this.functions = props.routes.map(([routeName, route]) => {
      const fn = new ApiFunction(this, pascal(routeName), { ...props, routeName, route, environment: props.environment });
      // The functions that record reads set each entry's expiry from it (docs/privacy.md "Privacy").
      if (fn.recordsReads) fn.function.addEnvironment('AUDIT_RETENTION_DAYS', String(props.auditRetentionDays));
      // The link route's URLs and the page's own origin (shared/usecases/create-patient-link.ts, shared/http/patient-link.ts).
      if (props.patientPageOrigin && PAGE_ORIGIN_ROUTES.includes(routeName)) fn.function.addEnvironment('PATIENT_PAGE_ORIGIN', props.patientPageOrigin);
      return fn;
    });
  }
}
