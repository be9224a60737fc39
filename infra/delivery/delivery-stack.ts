/**
 * The AWS side of the delivery pipeline (.github/workflows/, docs/delivery.md), deployed once per account by
 * DevOps: GitHub's OIDC provider and the roles the workflows assume with its tokens, so no AWS key is ever
 * stored in GitHub.
 *
 * - A deploy role per stage held in this account, trusted only by jobs of the GitHub environment named as
 *   the stage (`repo:<owner>/<name>:environment:<stage>`: the environment's reviewers and branch rules
 *   decide who gets there), and allowed only to assume the CDK bootstrap roles of this account and region:
 *   `cdk deploy` does the rest through them, as it does for a person.
 * - Optionally the diff role, trusted only by the repository's pull requests
 *   (`repo:<owner>/<name>:pull_request`) and allowed only to assume the bootstrap lookup role, which is what
 *   `cdk diff --method template` reads the deployed templates with.
 *
 * Every trust condition is an exact `StringEquals` on the token's audience and subject: no wildcard, no
 * branch pattern. Nothing here is an IAM user or an access key.
 */
import { CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import { OidcProviderNative, PolicyStatement, Role, WebIdentityPrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { checkedDeliverySettings, type DeliverySettings } from './settings';

export const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';
/** The audience aws-actions/configure-aws-credentials asks GitHub for, and the provider's only client. */
export const GITHUB_OIDC_AUDIENCE = 'sts.amazonaws.com';

/** The roles `cdk bootstrap` creates in an account and region, by the word in their names. */
export const BOOTSTRAP_ROLES = ['deploy', 'file-publishing', 'image-publishing', 'lookup'] as const;
export type BootstrapRole = (typeof BOOTSTRAP_ROLES)[number];

/** A bootstrap role's ARN, spelt as DefaultStackSynthesizer spells it, in the account and region deployed to. */
export const bootstrapRoleArn = (qualifier: string, role: BootstrapRole) =>
  `arn:\${AWS::Partition}:iam::\${AWS::AccountId}:role/cdk-${qualifier}-${role}-role-\${AWS::AccountId}-\${AWS::Region}`;

/** The subject of a job of `environment` (the environment's name replaces the ref in GitHub's default claim). */
export const environmentSubject = (githubRepo: string, environment: string) => `repo:${githubRepo}:environment:${environment}`;
/** The subject of a job run for a pull request (without an environment). */
export const pullRequestSubject = (githubRepo: string) => `repo:${githubRepo}:pull_request`;

/** `staging` → `Staging`, `eu-prod` → `EuProd`: an output id. */
const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_match, _dash: string, letter: string) => letter.toUpperCase());

export type DeliveryStackProps = StackProps & DeliverySettings;

export class DeliveryStack extends Stack {
  /** The deploy role of each stage, by stage. */
  readonly deployRoles: ReadonlyMap<string, Role>;
  readonly diffRole?: Role;

  constructor(scope: Construct, id: string, props: DeliveryStackProps) {
    super(scope, id, props);
    const { githubRepo, stages, diffRole, oidcProviderArn, qualifier } = checkedDeliverySettings(props);

    // An account holds one provider per URL: reuse the one there is, or create it (IAM trusts GitHub's
    // certificate authority itself, so no thumbprint is pinned).
    const providerArn =
      oidcProviderArn ??
      new OidcProviderNative(this, 'GitHubOidcProvider', {
        url: `https://${GITHUB_OIDC_HOST}`,
        clientIds: [GITHUB_OIDC_AUDIENCE],
      }).oidcProviderArn;
    new CfnOutput(this, 'OidcProviderArn', { value: providerArn });

    const trustedBy = (subject: string) =>
      new WebIdentityPrincipal(providerArn, {
        StringEquals: { [`${GITHUB_OIDC_HOST}:aud`]: GITHUB_OIDC_AUDIENCE, [`${GITHUB_OIDC_HOST}:sub`]: subject },
      });
    const mayAssume = (roles: readonly BootstrapRole[]) =>
      new PolicyStatement({ actions: ['sts:AssumeRole'], resources: roles.map((role) => Fn.sub(bootstrapRoleArn(qualifier, role))) });

    const deployRoles = new Map<string, Role>();
    for (const stage of stages) {
      const subject = environmentSubject(githubRepo, stage);
      const role = new Role(this, `DeployRole${pascal(stage)}`, {
        assumedBy: trustedBy(subject),
        description: `cdk deploy of the ${stage} stage by ${subject}: assumes the CDK bootstrap roles (${qualifier}) only`,
      });
      role.addToPolicy(mayAssume(BOOTSTRAP_ROLES));
      deployRoles.set(stage, role);
      new CfnOutput(this, `DeployRoleArn${pascal(stage)}`, {
        value: role.roleArn,
        description: `DEPLOY_ROLE_ARN of the GitHub environment ${stage}`,
      });
    }
    this.deployRoles = deployRoles;

    if (diffRole) {
      const subject = pullRequestSubject(githubRepo);
      this.diffRole = new Role(this, 'DiffRole', {
        assumedBy: trustedBy(subject),
        description: `cdk diff of pull requests (${subject}): assumes the CDK bootstrap lookup role (${qualifier}) only`,
      });
      this.diffRole.addToPolicy(mayAssume(['lookup']));
      new CfnOutput(this, 'DiffRoleArn', { value: this.diffRole.roleArn, description: 'the repository variable DIFF_ROLE_ARN' });
    }
  }
}
