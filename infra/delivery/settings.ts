/**
 * What the delivery stack of one AWS account holds, read from `cdk deploy -a "npx tsx infra/delivery/app.ts"
 * -c key=value` and checked here: a value that would widen a trust policy (a wildcard, a malformed
 * repository) fails the synth with its name, before anything is deployed.
 *
 * | context key                        | meaning                                                                              |
 * |------------------------------------|--------------------------------------------------------------------------------------|
 * | `githubRepo`                       | required: the repository as its OIDC subject names it, `owner/name` or, where GitHub uses immutable subject claims, `owner@<owner id>/name@<repository id>` |
 * | `stages`                           | the stages deployed into this account, comma-separated (`staging,prod`): one deploy role each, trusted by the GitHub environment of the same name |
 * | `diffRole`                         | `true`: the read-only role the pull requests' `cdk diff` assumes (the account of `staging` only) |
 * | `oidcProviderArn`                  | the account's GitHub OIDC provider, where it already has one (an account holds one per URL) |
 * | `@aws-cdk/core:bootstrapQualifier` | the qualifier of `cdk bootstrap --qualifier`, as the LabApi app reads it (default `hnb659fds`) |
 */
import type { IConstruct } from 'constructs';

export interface DeliverySettings {
  /** `owner/name`, or `owner@<id>/name@<id>`: exactly what follows `repo:` in the token's `sub`. */
  readonly githubRepo: string;
  /** GitHub environments (named as the stages they deploy) whose deploy roles this account holds. */
  readonly stages: readonly string[];
  /** Whether this account holds the role of the pull requests' `cdk diff`. */
  readonly diffRole: boolean;
  /** Reuse this OIDC provider instead of creating one. */
  readonly oidcProviderArn?: string;
  /** The CDK bootstrap qualifier the deploy roles may use the roles of. */
  readonly qualifier: string;
}

export const DEFAULT_QUALIFIER = 'hnb659fds';
const QUALIFIER_CONTEXT = '@aws-cdk/core:bootstrapQualifier';

/**
 * GitHub's owner (account) and repository name rules, each optionally followed by `@` and its immutable
 * numeric id (both or neither): the two forms of the `repo:` part of a default subject claim.
 */
const REPOSITORY = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}|[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})@\d+\/[A-Za-z0-9._-]{1,100}@\d+)$/;
/** A stage, and so a GitHub environment: a plain name, nothing a subject claim could read as a pattern or a separator. */
const STAGE = /^[a-z][a-z0-9-]{0,39}$/;
/** What `cdk bootstrap --qualifier` accepts. */
const QUALIFIER = /^[A-Za-z0-9_-]{1,10}$/;
const OIDC_PROVIDER_ARN = /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/token\.actions\.githubusercontent\.com$/;

/** A `-c` value as a string, or undefined when not given (or given empty). */
function text(scope: IConstruct, key: string): string | undefined {
  const raw: unknown = scope.node.tryGetContext(key);
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') throw new Error(`Context ${key} must be a string, got ${JSON.stringify(raw)}`);
  return raw.trim();
}

function flag(scope: IConstruct, key: string): boolean {
  const raw: unknown = scope.node.tryGetContext(key);
  if (raw === undefined || raw === false || raw === 'false') return false;
  if (raw === true || raw === 'true') return true;
  throw new Error(`Context ${key} must be true or false, got ${JSON.stringify(raw)}`);
}

/** The settings a delivery stack is built from, checked: throws naming the value at fault. */
export function checkedDeliverySettings(settings: DeliverySettings): DeliverySettings {
  if (!REPOSITORY.test(settings.githubRepo)) {
    throw new Error(
      `githubRepo must be owner/name or owner@<owner id>/name@<repository id>, exactly as the OIDC subject names it, got ${JSON.stringify(settings.githubRepo)}`,
    );
  }
  for (const stage of settings.stages) {
    if (!STAGE.test(stage)) throw new Error(`stages: ${JSON.stringify(stage)} is not a stage name (lower-case letters, digits, hyphens)`);
  }
  if (new Set(settings.stages).size !== settings.stages.length) throw new Error(`stages: ${settings.stages.join(',')} names a stage twice`);
  // The lookup role the diff role assumes may read every table and bucket of its account (CDK's bootstrap gives
  // it AWS's ReadOnlyAccess), and a pull request runs its branch's own workflow, unreviewed.
  if (settings.diffRole && settings.stages.includes('prod')) {
    throw new Error(
      "diffRole: never in the prod stage's account (through CDK's lookup role, any pull request could read its data); give it to staging's account",
    );
  }
  // Another stage's deploy role in prod's account could change prod through the bootstrap's execution role
  // (AdministratorAccess by default) without the reviewers of the environment prod: prod's account is its own.
  if (settings.stages.includes('prod') && settings.stages.length > 1) {
    throw new Error(`stages: prod shares its account with no other stage (${settings.stages.join(',')}): another stage's role could change prod unreviewed`);
  }
  if (settings.stages.length === 0 && !settings.diffRole) throw new Error('Nothing to create: give -c stages=<stage,…> and/or -c diffRole=true');
  if (!QUALIFIER.test(settings.qualifier))
    throw new Error(`The bootstrap qualifier must be 1 to 10 letters, digits, _ or -, got ${JSON.stringify(settings.qualifier)}`);
  if (settings.oidcProviderArn !== undefined && !OIDC_PROVIDER_ARN.test(settings.oidcProviderArn)) {
    throw new Error(
      `oidcProviderArn must be the ARN of an account's token.actions.githubusercontent.com provider, got ${JSON.stringify(settings.oidcProviderArn)}`,
    );
  }
  return settings;
}

/** The settings of `-c githubRepo=… -c stages=… -c diffRole=… -c oidcProviderArn=…`, checked. */
export function readDeliverySettings(scope: IConstruct): DeliverySettings {
  const githubRepo = text(scope, 'githubRepo');
  if (githubRepo === undefined)
    throw new Error('The delivery stack requires -c githubRepo=<owner>/<name> (the repository whose workflows may assume its roles)');
  const stages = text(scope, 'stages');
  const oidcProviderArn = text(scope, 'oidcProviderArn');
  return checkedDeliverySettings({
    githubRepo,
    stages: stages === undefined ? [] : stages.split(',').map((stage) => stage.trim()),
    diffRole: flag(scope, 'diffRole'),
    ...(oidcProviderArn === undefined ? {} : { oidcProviderArn }),
    qualifier: text(scope, QUALIFIER_CONTEXT) ?? DEFAULT_QUALIFIER,
  });
}
