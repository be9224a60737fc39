/**
 * Synthesizing the stack for the infra tests: with cdk.json's context (the feature flags), so that the
 * template tested is the one `cdk synth` makes, and without bundling (fast). Plus readers of the
 * resulting template: resources by type, a role's policies, the functions by construct.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { LabFunction, REPO_ROOT } from '../../infra/api-function';
import { LabApiStack } from '../../infra/lab-api-stack';
import type { StageName } from '../../infra/settings';

export interface CfnResource {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}
export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Principal?: unknown;
  Condition?: unknown;
  Sid?: string;
}
export type Ref = { Ref?: string };

const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };

/** A CDK app as `cdk synth` builds it, with extra context (`-c key=value` gives strings). */
export function testApp(context: Record<string, unknown> = {}): App {
  return new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...context } });
}

export function labApiStack(app: App, stage: StageName): LabApiStack {
  return new LabApiStack(app, `LabApi-${stage}`, { stage });
}

/** The stack's template and helpers to read it. */
export class Synthesized {
  readonly template: Template;
  readonly resources: Record<string, CfnResource>;
  /** Every Lambda of the stack by its construct, with the logical ids of its function, role and log group. */
  readonly functions: { construct: LabFunction; fn: string; role: string; logGroup: string }[];

  constructor(readonly stack: Stack) {
    this.template = Template.fromStack(stack);
    this.resources = (this.template.toJSON() as { Resources: Record<string, CfnResource> }).Resources;
    const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
    this.functions = stack.node
      .findAll()
      .filter((c): c is LabFunction => c instanceof LabFunction)
      .map((construct) => ({
        construct,
        fn: logicalId(construct.function),
        role: logicalId(construct.function.role!),
        logGroup: logicalId(construct.logGroup),
      }));
  }

  ofType(type: string): [string, CfnResource][] {
    return Object.entries(this.resources).filter(([, resource]) => resource.Type === type);
  }

  onlyOfType(type: string): [string, CfnResource] {
    const found = this.ofType(type);
    if (found.length !== 1) throw new Error(`expected one ${type}, found ${found.length}`);
    return found[0]!;
  }

  logicalIdOf(construct: { node: { defaultChild?: unknown } }): string {
    return this.stack.getLogicalId(construct.node.defaultChild as CfnElement);
  }

  /** Every API Gateway method with its path, rebuilt by walking each resource's PathPart and ParentId. */
  apiMethods(): { method: string; path: string; properties: Record<string, unknown> }[] {
    const parentOf = (ref: unknown) => (ref as Ref).Ref; // undefined: the API's root resource
    const pathOf = (resourceId: string | undefined): string => {
      if (resourceId === undefined) return '';
      const resource = this.resources[resourceId]!.Properties;
      return `${pathOf(parentOf(resource.ParentId))}/${String(resource.PathPart)}`;
    };
    return this.ofType('AWS::ApiGateway::Method').map(([, method]) => ({
      method: String(method.Properties.HttpMethod),
      path: pathOf(parentOf(method.Properties.ResourceId)) || '/',
      properties: method.Properties,
    }));
  }

  /** The statements of the IAM policies attached to a role. */
  statementsOf(roleId: string): Statement[] {
    return this.ofType('AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties.Roles as Ref[]).some((role) => role.Ref === roleId))
      .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  }

  allowedActions(roleId: string, prefix = ''): string[] {
    return this.statementsOf(roleId)
      .filter((statement) => statement.Effect === 'Allow')
      .flatMap((statement) => [statement.Action].flat())
      .filter((action) => action.startsWith(prefix))
      .sort();
  }

  /** The statements of a resource policy (bucket, queue, topic) attached to the resource `id`. */
  resourcePolicy(type: string, attachedBy: (properties: Record<string, unknown>) => unknown, id: string): Statement[] {
    return this.ofType(type)
      .filter(([, policy]) => JSON.stringify(attachedBy(policy.Properties)).includes(`"${id}"`))
      .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  }
}

export const str = (value: unknown): string => JSON.stringify(value) ?? '';
