/**
 * The lab order sender in the stack (infra/lab-order-sender.ts, issue #51): only where the stage file names a
 * lab interface; then its function in the lab's VPC behind a security group that reaches the lab's port only,
 * its own queue fed by live LabOrderRequested events, a dead-letter queue after the schedule's attempts, and
 * the alarm on that queue in a stage with alarms.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LabApiStack } from '../../infra/lab-api-stack';
import { readSettings } from '../../infra/settings';
import { prod as prodFile } from '../../infra/stages/prod';
import { METRICS_PER_ALARM } from '../../infra/monitoring';
import { LAB_ORDER_RETRY } from '../../shared/domain/lab-order';
import { EXAMPLE_LAB_INTERFACE, labApiStack, type Ref, str, Synthesized, testApp } from './synth';

const labInterface = EXAMPLE_LAB_INTERFACE;
/** A PEM in shape only (the stage settings check the shape; no TLS handshake reads it here). */
const SHAPED_PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUFAKEFAKEFAKEFAKEFAKEFAKEFAKE\nMAoGCCqGSM49BAMCMBMx\n-----END CERTIFICATE-----\n';

let withLab: Synthesized;
let prod: Synthesized;

beforeAll(() => {
  withLab = new Synthesized(new LabApiStack(testApp(), 'LabApi-prod', { stage: 'prod', stageFile: { ...prodFile, labInterface } }));
  prod = new Synthesized(labApiStack(testApp(), 'prod'));
});

const senderOf = (stack: Synthesized) => stack.functions.find(({ construct }) => construct.functionClass === 'lab-order-sender');

describe('a stage whose file names a lab interface', () => {
  it('runs the sender in the named subnets, behind a security group of its own', () => {
    const { fn } = senderOf(withLab)!;
    const vpcConfig = withLab.resources[fn]!.Properties.VpcConfig as { SubnetIds: string[]; SecurityGroupIds: unknown[] };
    expect(vpcConfig.SubnetIds).toEqual(labInterface.subnetIds);
    const [groupId, group] = withLab.onlyOfType('AWS::EC2::SecurityGroup');
    expect(vpcConfig.SecurityGroupIds).toEqual([{ 'Fn::GetAtt': [groupId, 'GroupId'] }]);
    expect(group.Properties.VpcId).toBe(labInterface.vpcId);
  });

  it("lets the sender connect to the lab's addresses on its port and to HTTPS, and nothing in", () => {
    const [, group] = withLab.onlyOfType('AWS::EC2::SecurityGroup');
    const egress = (group.Properties.SecurityGroupEgress as { CidrIp: string; FromPort: number; ToPort: number; IpProtocol: string }[]).map(
      ({ CidrIp, FromPort, ToPort, IpProtocol }) => ({ CidrIp, FromPort, ToPort, IpProtocol }),
    );
    expect(egress).toEqual([
      { CidrIp: '10.20.0.0/16', FromPort: 2575, ToPort: 2575, IpProtocol: 'tcp' },
      { CidrIp: '0.0.0.0/0', FromPort: 443, ToPort: 443, IpProtocol: 'tcp' },
    ]);
    expect(group.Properties.SecurityGroupIngress).toBeUndefined();
  });

  it("tells the sender the lab's host, port, TLS and the parties of the message header", () => {
    const { fn } = senderOf(withLab)!;
    expect((withLab.resources[fn]!.Properties.Environment as { Variables: Record<string, string> }).Variables).toMatchObject({
      LAB_MLLP_HOST: 'mllp.lab.example.net',
      LAB_MLLP_PORT: '2575',
      LAB_MLLP_TLS: 'true',
      LAB_SENDING_FACILITY: 'LABAPI-PROD',
      LAB_RECEIVING_APPLICATION: 'LIS',
      LAB_RECEIVING_FACILITY: 'CENTRAL-LAB',
    });
  });

  it('feeds the sender one message at a time from its own queue, reporting failed items, which live LabOrderRequested events fill', () => {
    const { fn } = senderOf(withLab)!;
    const [, mapping] = withLab.ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => (m.Properties.FunctionName as Ref).Ref === fn)!;
    expect(mapping.Properties).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    const queueId = (mapping.Properties.EventSourceArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const [, rule] = withLab.ofType('AWS::Events::Rule').find(([, r]) => str(r.Properties.Targets).includes(`"${queueId}"`))!;
    expect(rule.Properties.EventPattern).toEqual({ source: ['lab-api'], 'detail-type': ['LabOrderRequested'] });
  });

  it("moves a message to the dead-letter queue after the schedule's attempts, and alarms on it", () => {
    const { fn } = senderOf(withLab)!;
    const [, mapping] = withLab.ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => (m.Properties.FunctionName as Ref).Ref === fn)!;
    const queueId = (mapping.Properties.EventSourceArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const redrive = withLab.resources[queueId]!.Properties.RedrivePolicy as {
      maxReceiveCount: number;
      deadLetterTargetArn: { 'Fn::GetAtt': [string, string] };
    };
    expect(redrive.maxReceiveCount).toBe(LAB_ORDER_RETRY.attempts);
    const dlqId = redrive.deadLetterTargetArn['Fn::GetAtt'][0];
    const [, alarm] = withLab.ofType('AWS::CloudWatch::Alarm').find(([, a]) => str(a.Properties.AlarmName).includes('LabOrderSenderDLQ not empty'))!;
    expect(alarm.Properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1 });
    expect(str(alarm.Properties.Dimensions)).toContain(dlqId);
  });

  it('lets the sender change its messages’ visibility (the backoff), put its events, and on the table read items, write them in transactions and clear its outbox entry', () => {
    const { role } = senderOf(withLab)!;
    expect(withLab.allowedActions(role, 'sqs:')).toContain('sqs:ChangeMessageVisibility');
    expect(withLab.allowedActions(role, 'events:')).toEqual(['events:PutEvents']);
    expect(withLab.allowedActions(role, 'dynamodb:')).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
  });

  it('watches its rule for lost events beside every other rule, in alarms of at most 10 rules each (CloudWatch: 10 metrics per metric-math alarm)', () => {
    const rules = withLab.ofType('AWS::Events::Rule').filter(([, r]) => r.Properties.Targets);
    expect(rules.length).toBeGreaterThan(METRICS_PER_ALARM);
    const alarms = withLab.ofType('AWS::CloudWatch::Alarm').filter(([, a]) => str(a.Properties.Metrics).includes('"FailedInvocations"'));
    expect(alarms.length).toBe(Math.ceil(rules.length / METRICS_PER_ALARM));
    const ruleIds = alarms.flatMap(([, a]) => {
      const metrics = (a.Properties.Metrics as { MetricStat?: { Metric: { Dimensions: { Name: string; Value: Ref }[] } } }[]).flatMap((m) =>
        m.MetricStat ? [m.MetricStat.Metric] : [],
      );
      expect(metrics.length).toBeLessThanOrEqual(METRICS_PER_ALARM);
      return metrics.map((m) => m.Dimensions.find((d) => d.Name === 'RuleName')!.Value.Ref);
    });
    expect(ruleIds.sort()).toEqual(rules.map(([id]) => id).sort());
    // Numbered, as the functions' alarms are, when there is more than one.
    expect(alarms.map(([, a]) => String(a.Properties.AlarmName)).sort()).toEqual([
      'LabApi-prod EventBridge invocations failed (1/2)',
      'LabApi-prod EventBridge invocations failed (2/2)',
    ]);
  });
});

describe("a lab interface with the lab's private CA", () => {
  it('gives the sender no CA when the stage file names none: the bundled public CAs decide', () => {
    const { fn } = senderOf(withLab)!;
    expect((withLab.resources[fn]!.Properties.Environment as { Variables: Record<string, string> }).Variables).not.toHaveProperty('LAB_MLLP_CA');
  });

  it("gives the sender the stage file's CA certificate in its environment, and nowhere in its description", () => {
    const withCa = new Synthesized(
      new LabApiStack(testApp(), 'LabApi-prod', { stage: 'prod', stageFile: { ...prodFile, labInterface: { ...labInterface, caCertificate: SHAPED_PEM } } }),
    );
    const { fn } = senderOf(withCa)!;
    const properties = withCa.resources[fn]!.Properties;
    expect((properties.Environment as { Variables: Record<string, string> }).Variables.LAB_MLLP_CA).toBe(SHAPED_PEM);
    expect(str(properties.Description)).not.toContain('CERTIFICATE');
  });
});

describe('a stage whose file names no lab interface', () => {
  it('has no sender, no security group and no sender queue', () => {
    expect(senderOf(prod)).toBeUndefined();
    expect(prod.ofType('AWS::EC2::SecurityGroup')).toEqual([]);
    expect(prod.ofType('AWS::CloudWatch::Alarm').filter(([, a]) => str(a.Properties.AlarmName).includes('LabOrderSender'))).toEqual([]);
    expect(Object.keys(prod.template.toJSON().Outputs ?? {})).not.toContain('LabOrderSenderDlqUrl');
  });
});

describe('the labInterface stage setting', () => {
  it('refuses a facility name holding an HL7 delimiter, naming the field and the file', () => {
    const file = { ...prodFile, labInterface: { ...labInterface, receivingFacility: 'LAB|A' } };
    expect(() => readSettings(testApp(), 'prod', file)).toThrow(
      'infra/stages/prod.ts: labInterface.receivingFacility must be 1 to 180 characters without | ^ ~ \\ & or line breaks',
    );
  });

  it('refuses a lab address that is no CIDR block', () => {
    expect(() => readSettings(testApp(), 'prod', { ...prodFile, labInterface: { ...labInterface, labCidr: 'lab.example.net' } })).toThrow(
      'labInterface.labCidr must be an IPv4 CIDR block',
    );
  });

  it('takes a CA certificate in PEM for a lab over TLS', () => {
    const settings = readSettings(testApp(), 'prod', { ...prodFile, labInterface: { ...labInterface, caCertificate: SHAPED_PEM } });
    expect(settings.labInterface?.caCertificate).toBe(SHAPED_PEM);
  });

  it('refuses a CA certificate that is no PEM certificate, naming the field without quoting the value', () => {
    const file = { ...prodFile, labInterface: { ...labInterface, caCertificate: 'MIIBszCCAVmgAwIBAgIU-not-a-pem' } };
    expect(() => readSettings(testApp(), 'prod', file)).toThrow('labInterface.caCertificate must be PEM certificates');
    expect(() => readSettings(testApp(), 'prod', file)).not.toThrow(/not-a-pem/);
  });

  it('refuses a CA certificate for a lab reached without TLS', () => {
    const file = { ...prodFile, labInterface: { ...labInterface, tls: false, caCertificate: SHAPED_PEM } };
    expect(() => readSettings(testApp(), 'prod', file)).toThrow('labInterface.caCertificate is read over TLS only: set tls: true');
  });
});
