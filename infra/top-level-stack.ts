/** The stage's own stack a construct sits in, through any nested stacks: what names, policies and checks go by. */
import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

export function topLevelStack(scope: IConstruct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}
