/**
 * What API Gateway holds once per account and region, whatever the stages deployed there: the role it
 * writes every stage's execution logs with (`AWS::ApiGateway::Account`, one setting per account and region).
 *
 * A stack of its own, `LabApi-account`, in the same app as the stages: each stage's stack whose file says
 * apiGatewayCloudWatchRole (infra/stages/) depends on it, so `cdk deploy LabApi-<stage>` deploys it first,
 * and only while it is new or changed; a second stage in the same account and region finds it deployed, with
 * no flag. Before, each stage's stack set the role itself, and the second one in an account needed
 * `-c apiGatewayCloudWatchRole=false`. Where the account has the role already (a landing zone's), the stage
 * files say apiGatewayCloudWatchRole: false and the app has no such stack.
 *
 * The role and the setting are retained when the stack is deleted: a stage's logging must never depend on
 * this stack staying, and termination protection keeps `cdk destroy` from taking it (and, with it, the stages
 * that depend on it) by accident.
 */
import { RemovalPolicy, Stack, Stage, Validations } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/** Its name: the same in every app, so that every stage in an account and region shares the one stack. */
export const ACCOUNT_STACK_ID = 'LabApi-account';

const PUSH_TO_CLOUDWATCH_LOGS = 'service-role/AmazonAPIGatewayPushToCloudWatchLogs';

export class AccountStack extends Stack {
  /** The role API Gateway writes execution logs with, in this account and region. */
  readonly apiGatewayCloudWatchRole: Role;

  /** The account stack of the app (or stage) `scope` belongs to, created by the first stage's stack that asks. */
  static sharedBy(scope: Construct): AccountStack {
    const owner = Stage.isStage(scope) ? scope : Stage.of(scope);
    if (!owner) throw new Error(`${scope.node.path} is in no CDK app`);
    const found = owner.node.tryFindChild(ACCOUNT_STACK_ID);
    if (found instanceof AccountStack) return found;
    if (found) throw new Error(`${owner.node.path}/${ACCOUNT_STACK_ID} is not the account stack`);
    return new AccountStack(owner, ACCOUNT_STACK_ID);
  }

  private constructor(scope: Construct, id: string) {
    super(scope, id, {
      description: 'Lab API: what every stage of this account and region shares (API Gateway logging role)',
      terminationProtection: true,
    });
    this.apiGatewayCloudWatchRole = new Role(this, 'ApiGatewayCloudWatchRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway writes the execution logs of every REST API stage of this account and region',
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName(PUSH_TO_CLOUDWATCH_LOGS)],
    });
    this.apiGatewayCloudWatchRole.applyRemovalPolicy(RemovalPolicy.RETAIN);
    Validations.of(this.apiGatewayCloudWatchRole).acknowledge({
      id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${PUSH_TO_CLOUDWATCH_LOGS}]`,
      reason:
        "The account's and region's role API Gateway writes logs with: AWS's managed policy for exactly that purpose, " +
        'kept up to date by AWS. Stage files say apiGatewayCloudWatchRole: false where the account has one already.',
    });
    const account = new CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: this.apiGatewayCloudWatchRole.roleArn });
    account.applyRemovalPolicy(RemovalPolicy.RETAIN);
  }
}
