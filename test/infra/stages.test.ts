/**
 * The dev stage, synthesized once with the context a deployer may pass on the command line (strings):
 * throttling, a lab account, and an account whose API Gateway logging role is already set. Dev has no
 * alarms and takes its table, queues and logs with it; buckets stay (S3 cannot delete full buckets).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LAB_PARTNER_SOURCE } from '../../shared/events/lab-results-reported';
import { type Statement, str, Synthesized, labApiStack, testApp } from './synth';

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
