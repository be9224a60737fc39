/**
 * What a stage's settings make of the data and logs its stack creates (stage file retainData and
 * logRetention, infra/settings.ts): decided once by the stage's stack (infra/lab-api-stack.ts), read by each
 * construct that creates a table, queue or log group, in whichever nested stack it sits. So every one of
 * them follows the stage file, and none looks at the stage's name.
 */
import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';
import { topLevelStack } from './top-level-stack';

export interface DataPolicy {
  /** RETAIN: the table, the queues and every log group outlive the stack (retainData); DESTROY: they go with it. */
  readonly removalPolicy: RemovalPolicy;
  readonly logRetention: RetentionDays;
}

const policies = new WeakMap<Stack, DataPolicy>();

export const dataPolicy = (settings: { retainData: boolean; logRetention: RetentionDays }): DataPolicy => ({
  removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  logRetention: settings.logRetention,
});

/** The policy of every construct in `stack` and its nested stacks. */
export function setDataPolicy(stack: Stack, policy: DataPolicy): void {
  policies.set(stack, policy);
}

/** The policy of the top-level stack `scope` sits in; a construct outside a stage's stack has none, and says so. */
export function dataPolicyOf(scope: IConstruct): DataPolicy {
  const stack = topLevelStack(scope);
  const policy = policies.get(stack);
  if (!policy) throw new Error(`${scope.node.path}: the stack ${stack.node.path} set no data policy (infra/data-policy.ts): only a stage's stack creates data`);
  return policy;
}
