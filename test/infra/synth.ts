/**
 * Synthesizing the stack for the infra tests: with cdk.json's context (the feature flags), so that the
 * template tested is the one `cdk synth` makes, and without bundling (fast). Plus readers of the
 * resulting template: resources by type, a role's policies, the functions by construct.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement, NestedStack, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { Template } from 'aws-cdk-lib/assertions';
import { LabFunction, REPO_ROOT } from '../../infra/api-function';
import { LabApiStack } from '../../infra/lab-api-stack';
import type { StageName } from '../../infra/settings';
import type { LabInterfaceSettings } from '../../infra/stages/stage-file';

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

/**
 * A CDK app as `cdk synth` builds it, with extra context (`-c key=value` gives strings), writing into the
 * test file's temporary folder (test/support/cdk-outdir.setup.ts), never synthesizing by itself.
 */
export function testApp(context: Record<string, unknown> = {}): App {
  return new App({
    outdir: process.env.LAB_TEST_CDK_OUTDIR,
    autoSynth: false,
    context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...context },
  });
}

export function labApiStack(app: App, stage: StageName): LabApiStack {
  return new LabApiStack(app, `LabApi-${stage}`, { stage });
}

/** A stage file's lab interface as DevOps fill it in (infra/stages/prod.ts shows it commented out). */
export const EXAMPLE_LAB_INTERFACE: LabInterfaceSettings = {
  host: 'mllp.lab.example.net',
  port: 2575,
  tls: true,
  sendingFacility: 'LABAPI-PROD',
  receivingApplication: 'LIS',
  receivingFacility: 'CENTRAL-LAB',
  vpcId: 'vpc-0123456789abcdef0',
  subnetIds: ['subnet-0123456789abcdef0', 'subnet-0fedcba9876543210'],
  labCidr: '10.20.0.0/16',
};

type Json = unknown;
interface TemplateJson {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: Json }>;
  Parameters?: Record<string, unknown>;
  [section: string]: unknown;
}

/**
 * The stack and its nested stacks as one template, as if they were one stack: a nested stack's parameter
 * reads as the value the parent gives it, and the parent's `Fn::GetAtt [<nested stack>, Outputs.<name>]` as
 * that output's value. So `{ Ref: <table> }` means the table wherever a function sits, and the tests read
 * what is deployed, not how it is split (infra/route-stacks.ts). Logical ids must not repeat across stacks.
 */
function flattened(stack: Stack): TemplateJson {
  const templateOf = (s: Stack) => Template.fromStack(s).toJSON() as TemplateJson;
  const parent = templateOf(stack);
  const nested = stack.node
    .findAll()
    .filter((c): c is NestedStack => NestedStack.isNestedStack(c) && c.nestedStackParent === stack)
    .map((n) => ({ id: stack.getLogicalId(n.nestedStackResource as CfnElement), template: templateOf(n) }));
  const byId = new Map(nested.map((n) => [n.id, n]));

  // A value of the parent's template, with nested stacks' outputs replaced by what they are.
  const inParent = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(inParent);
    if (value === null || typeof value !== 'object') return value;
    const getAtt = (value as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
    if (getAtt && byId.has(getAtt[0]) && getAtt[1].startsWith('Outputs.')) {
      const child = byId.get(getAtt[0])!;
      return inNested(child.id, child.template.Outputs![getAtt[1].slice('Outputs.'.length)]!.Value);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inParent(v)]));
  };
  // A value of a nested template, with its parameters replaced by the parent's values for them.
  const inNested = (id: string, value: Json): Json => {
    if (Array.isArray(value)) return value.map((v) => inNested(id, v));
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as { Ref?: string }).Ref;
    const given = (parent.Resources[id]!.Properties.Parameters ?? {}) as Record<string, Json>;
    if (ref !== undefined && ref in given) return inParent(given[ref]);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inNested(id, v)]));
  };

  const resources: Record<string, CfnResource> = {};
  const add = (id: string, resource: CfnResource) => {
    if (id in resources) throw new Error(`logical id ${id} is in two stacks`);
    resources[id] = resource;
  };
  for (const [id, resource] of Object.entries(parent.Resources)) add(id, inParent(resource) as CfnResource);
  for (const { id, template } of nested) for (const [rid, resource] of Object.entries(template.Resources)) add(rid, inNested(id, resource) as CfnResource);
  return { ...parent, Resources: resources, Outputs: inParent(parent.Outputs ?? {}) as TemplateJson['Outputs'] };
}

/** The stack's template (its nested stacks' resources included, see flattened) and helpers to read it. */
export class Synthesized {
  readonly template: Template;
  readonly resources: Record<string, CfnResource>;
  /** Every Lambda of the stack by its construct, with the logical ids of its function, role and log group. */
  readonly functions: { construct: LabFunction; fn: string; role: string; logGroup: string }[];

  constructor(readonly stack: Stack) {
    this.template = Template.fromJSON(flattened(stack));
    this.resources = (this.template.toJSON() as { Resources: Record<string, CfnResource> }).Resources;
    this.functions = stack.node
      .findAll()
      .filter((c): c is LabFunction => c instanceof LabFunction)
      .map((construct) => ({
        construct,
        fn: this.logicalIdOf(construct.function),
        role: this.logicalIdOf(construct.function.role!),
        logGroup: this.logicalIdOf(construct.logGroup),
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

  logicalIdOf(construct: IConstruct): string {
    return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
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
