/**
 * What a stage that holds patient data adds (stage file `hipaaControls`, always on in prod): the parts of
 * cdk-nag's HIPAASecurityChecks, which run on its synth (infra/app.ts), worth having. What else the checks ask
 * for is acknowledged next to its resource, with the reason. Dev has none of this: it holds no patient data,
 * and a key and backups there would cost money to protect test data.
 *
 * - One customer-managed KMS key for the stack's operational data: every log group (each function's own,
 *   the API's access and execution logs) and the alarm topic (infra/monitoring.ts). Logs are
 *   where a failure's context lands, so they get a key whose every use CloudTrail records and whose policy
 *   names who may use it. CloudWatch Logs encrypts and decrypts with it itself: the functions need no KMS
 *   right, and whoever may read a log group reads it as before. Disabling or deleting the key makes every log
 *   group it encrypts unreadable and unwritable: it is retained with the stack, rotated yearly by KMS.
 * - AWS Backup copies of the table and the documents bucket in a vault of their own, which nobody may empty
 *   early: point-in-time recovery and versioning live with the resources they protect, and whoever may delete
 *   the table or the bucket's versions takes them too; a recovery point in the vault can only expire.
 */
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** The controls a construct of the stack applies where HIPAA's checks run (undefined elsewhere). */
export interface HipaaControls {
  /** Encrypts the stack's log groups (and the alarm topic): see operationalDataKey. */
  readonly operationalDataKey: IKey;
}

/**
 * The key of the stack's operational data. Beside the account's own statement (IAM policies decide who of
 * the account may administer and use it), the key policy lets two services use it:
 * - CloudWatch Logs, for the log groups of this account and region only (the encryption context CloudWatch
 *   Logs sends names the log group's ARN);
 * - CloudWatch alarms, to publish to an SNS topic encrypted with it (an alarm cannot use the AWS-managed
 *   aws/sns key, whose policy nobody can change).
 */
export function operationalDataKey(scope: Construct, id: string): Key {
  const { account, partition, region } = Stack.of(scope);
  const key = new Key(scope, id, {
    description: `Lab API (${Stack.of(scope).stackName}): log groups and alarm topic`,
    enableKeyRotation: true,
    // Deleting the key would make every log it encrypted unreadable: it outlives the stack, like the logs.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  key.addToResourcePolicy(
    new PolicyStatement({
      sid: 'CloudWatchLogsEncryptsThisAccountsLogGroups',
      principals: [new ServicePrincipal(`logs.${region}.amazonaws.com`)],
      actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
      resources: ['*'],
      conditions: { ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${partition}:logs:${region}:${account}:log-group:*` } },
    }),
  );
  key.addToResourcePolicy(
    new PolicyStatement({
      sid: 'CloudWatchAlarmsPublishToTheEncryptedAlarmTopic',
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
    }),
  );
  return key;
}

/**
 * The backup plan's rules, UTC. Daily copies kept 35 days, as long as point-in-time recovery reaches back,
 * but outside the table and the bucket. Monthly copies kept a year, to restore a state older than that (a
 * corruption noticed late). No longer: a backup keeps the data of a person erased since (docs/privacy.md "Privacy")
 * until it expires, and the reports' own retention (documentRetentionYears) is the bucket's business, not
 * the backups'. No cold storage: S3 backups cannot move there, and DynamoDB's only with AWS Backup's advanced
 * features turned on for the account.
 */
export const BACKUP_RULES = {
  daily: { ruleName: 'Daily', schedule: { hour: '3', minute: '0' }, deleteAfterDays: 35 },
  monthly: { ruleName: 'Monthly', schedule: { day: '1', hour: '3', minute: '0' }, deleteAfterDays: 365 },
} as const;

/** What the backup role may do: AWS's managed policies for exactly that, DynamoDB's and S3's. */
export const BACKUP_ROLE_POLICIES = [
  'service-role/AWSBackupServiceRolePolicyForBackup',
  'service-role/AWSBackupServiceRolePolicyForRestores',
  'service-role/AWSBackupServiceRolePolicyForS3Backup',
  'service-role/AWSBackupServiceRolePolicyForS3Restore',
] as const;

export interface PatientDataBackupProps {
  readonly table: Table;
  /** Versioned: AWS Backup backs up only versioned buckets. */
  readonly documents: Bucket;
}

/** AWS Backup of the table and the documents bucket (docs/runbook.md says how to restore). */
export class PatientDataBackup extends Construct {
  readonly vault: BackupVault;
  readonly plan: BackupPlan;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: PatientDataBackupProps) {
    super(scope, id);
    this.vault = new BackupVault(this, 'Vault', {
      // A vault that still holds recovery points cannot be deleted anyway; prod's data outlives the stack.
      removalPolicy: RemovalPolicy.RETAIN,
      // Nobody deletes a recovery point or shortens its life: a mistake, or whoever took over a role, cannot
      // take the backups with the data. They expire by the plan's rules only.
      blockRecoveryPointDeletion: true,
    });
    this.plan = new BackupPlan(this, 'Plan', {
      // Plan names are unique per account and region: the construct's id ("Plan") would collide with any other.
      backupPlanName: `${Stack.of(this).stackName}-patient-data`,
      backupVault: this.vault,
      backupPlanRules: Object.values(BACKUP_RULES).map(
        ({ ruleName, schedule, deleteAfterDays }) =>
          new BackupPlanRule({ ruleName, scheduleExpression: Schedule.cron(schedule), deleteAfter: Duration.days(deleteAfterDays) }),
      ),
    });
    // Our own role instead of the selection's default: the default knows DynamoDB, not S3.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('backup.amazonaws.com'),
      description: 'AWS Backup: backs up and restores the Lab API table and documents bucket',
      managedPolicies: BACKUP_ROLE_POLICIES.map((name) => ManagedPolicy.fromAwsManagedPolicyName(name)),
    });
    this.plan.addSelection('PatientData', {
      resources: [BackupResource.fromDynamoDbTable(props.table), BackupResource.fromArn(props.documents.bucketArn)],
      role: this.role,
      disableDefaultBackupPolicy: true,
    });
    for (const name of BACKUP_ROLE_POLICIES) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${name}]`,
        reason:
          "The role AWS Backup assumes to back up and restore the table and the documents bucket: AWS's managed policy for exactly " +
          'that, kept up to date by AWS as the services it backs up change.',
      });
    }
  }
}
