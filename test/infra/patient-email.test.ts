/**
 * Patient email in the stack (infra/patient-email.ts, issue #52): the SES identity of the stage's sender domain
 * and its configuration set (TLS required, reputation metrics, the account's suppression list), bounces and
 * complaints from the default bus to the feedback function, the domain events to the sender's queue (live and
 * sandbox), the reminder sweep every minute, what each function may do, and the alarms on-call gets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiFunction, REPO_ROOT } from '../../infra/api-function';
import { LabApiStack } from '../../infra/lab-api-stack';
import {
  PATIENT_MESSAGE_EVENTS,
  PATIENT_MESSAGES_BATCH_SIZE,
  PATIENT_MESSAGES_CONCURRENCY,
  PATIENT_MESSAGES_MAX_RECEIVES,
  SES_FEEDBACK_DETAIL_TYPES,
} from '../../infra/patient-email';
import { FUNCTION_SIZES, type FunctionClass } from '../../infra/route-classes';
import { PAGE_ORIGIN_ROUTES } from '../../infra/route-stacks';
import { STAGE_FILES } from '../../infra/settings';
import { EVENT_SOURCE, SANDBOX_EVENT_SOURCE } from '../../shared/events/event-source';
import { labApiStack, type Ref, str, Synthesized, testApp } from './synth';

let prod: Synthesized;
let dev: Synthesized;

beforeAll(() => {
  prod = new Synthesized(labApiStack(testApp(), 'prod'));
  dev = new Synthesized(labApiStack(testApp(), 'dev'));
});

const functionOf = (stack: Synthesized, cls: FunctionClass) => {
  const found = stack.functions.filter(({ construct }) => construct.functionClass === cls);
  if (found.length !== 1) throw new Error(`expected one ${cls} function, found ${found.length}`);
  return found[0]!;
};
const variablesOf = (stack: Synthesized, cls: FunctionClass) =>
  (stack.resources[functionOf(stack, cls).fn]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
const rulesInvoking = (stack: Synthesized, id: string) => stack.ofType('AWS::Events::Rule').filter(([, r]) => str(r.Properties.Targets).includes(`"${id}"`));
/** The one rule whose target is `id`. */
function ruleInvoking(stack: Synthesized, id: string) {
  const found = rulesInvoking(stack, id);
  if (found.length !== 1) throw new Error(`expected one rule invoking ${id}, found ${found.length}`);
  return found[0]![1];
}

/** The queue the patient message sender consumes, and the rule that fills it. */
function senderQueue(stack: Synthesized) {
  const { fn } = functionOf(stack, 'patient-messages');
  const [, mapping] = stack.ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => (m.Properties.FunctionName as Ref).Ref === fn)!;
  const queueId = (mapping.Properties.EventSourceArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const [ruleId, rule] = rulesInvoking(stack, queueId)[0]!;
  return { mapping, queueId, queue: stack.resources[queueId]!.Properties, ruleId, rule: rule.Properties };
}

const fixture = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures', name), 'utf8')) as Record<string, unknown>;

describe('SES: the identity and the configuration set', () => {
  it("verifies the stage file's sender domain with Easy DKIM, its configuration set the identity's default", () => {
    const [, identity] = prod.onlyOfType('AWS::SES::EmailIdentity');
    const [configurationSetId] = prod.onlyOfType('AWS::SES::ConfigurationSet');
    expect(identity.Properties).toMatchObject({
      EmailIdentity: STAGE_FILES.prod.email.domain,
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: configurationSetId } },
    });
    expect(identity.Properties.DkimSigningAttributes ?? {}).not.toHaveProperty('DomainSigningPrivateKey');
    // dev names no domain: its sender address's own.
    expect(dev.onlyOfType('AWS::SES::EmailIdentity')[1].Properties.EmailIdentity).toBe('dev.lab.example.org');
  });

  it('requires TLS to the receiving server, publishes reputation metrics, and suppresses addresses that bounced or complained', () => {
    const [, configurationSet] = prod.onlyOfType('AWS::SES::ConfigurationSet');
    expect(configurationSet.Properties).toMatchObject({
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
  });

  it("publishes the configuration set's bounces and complaints, nothing else, to the account's default bus", () => {
    const [configurationSetId] = prod.onlyOfType('AWS::SES::ConfigurationSet');
    const [, destination] = prod.onlyOfType('AWS::SES::ConfigurationSetEventDestination');
    expect(destination.Properties).toMatchObject({
      ConfigurationSetName: { Ref: configurationSetId },
      EventDestination: { Enabled: true, MatchingEventTypes: ['bounce', 'complaint'] },
    });
    expect(str((destination.Properties.EventDestination as { EventBridgeDestination: unknown }).EventBridgeDestination)).toContain(':event-bus/default');
  });

  it("outputs the sender domain's DKIM records for its DNS", () => {
    const outputs = (prod.template.toJSON() as { Outputs: Record<string, { Value: unknown }> }).Outputs;
    expect(str(outputs.EmailDkimRecords!.Value)).toContain('DkimDNSTokenName1');
  });
});

describe('bounces and complaints', () => {
  it("reach the feedback function from the default bus: SES's two detail types of this stage's configuration set only", () => {
    const { fn } = functionOf(prod, 'email-feedback');
    const [configurationSetId] = prod.onlyOfType('AWS::SES::ConfigurationSet');
    const rule = ruleInvoking(prod, fn);
    expect(rule.Properties.EventBusName).toBeUndefined();
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.ses'],
      'detail-type': [...SES_FEEDBACK_DETAIL_TYPES],
      detail: { mail: { tags: { 'ses:configuration-set': [{ Ref: configurationSetId }] } } },
    });
  });

  it('are retried, and kept in a dead-letter queue of their own when they cannot be recorded or delivered, which alarms', () => {
    const { fn } = functionOf(prod, 'email-feedback');
    const rule = ruleInvoking(prod, fn);
    const [target] = rule.Properties.Targets as { RetryPolicy: Record<string, number>; DeadLetterConfig: { Arn: { 'Fn::GetAtt': [string] } } }[];
    expect(target!.RetryPolicy.MaximumRetryAttempts).toBeGreaterThan(0);
    expect(prod.resources[fn]!.Properties.DeadLetterConfig).toEqual({ TargetArn: target!.DeadLetterConfig.Arn });
    prod.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: fn }, MaximumRetryAttempts: 2 });
    const dlqId = target!.DeadLetterConfig.Arn['Fn::GetAtt'][0];
    const [, alarm] = prod.ofType('AWS::CloudWatch::Alarm').find(([, a]) => str(a.Properties.AlarmName).includes('EmailFeedbackDLQ not empty'))!;
    expect(str(alarm.Properties.Dimensions)).toContain(`"${dlqId}"`);
  });

  it('match the fixtures the feedback tests use, which are the events SES documents', () => {
    for (const [name, detailType, eventType] of [
      ['ses-bounce-event.json', 'Email Bounced', 'Bounce'],
      ['ses-complaint-event.json', 'Email Complaint Received', 'Complaint'],
    ] as const) {
      const event = fixture(name) as {
        source: string;
        'detail-type': string;
        detail: { eventType: string; mail: { messageId: string; tags: Record<string, string[]> } };
      };
      expect(event.source, name).toBe('aws.ses');
      expect(SES_FEEDBACK_DETAIL_TYPES, name).toContain(event['detail-type']);
      expect(event['detail-type'], name).toBe(detailType);
      expect(event.detail.eventType, name).toBe(eventType);
      expect(event.detail.mail.tags['ses:configuration-set'], name).toEqual(['ConfigSet']);
      expect(
        JSON.stringify(event)
          .match(/[\w.+-]+@[\w.-]+/g)
          ?.every((address) => address.endsWith('@example.com')),
        name,
      ).toBe(true);
    }
  });
});

describe('the patient message sender', () => {
  it('takes the domain events a patient hears of, live and sandbox (recorded as simulated), from our bus into its queue', () => {
    const [busId] = prod.onlyOfType('AWS::Events::EventBus');
    const { rule } = senderQueue(prod);
    expect(rule).toMatchObject({
      EventBusName: { Ref: busId },
      EventPattern: { source: [EVENT_SOURCE, SANDBOX_EVENT_SOURCE], 'detail-type': [...PATIENT_MESSAGE_EVENTS] },
    });
    expect(PATIENT_MESSAGE_EVENTS).toEqual([
      'AppointmentStatusChanged',
      'AppointmentRescheduled',
      'HomeKitOrderStatusChanged',
      'LabResultsAvailable',
      'SpecimenRejected',
    ]);
  });

  it("takes 10 messages at a time, at most 2 senders at once (SES's 14 a second), redelivering only the ones it reports failed", () => {
    const { mapping } = senderQueue(prod);
    expect(mapping.Properties).toMatchObject({
      BatchSize: PATIENT_MESSAGES_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: PATIENT_MESSAGES_CONCURRENCY },
    });
    expect([PATIENT_MESSAGES_BATCH_SIZE, PATIENT_MESSAGES_CONCURRENCY]).toEqual([10, 2]);
  });

  it("retries a message SES would not take 8 times, 6 × the sender's timeout apart, then moves it to a dead-letter queue, which alarms", () => {
    const { queue, rule } = senderQueue(prod);
    expect(queue.VisibilityTimeout).toBe(6 * FUNCTION_SIZES['patient-messages'].timeout.toSeconds());
    const redrive = queue.RedrivePolicy as { maxReceiveCount: number; deadLetterTargetArn: { 'Fn::GetAtt': [string, string] } };
    expect(redrive.maxReceiveCount).toBe(PATIENT_MESSAGES_MAX_RECEIVES);
    const dlqId = redrive.deadLetterTargetArn['Fn::GetAtt'][0];
    // An event EventBridge could not put into the queue lands in the same dead-letter queue.
    expect(str(rule.Targets)).toContain(`"${dlqId}"`);
    const [, alarm] = prod.ofType('AWS::CloudWatch::Alarm').find(([, a]) => str(a.Properties.AlarmName).includes('PatientMessagesDLQ not empty'))!;
    expect(str(alarm.Properties.Dimensions)).toContain(`"${dlqId}"`);
  });

  it('alarms when the oldest message of its queue is older than 30 minutes: a sender that stopped', () => {
    const { queueId } = senderQueue(prod);
    const [, alarm] = prod
      .ofType('AWS::CloudWatch::Alarm')
      .find(([, a]) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage' && str(a.Properties.Dimensions).includes(`"${queueId}"`))!;
    expect(alarm.Properties).toMatchObject({ Threshold: 1800, EvaluationPeriods: 2 });
  });
});

describe('the reminder sweep', () => {
  it('runs every minute, each run ending within its minute, never retried by EventBridge or Lambda', () => {
    const { fn } = functionOf(prod, 'message-reminders');
    const schedule = ruleInvoking(prod, fn);
    expect(schedule.Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect((schedule.Properties.Targets as { RetryPolicy: Record<string, number> }[])[0]!.RetryPolicy.MaximumRetryAttempts).toBe(0);
    expect(prod.resources[fn]!.Properties.Timeout).toBeLessThan(60);
    prod.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: fn }, MaximumRetryAttempts: 0 });
  });
});

describe('what the patient email functions may do', () => {
  const SENDERS = ['patient-messages', 'message-reminders'] as const;

  it("lets the sender and the reminder sweep send through the stage's identity and configuration set, and nothing else of SES", () => {
    const [identityId] = prod.onlyOfType('AWS::SES::EmailIdentity');
    const [configurationSetId] = prod.onlyOfType('AWS::SES::ConfigurationSet');
    for (const cls of SENDERS) {
      const { role } = functionOf(prod, cls);
      const ses = prod.statementsOf(role).filter((s) => [s.Action].flat().some((action) => action.startsWith('ses:')));
      expect(ses, cls).toHaveLength(1);
      expect(ses[0]!.Action, cls).toBe('ses:SendEmail');
      const resources = str(ses[0]!.Resource);
      expect(resources, cls).toContain(identityId);
      expect(resources, cls).toContain(`configuration-set/`);
      expect(resources, cls).toContain(configurationSetId);
      expect(resources, cls).not.toContain('"*"');
    }
    expect(prod.allowedActions(functionOf(prod, 'email-feedback').role, 'ses:')).toEqual([]);
  });

  it('lets the senders read, claim, record and remove messages as a write does; the feedback function only read, query, update and put; none put events or touch the bucket', () => {
    const writes = [
      'dynamodb:BatchGetItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ];
    for (const cls of SENDERS) expect(prod.allowedActions(functionOf(prod, cls).role, 'dynamodb:'), cls).toEqual(writes);
    expect(prod.allowedActions(functionOf(prod, 'email-feedback').role, 'dynamodb:')).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    for (const cls of [...SENDERS, 'email-feedback'] as const) {
      const { role } = functionOf(prod, cls);
      expect(prod.allowedActions(role, 'events:'), cls).toEqual([]);
      expect(prod.allowedActions(role, 's3:'), cls).toEqual([]);
    }
    expect(prod.allowedActions(functionOf(prod, 'message-reminders').role, 'sqs:')).toEqual([]);
  });

  it('sizes each at 256 MB and 30–50 s', () => {
    for (const cls of [...SENDERS, 'email-feedback'] as const) {
      const properties = prod.resources[functionOf(prod, cls).fn]!.Properties;
      expect(properties.MemorySize, cls).toBe(256);
      expect(Number(properties.Timeout), cls).toBeGreaterThanOrEqual(30);
      expect(Number(properties.Timeout), cls).toBeLessThanOrEqual(60);
    }
  });

  it("tells the senders the stage's sender address, configuration set, the API's public URL for unsubscribe links and the reminder's hours", () => {
    const [configurationSetId] = prod.onlyOfType('AWS::SES::ConfigurationSet');
    const [apiId] = prod.onlyOfType('AWS::ApiGateway::RestApi');
    for (const cls of SENDERS) {
      const variables = variablesOf(prod, cls);
      expect(variables, cls).toMatchObject({
        EMAIL_FROM_ADDRESS: STAGE_FILES.prod.email.fromAddress,
        EMAIL_CONFIGURATION_SET: { Ref: configurationSetId },
        REMINDER_HOURS_BEFORE: '24',
      });
      // https://<api id>.execute-api.<region>.<suffix>/prod: the API's own URL, its stage included, without a trailing slash.
      const origin = str(variables.EMAIL_LINK_ORIGIN);
      expect(origin, cls).toContain(`{"Ref":"${apiId}"}`);
      expect(origin, cls).toMatch(/"https:\/\/".*\.execute-api\..*"\/prod"\]/);
    }
    expect(variablesOf(prod, 'email-feedback')).not.toHaveProperty('EMAIL_FROM_ADDRESS');
  });
});

describe("the patient page's origin (patientPageOrigin, issue #53)", () => {
  const PAGE_ORIGIN = 'https://patients.lab.example.org';
  const EMAIL_SENDERS: readonly FunctionClass[] = ['patient-messages', 'message-reminders'];
  /** Who holds PATIENT_PAGE_ORIGIN, and its value: the two senders by class, the routes by name. */
  const holders = (stack: Synthesized) =>
    Object.fromEntries(
      stack.functions.flatMap(({ construct, fn }) => {
        const { Variables } = stack.resources[fn]!.Properties.Environment as { Variables: Record<string, unknown> };
        if (!('PATIENT_PAGE_ORIGIN' in Variables)) return [];
        return [[construct instanceof ApiFunction ? construct.routeName : construct.functionClass, Variables.PATIENT_PAGE_ORIGIN]];
      }),
    );

  it("reaches the senders, the link route and the page's two changes when the stage names it, and no other function", () => {
    const named = new Synthesized(
      new LabApiStack(testApp(), 'LabApi-prod', { stage: 'prod', stageFile: { ...STAGE_FILES.prod, patientPageOrigin: PAGE_ORIGIN } }),
    );
    expect(PAGE_ORIGIN_ROUTES).toEqual(['createPatientLink', 'reschedulePatientAppointment', 'cancelPatientAppointment']);
    expect(holders(named)).toEqual(Object.fromEntries([...EMAIL_SENDERS, ...PAGE_ORIGIN_ROUTES].map((holder) => [holder, PAGE_ORIGIN])));
  });

  it('reaches no function of a stage that names none (every stage file today): the emails then carry no page link', () => {
    expect(holders(prod)).toEqual({});
    expect(holders(dev)).toEqual({});
  });
});
