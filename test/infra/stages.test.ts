/**
 * The stages as their files make them. The dev stage, synthesized once with the context a deployer may pass
 * on the command line (strings): throttling, a lab account, and an account whose API Gateway logging role is
 * already set; dev has no alarms and takes its table, queues and logs with it; buckets stay (S3 cannot delete
 * full buckets). The staging stage as `-c stage=staging` synthesizes it. Several stages in one app, as in one
 * account: one account stack holds API Gateway's logging role, and every stage's stack depends on it. And
 * production behaviour following the stage file's settings, whatever the stage's name.
 */
import type { App } from 'aws-cdk-lib';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_STACK_ID } from '../../infra/account-stack';
import { LabApiStack } from '../../infra/lab-api-stack';
import { STAGE_FILES, stageOf } from '../../infra/settings';
import { LAB_PARTNER_SOURCE } from '../../shared/events/lab-results-reported';
import { type Statement, str, Synthesized, labApiStack, testApp } from './synth';

/** The stacks a stack of the assembly depends on (not its asset manifest). */
const stacksBefore = (assembly: CloudAssembly, name: string) =>
  assembly
    .getStackByName(name)
    .dependencies.map((dependency) => dependency.id)
    .filter((id) => assembly.stacks.some((stack) => stack.id === id));

const LAB_ACCOUNT = '123456789012';
let dev: Synthesized;

beforeAll(() => {
  dev = new Synthesized(
    labApiStack(
      testApp({
        apiThrottleRate: '20',
        apiThrottleBurst: '40',
        labAccountId: LAB_ACCOUNT,
        apiGatewayCloudWatchRole: 'false',
      }),
      'dev',
    ),
  );
});

const labPrincipal = (statement: Statement) => str(statement.Principal).includes(`:iam::${LAB_ACCOUNT}:root`);

describe('the LabApi stack (dev, with context)', () => {
  it("takes the stage's throttling from the apiThrottleRate and apiThrottleBurst context values", () => {
    const stage = dev.onlyOfType('AWS::ApiGateway::Stage')[1].Properties;
    expect(stage).toMatchObject({ StageName: 'dev', MethodSettings: [expect.objectContaining({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 })] });
  });

  it("leaves the account's API Gateway logging role alone with apiGatewayCloudWatchRole=false", () => {
    expect(dev.ofType('AWS::ApiGateway::Account')).toEqual([]);
    expect(dev.ofType('AWS::IAM::Role').filter(([, role]) => str(role.Properties).includes('apigateway.amazonaws.com'))).toEqual([]);
  });

  it('sets WEBHOOKS_ALLOW_LOOPBACK (local stack only) on no function of the dev stack either', () => {
    expect(dev.ofType('AWS::Lambda::Function').length).toBeGreaterThan(0);
    expect(str(dev.template.toJSON())).not.toContain('WEBHOOKS_ALLOW_LOOPBACK');
  });

  it('has no alarms and no alarm topic', () => {
    expect(dev.ofType('AWS::CloudWatch::Alarm')).toEqual([]);
    expect(dev.ofType('AWS::SNS::Topic')).toEqual([]);
    expect(dev.ofType('AWS::Logs::MetricFilter')).toEqual([]);
  });

  it('has no HIPAA controls (a sandbox without patient data): no KMS key, log groups without one, no backup plan', () => {
    expect(dev.ofType('AWS::KMS::Key')).toEqual([]);
    for (const [id, logGroup] of dev.ofType('AWS::Logs::LogGroup')) expect(logGroup.Properties.KmsKeyId, id).toBeUndefined();
    expect(Object.values(dev.resources).filter((resource) => resource.Type.startsWith('AWS::Backup::'))).toEqual([]);
  });

  it('deletes the table (no deletion protection), the queues and the log groups with the stack, but keeps the buckets', () => {
    const [, table] = dev.onlyOfType('AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties.DeletionProtectionEnabled).toBe(false);
    for (const type of ['AWS::SQS::Queue', 'AWS::Logs::LogGroup']) {
      for (const [id, resource] of dev.ofType(type)) expect(resource.DeletionPolicy, id).toBe('Delete');
    }
    for (const [id, bucket] of dev.ofType('AWS::S3::Bucket')) expect(bucket.DeletionPolicy, id).toBe('Retain');
    for (const { fn } of dev.functions) {
      const logGroupId = (dev.resources[fn]!.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(dev.resources[logGroupId]!.Properties.RetentionInDays).toBe(30);
    }
  });

  it('with labAccountId, lets the lab put lab-partner events on the bus, and nothing else there', () => {
    const [, policy] = dev.onlyOfType('AWS::Events::EventBusPolicy');
    const statement = policy.Properties.Statement as Statement;
    expect(labPrincipal(statement)).toBe(true);
    expect(statement).toMatchObject({
      Effect: 'Allow',
      Action: 'events:PutEvents',
      Condition: { StringEquals: { 'events:source': LAB_PARTNER_SOURCE } },
    });
  });

  it('with labAccountId, lets the lab upload under incoming/ only, and poll its orders queue', () => {
    const bucketId = dev.logicalIdOf(dev.stack.node.findChild('Documents'));
    const bucketStatements = dev.resourcePolicy('AWS::S3::BucketPolicy', (p) => p.Bucket, bucketId).filter(labPrincipal);
    expect(bucketStatements).toHaveLength(1);
    expect(bucketStatements[0]).toMatchObject({ Effect: 'Allow', Action: 's3:PutObject' });
    expect(str(bucketStatements[0]!.Resource)).toContain('/incoming/*');

    const queueStatements = dev
      .ofType('AWS::SQS::QueuePolicy')
      .flatMap(([, p]) =>
        (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement.filter(labPrincipal).map((s) => ({ s, queues: p.Properties.Queues })),
      );
    expect(queueStatements).toHaveLength(1);
    expect([queueStatements[0]!.s.Action].flat()).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect([queueStatements[0]!.s.Action].flat()).not.toContain('sqs:SendMessage');
    expect(str(queueStatements[0]!.queues)).toMatch(/LabOrdersQueue(?!.*DeadLetter)/);
  });
});

/** Whether the stack takes the table (without deletion protection), the queues and the log groups with it. */
function dataGoesWithTheStack(stack: Synthesized): boolean {
  const [, table] = stack.onlyOfType('AWS::DynamoDB::Table');
  const policies = ['AWS::SQS::Queue', 'AWS::Logs::LogGroup'].flatMap((type) => stack.ofType(type).map(([, resource]) => resource.DeletionPolicy));
  const deleted = [table.DeletionPolicy, ...policies].every((policy) => policy === 'Delete');
  const retained = [table.DeletionPolicy, ...policies].every((policy) => policy === 'Retain');
  if (deleted === retained) throw new Error('some data goes with the stack, some stays');
  expect(table.Properties.DeletionProtectionEnabled).toBe(retained);
  return deleted;
}

/** Every log group's retention, in days (one value when all agree). */
const logRetentions = (stack: Synthesized) => [...new Set(stack.ofType('AWS::Logs::LogGroup').map(([, logGroup]) => logGroup.Properties.RetentionInDays))];

const isLoggingRole = ([, role]: [string, { Properties: Record<string, unknown> }]) => str(role.Properties).includes('apigateway.amazonaws.com');

/**
 * One app as one account holds it: staging as `-c stage=staging` makes it, and two stages whose files are
 * another stage's, to show that behaviour follows the file: dev with prod's file, staging with dev's.
 */
let app: App;
let assembly: CloudAssembly;
let staging: Synthesized;
let devWithProdFile: Synthesized;
let stagingWithDevFile: Synthesized;

beforeAll(() => {
  app = testApp({ stage: 'staging' });
  const stagingStack = labApiStack(app, stageOf(app));
  const devStack = new LabApiStack(app, 'LabApi-dev-with-prod-file', { stage: 'dev', stageFile: STAGE_FILES.prod });
  const stagingAsDevStack = new LabApiStack(app, 'LabApi-staging-with-dev-file', { stage: 'staging', stageFile: STAGE_FILES.dev });
  // Every stack in the tree before the one synth its templates are read from.
  assembly = app.synth();
  staging = new Synthesized(stagingStack);
  devWithProdFile = new Synthesized(devStack);
  stagingWithDevFile = new Synthesized(stagingAsDevStack);
});

describe('the staging stage, as `-c stage=staging` synthesizes it', () => {
  it('synthesizes LabApi-staging, which depends on the account stack', () => {
    expect(assembly.stacks.map((stack) => stack.stackName)).toEqual(expect.arrayContaining([ACCOUNT_STACK_ID, 'LabApi-staging']));
    expect(stacksBefore(assembly, 'LabApi-staging')).toEqual([ACCOUNT_STACK_ID]);
  });

  it("has prod's alarms and dashboard, notifying its own address", () => {
    expect(staging.ofType('AWS::CloudWatch::Alarm').length).toBeGreaterThan(50);
    expect(staging.ofType('AWS::CloudWatch::Dashboard')).toHaveLength(1);
    const [, subscription] = staging.onlyOfType('AWS::SNS::Subscription');
    expect(subscription.Properties).toMatchObject({ Protocol: 'email', Endpoint: STAGE_FILES.staging.alarmEmail });
  });

  it('has no HIPAA controls (no patient data): no KMS key, log groups without one, no backup plan', () => {
    expect(staging.ofType('AWS::KMS::Key')).toEqual([]);
    for (const [id, logGroup] of staging.ofType('AWS::Logs::LogGroup')) expect(logGroup.Properties.KmsKeyId, id).toBeUndefined();
    expect(Object.values(staging.resources).filter((resource) => resource.Type.startsWith('AWS::Backup::'))).toEqual([]);
  });

  it('takes its table, queues and logs with the stack, keeps logs a month, and is not protected from termination', () => {
    expect(dataGoesWithTheStack(staging)).toBe(true);
    expect(logRetentions(staging)).toEqual([30]);
    expect(assembly.getStackByName('LabApi-staging').terminationProtection).toBe(false);
  });

  it("throttles the stage at half prod's limits, and each key as prod does", () => {
    const stage = staging.onlyOfType('AWS::ApiGateway::Stage')[1].Properties;
    expect(stage).toMatchObject({ StageName: 'staging', MethodSettings: [expect.objectContaining({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 })] });
    const { keyLimits } = STAGE_FILES.prod;
    expect(staging.onlyOfType('AWS::ApiGateway::UsagePlan')[1].Properties).toMatchObject({
      Throttle: { RateLimit: keyLimits.rateLimit, BurstLimit: keyLimits.burstLimit },
      Quota: { Limit: keyLimits.dailyQuota, Period: 'DAY' },
    });
  });
});

describe("API Gateway's logging role, once per account and region", () => {
  it('is in one account stack, which every stage stack of the app depends on: several stages share an account with no flag', () => {
    const stageStacks = assembly.stacks.filter((stack) => stack.stackName !== ACCOUNT_STACK_ID);
    expect(stageStacks.map((stack) => stack.stackName).sort()).toEqual(['LabApi-dev-with-prod-file', 'LabApi-staging', 'LabApi-staging-with-dev-file']);
    for (const { stackName } of stageStacks) expect(stacksBefore(assembly, stackName), stackName).toEqual([ACCOUNT_STACK_ID]);
    const account = assembly.getStackByName(ACCOUNT_STACK_ID).template as { Resources: Record<string, { Type: string; Properties: object }> };
    const roles = Object.entries(account.Resources).filter(
      ([, resource]) => resource.Type === 'AWS::IAM::Role' && str(resource).includes('apigateway.amazonaws.com'),
    );
    expect(roles).toHaveLength(1);
    const [roleId] = roles[0]!;
    expect(Object.values(account.Resources).filter((resource) => resource.Type === 'AWS::ApiGateway::Account')).toEqual([
      expect.objectContaining({ Properties: { CloudWatchRoleArn: { 'Fn::GetAtt': [roleId, 'Arn'] } } }),
    ]);
  });

  it('is in no stage stack: neither the role nor the account setting', () => {
    for (const stack of [staging, devWithProdFile, stagingWithDevFile]) {
      expect(stack.ofType('AWS::ApiGateway::Account'), stack.stack.stackName).toEqual([]);
      expect(stack.ofType('AWS::IAM::Role').filter(isLoggingRole), stack.stack.stackName).toEqual([]);
    }
  });

  it('outlives the account stack (role and setting retained), whose termination protection keeps `cdk destroy` from taking it', () => {
    const account = assembly.getStackByName(ACCOUNT_STACK_ID);
    expect(account.terminationProtection).toBe(true);
    const resources = Object.values((account.template as { Resources: Record<string, { Type: string; DeletionPolicy?: string }> }).Resources).filter(
      (resource) => resource.Type !== 'AWS::CDK::Metadata',
    );
    expect(resources.map((resource) => [resource.Type, resource.DeletionPolicy]).sort()).toEqual([
      ['AWS::ApiGateway::Account', 'Retain'],
      ['AWS::IAM::Role', 'Retain'],
    ]);
  });
});

describe("production behaviour follows the stage file's settings, whatever the stage's name", () => {
  it("gives a stage named dev whose file is prod's: data kept (deletion protection on), a year of logs, the alarms, termination protection", () => {
    expect(dataGoesWithTheStack(devWithProdFile)).toBe(false);
    expect(logRetentions(devWithProdFile)).toEqual([365]);
    expect(devWithProdFile.ofType('AWS::CloudWatch::Alarm').length).toBeGreaterThan(50);
    expect(devWithProdFile.ofType('AWS::KMS::Key')).toHaveLength(1);
    expect(assembly.getStackByName('LabApi-dev-with-prod-file').terminationProtection).toBe(true);
  });

  it("gives a stage named staging whose file is dev's dev's behaviour: data deleted with the stack, a month of logs, no alarms, no topic", () => {
    expect(dataGoesWithTheStack(stagingWithDevFile)).toBe(true);
    expect(logRetentions(stagingWithDevFile)).toEqual([30]);
    expect(stagingWithDevFile.ofType('AWS::CloudWatch::Alarm')).toEqual([]);
    expect(stagingWithDevFile.ofType('AWS::SNS::Topic')).toEqual([]);
    expect(assembly.getStackByName('LabApi-staging-with-dev-file').terminationProtection).toBe(false);
  });

  it('refuses a prod stage file without what patient data needs, naming the file and the setting', () => {
    const offline = { ...STAGE_FILES.prod, retainData: false, alarms: false };
    expect(() => new LabApiStack(testApp(), 'LabApi-prod', { stage: 'prod', stageFile: offline })).toThrow(
      'infra/stages/prod.ts: retainData must be true: hipaaControls says the stage holds patient data',
    );
    expect(() => new LabApiStack(testApp(), 'LabApi-prod', { stage: 'prod', stageFile: { ...offline, hipaaControls: false } })).toThrow(
      'infra/stages/prod.ts: hipaaControls must be true',
    );
  });
});
