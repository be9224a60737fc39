/**
 * Per-key request limits in AWS: API Gateway usage plans, counted under the usage identifier the
 * authorizer answers for each key it allows (shared/auth/usage-identifier.ts; the API's key source is
 * AUTHORIZER, and every keyed method requires an API key, so a request is counted before its function
 * runs and refused 429 over the limit without invoking it).
 *
 * The stage's key plan holds every key without limits of its own, each with its own token bucket and daily
 * counter (a plan's limits apply per key, never to the plan's keys together); a key with its own limits
 * gets a plan of its own (infra/cli/key-usage-plans.ts, run by the keys CLI, which also registers each new
 * key: the stack output KeyUsagePlanId names this plan). The stage-wide throttle stays the ceiling over all.
 *
 * What it costs: nothing. Usage plans and API keys are free; the counting is API Gateway's, inside the
 * request it bills anyway. Its limits are what AWS calls best effort (a burst may briefly pass a few
 * requests more), and quotas of a day reset at 00:00 UTC, as the local server's do.
 */
import { CfnOutput, Stack } from 'aws-cdk-lib';
import { Period, type RestApi, type UsagePlan } from 'aws-cdk-lib/aws-apigateway';
import type { StackSettings } from './settings';

export function keyUsagePlan(api: RestApi, limits: StackSettings['keyLimits']): UsagePlan {
  const stackName = Stack.of(api).stackName;
  const plan = api.addUsagePlan('KeyUsagePlan', {
    name: `${stackName} keys`,
    description: 'Each API key without limits of its own (stage file keyLimits), counted per key',
    throttle: { rateLimit: limits.rateLimit, burstLimit: limits.burstLimit },
    ...(limits.dailyQuota === null ? {} : { quota: { limit: limits.dailyQuota, period: Period.DAY } }),
  });
  plan.addApiStage({ stage: api.deploymentStage });
  new CfnOutput(Stack.of(api), 'KeyUsagePlanId', {
    value: plan.usagePlanId,
    description: 'npm run keys -- create --table <TableName> --usage-plan <this> …',
  });
  return plan;
}
