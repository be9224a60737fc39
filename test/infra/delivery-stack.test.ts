/**
 * The delivery stack (infra/delivery/): the GitHub OIDC provider and the pipeline's roles, read from the
 * synthesized template. Each trust policy names exactly one audience and one subject; each role may assume
 * only CDK bootstrap roles of its own account and region; nothing holds a long-lived key.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/api-function';
import { DeliveryStack } from '../../infra/delivery/delivery-stack';
import { checkedDeliverySettings, type DeliverySettings, readDeliverySettings } from '../../infra/delivery/settings';
import { type CfnResource, type Statement, testApp } from './synth';

const REPO = 'acme/lab-api';
/** An account's existing provider, in AWS's documentation account. */
const EXISTING_PROVIDER = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
const lookupRole = (qualifier: string) => ({
  'Fn::Sub': `arn:\${AWS::Partition}:iam::\${AWS::AccountId}:role/cdk-${qualifier}-lookup-role-\${AWS::AccountId}-\${AWS::Region}`,
});
const bootstrapRoles = (qualifier: string) =>
  ['deploy', 'file-publishing', 'image-publishing', 'lookup'].map((role) => ({
    'Fn::Sub': `arn:\${AWS::Partition}:iam::\${AWS::AccountId}:role/cdk-${qualifier}-${role}-role-\${AWS::AccountId}-\${AWS::Region}`,
  }));

let app: App;
/** The account of staging: its deploy role, the diff role, a new provider, the default qualifier. */
let staging: DeliveryStack;
/** The account of prod: its deploy role only, the account's provider reused, a qualifier of its own. */
let prod: DeliveryStack;
const resources = new Map<Stack, Record<string, CfnResource>>();

beforeAll(() => {
  app = testApp();
  staging = new DeliveryStack(app, 'StagingAccount', { githubRepo: REPO, stages: ['staging'], diffRole: true, qualifier: 'hnb659fds' });
  prod = new DeliveryStack(app, 'ProdAccount', { githubRepo: REPO, stages: ['prod'], diffRole: false, oidcProviderArn: EXISTING_PROVIDER, qualifier: 'lab2' });
  for (const stack of [staging, prod]) resources.set(stack, (Template.fromStack(stack).toJSON() as { Resources: Record<string, CfnResource> }).Resources);
});

const ofType = (stack: Stack, type: string) => Object.entries(resources.get(stack)!).filter(([, resource]) => resource.Type === type);
const logicalId = (stack: Stack, role: { node: { defaultChild?: unknown } }) => stack.getLogicalId(role.node.defaultChild as never);
const trustOf = (stack: Stack, role: { node: { defaultChild?: unknown } }) =>
  resources.get(stack)![logicalId(stack, role)]!.Properties.AssumeRolePolicyDocument;
/** Every statement of every inline policy attached to the role. */
function permissionsOf(stack: Stack, role: { node: { defaultChild?: unknown } }): Statement[] {
  const id = logicalId(stack, role);
  return ofType(stack, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === id))
    .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}
const trustedBy = (provider: unknown, subject: string) => ({
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Action: 'sts:AssumeRoleWithWebIdentity',
      Principal: { Federated: provider },
      Condition: {
        StringEquals: { 'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com', 'token.actions.githubusercontent.com:sub': subject },
      },
    },
  ],
});

describe('the delivery stack: the OIDC provider', () => {
  it("creates GitHub's OIDC provider, token.actions.githubusercontent.com, with the one audience sts.amazonaws.com", () => {
    expect(ofType(staging, 'AWS::IAM::OIDCProvider').map(([, provider]) => provider.Properties)).toEqual([
      expect.objectContaining({ Url: 'https://token.actions.githubusercontent.com', ClientIdList: ['sts.amazonaws.com'] }),
    ]);
  });

  it("reuses the account's provider by its ARN and creates none", () => {
    expect(ofType(prod, 'AWS::IAM::OIDCProvider')).toEqual([]);
    expect(trustOf(prod, prod.deployRoles.get('prod')!)).toMatchObject({ Statement: [{ Principal: { Federated: EXISTING_PROVIDER } }] });
  });
});

describe('the delivery stack: trust', () => {
  it('trusts the deploy role of staging to jobs of the GitHub environment staging only: aud and sub exactly', () => {
    const [providerId] = ofType(staging, 'AWS::IAM::OIDCProvider')[0]!;
    expect(trustOf(staging, staging.deployRoles.get('staging')!)).toEqual(trustedBy({ Ref: providerId }, 'repo:acme/lab-api:environment:staging'));
  });

  it('trusts the deploy role of prod to jobs of the GitHub environment prod only: aud and sub exactly', () => {
    expect(trustOf(prod, prod.deployRoles.get('prod')!)).toEqual(trustedBy(EXISTING_PROVIDER, 'repo:acme/lab-api:environment:prod'));
  });

  it("trusts the diff role to the repository's pull requests only: aud and sub exactly", () => {
    const [providerId] = ofType(staging, 'AWS::IAM::OIDCProvider')[0]!;
    expect(trustOf(staging, staging.diffRole!)).toEqual(trustedBy({ Ref: providerId }, 'repo:acme/lab-api:pull_request'));
  });

  it('names a repository with immutable subject claims as owner@<id>/name@<id> in the subject', () => {
    const stack = new DeliveryStack(testApp(), 'Immutable', {
      githubRepo: 'acme@1234/lab-api@5678',
      stages: ['staging'],
      diffRole: false,
      qualifier: 'hnb659fds',
    });
    const role = Object.values((Template.fromStack(stack).toJSON() as { Resources: Record<string, CfnResource> }).Resources).find(
      (resource) => resource.Type === 'AWS::IAM::Role',
    )!;
    expect(JSON.stringify(role.Properties.AssumeRolePolicyDocument)).toContain('"repo:acme@1234/lab-api@5678:environment:staging"');
  });

  it('trusts no role to a subject pattern: every condition is StringEquals, no value holds a wildcard', () => {
    for (const stack of [staging, prod]) {
      for (const [id, role] of ofType(stack, 'AWS::IAM::Role')) {
        for (const statement of (role.Properties.AssumeRolePolicyDocument as { Statement: Statement[] }).Statement) {
          expect(Object.keys(statement.Condition as object), id).toEqual(['StringEquals']);
          expect(JSON.stringify(statement.Condition), id).not.toContain('*');
        }
      }
    }
  });
});

describe('the delivery stack: permissions', () => {
  it('lets the deploy role only assume the four CDK bootstrap roles of its account and region', () => {
    expect(permissionsOf(staging, staging.deployRoles.get('staging')!)).toEqual([
      { Effect: 'Allow', Action: 'sts:AssumeRole', Resource: bootstrapRoles('hnb659fds') },
    ]);
  });

  it('lets the diff role only assume the bootstrap lookup role of its account and region', () => {
    expect(permissionsOf(staging, staging.diffRole!)).toEqual([{ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: lookupRole('hnb659fds') }]);
  });

  it('names the bootstrap roles of the qualifier it is given', () => {
    expect(permissionsOf(prod, prod.deployRoles.get('prod')!)).toEqual([{ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: bootstrapRoles('lab2') }]);
  });

  it('creates no diff role where it is not asked for', () => {
    expect(prod.diffRole).toBeUndefined();
    expect(ofType(prod, 'AWS::IAM::Role')).toHaveLength(1);
  });

  it('holds no IAM user, access key, group or managed policy: the provider, the roles and their policies only', () => {
    for (const stack of [staging, prod]) {
      const types = new Set(Object.values(resources.get(stack)!).map((resource) => resource.Type));
      types.delete('AWS::CDK::Metadata');
      expect([...types].sort()).toEqual(
        stack === staging ? ['AWS::IAM::OIDCProvider', 'AWS::IAM::Policy', 'AWS::IAM::Role'] : ['AWS::IAM::Policy', 'AWS::IAM::Role'],
      );
    }
  });

  it('gives each role its ARN as an output, named for the GitHub variable it fills', () => {
    const outputs = Template.fromStack(staging).toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual(['DeployRoleArnStaging', 'DiffRoleArn', 'OidcProviderArn']);
    expect(outputs.DiffRoleArn!.Value).toEqual({ 'Fn::GetAtt': [logicalId(staging, staging.diffRole!), 'Arn'] });
  });

  it("finds nothing with cdk-nag's AwsSolutions checks", () => {
    app.synth();
    const findings = [staging, prod].flatMap((stack) => new AwsSolutionsChecks().validateScope(stack).violations.map((v) => v.ruleName));
    expect(findings).toEqual([]);
  });
});

describe('the delivery settings', () => {
  const valid: DeliverySettings = { githubRepo: REPO, stages: ['staging'], diffRole: true, qualifier: 'hnb659fds' };

  it.each(['acme/*', '*', 'acme', 'acme/lab-api:ref:refs/heads/main', 'acme/lab api', 'acme@1234/lab-api', 'acme/lab-api@5678'])(
    'refuses the repository %j: a subject must name one repository exactly',
    (githubRepo) => {
      expect(() => checkedDeliverySettings({ ...valid, githubRepo })).toThrow(/githubRepo must be owner\/name/);
    },
  );

  it.each(['*', 'prod:ref', 'Prod', 'staging prod', ''])('refuses the stage %j: an environment is a plain name', (stage) => {
    expect(() => checkedDeliverySettings({ ...valid, stages: [stage] })).toThrow(/is not a stage name/);
  });

  it("refuses the diff role in the account of prod, whose data CDK's lookup role could read", () => {
    expect(() => checkedDeliverySettings({ ...valid, stages: ['staging', 'prod'] })).toThrow(/diffRole: never in the prod stage's account/);
  });

  it('refuses prod beside another stage in one account, whose role could change prod without its reviewers', () => {
    expect(() => checkedDeliverySettings({ ...valid, diffRole: false, stages: ['staging', 'prod'] })).toThrow(
      /stages: prod shares its account with no other stage/,
    );
  });

  it("refuses a provider ARN that is not an account's GitHub OIDC provider", () => {
    expect(() => checkedDeliverySettings({ ...valid, oidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/example.com' })).toThrow(/oidcProviderArn/);
  });

  it('refuses a stack with no role in it', () => {
    expect(() => checkedDeliverySettings({ ...valid, stages: [], diffRole: false })).toThrow(/Nothing to create/);
  });

  it('reads -c values as the CLI gives them (strings), the qualifier from the context key the LabApi app reads', () => {
    const context = { githubRepo: REPO, stages: 'staging, qa', diffRole: 'false', '@aws-cdk/core:bootstrapQualifier': 'lab2' };
    expect(readDeliverySettings(testApp(context))).toEqual({ githubRepo: REPO, stages: ['staging', 'qa'], diffRole: false, qualifier: 'lab2' });
  });

  it('requires the repository', () => {
    expect(() => readDeliverySettings(testApp({ stages: 'staging' }))).toThrow(/requires -c githubRepo=<owner>\/<name>/);
  });
});

describe('the delivery app', () => {
  it('synthesizes LabApiDelivery from the -c values, with the service tags, and its validation report lists no finding', () => {
    const outdir = mkdtempSync(join(process.env.LAB_TEST_CDK_OUTDIR!, 'delivery-'));
    try {
      // What `cdk synth -a "npx tsx infra/delivery/app.ts" -c …` hands the app: the context as JSON, an output folder.
      const context = { githubRepo: REPO, stages: 'staging', diffRole: 'true' };
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'infra', 'delivery', 'app.ts')], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: outdir },
        timeout: 120_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const template = JSON.parse(readFileSync(join(outdir, 'LabApiDelivery.template.json'), 'utf8')) as { Resources: Record<string, CfnResource> };
      const roles = Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::IAM::Role');
      expect(roles).toHaveLength(2);
      for (const role of roles) expect(role.Properties.Tags).toEqual(expect.arrayContaining([{ Key: 'service', Value: 'lab-api' }]));
      const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: unknown[] };
      expect(report.pluginReports).toEqual([]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
