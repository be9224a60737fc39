/**
 * No X-Ray trace of a request whose path carries a token (issue #53: the patient's link, `/p/{token}`; #52:
 * the unsubscribe link, `/u/{token}`): API Gateway's trace segment records the request's URL, token included,
 * and keeps it for 30 days where anyone who reads traces sees it. An X-Ray sampling rule of the highest
 * priority samples none of them (reservoir 0, rate 0); API Gateway then tells the function's own segment
 * not to sample either. The prefixes come from the routes table (`secretPath`), so a new token route is covered
 * by being declared one.
 */
import { CfnSamplingRule } from 'aws-cdk-lib/aws-xray';
import type { Construct } from 'constructs';
import { routeEntries } from '../shared/routes';

/** The static part of each secret route's path before its first parameter: `/p/`, `/u/`. */
export const secretPathPrefixes = (): string[] => [
  ...new Set(routeEntries.flatMap(([, route]) => ('secretPath' in route && route.secretPath ? [route.path.slice(0, route.path.indexOf('{'))] : []))),
];

export function untraceSecretPaths(scope: Construct, stage: string): CfnSamplingRule[] {
  return secretPathPrefixes().map(
    (prefix, i) =>
      new CfnSamplingRule(scope, `UntracedSecretPath${i}`, {
        samplingRule: {
          // X-Ray rule names are account-wide: the stage keeps them apart; at most 32 characters.
          ruleName: `lab-${stage}-notrace-${prefix.replaceAll('/', '')}`.slice(0, 32),
          priority: 1,
          reservoirSize: 0,
          fixedRate: 0,
          serviceName: '*',
          serviceType: 'AWS::ApiGateway::Stage',
          host: '*',
          httpMethod: '*',
          // API Gateway's URL path may carry the stage before the route's own path.
          urlPath: `*${prefix}*`,
          resourceArn: '*',
          version: 1,
        },
      }),
  );
}
