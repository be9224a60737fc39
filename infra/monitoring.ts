/**
 * The alarms of a prod stack and the SNS topic they notify (on alarm and on recovery):
 *
 * - API 5xx rate: more than 5 % of requests answered 5xx in two of three 5-minute periods, counted only
 *   when there were at least 10 requests (a single failure at night is the Lambda alarms' business).
 * - Lambda errors and throttles, every function of the stack: any error or throttle in 5 minutes. An
 *   alarm on metric math may read at most 10 metrics, so the functions are watched in groups of 10.
 * - Dead-letter queues: any message.
 * - Queues the service or the lab works off (lab orders, webhook events, patient messages): the oldest message older than
 *   its queue's bound, in two 5-minute periods in a row — a consumer that stopped.
 * - EventBridge: any invocation of a rule's target that failed for good (FailedInvocations: retries
 *   exhausted and no dead-letter queue took it) or that could not even reach its dead-letter queue
 *   (InvocationsFailedToBeSentToDlq): an event lost. Rules of our bus are measured with EventBusName and
 *   RuleName, rules of the default bus (S3's HL7 uploads, SES's bounces and complaints, the schedules) with
 *   RuleName only; in groups of 10 rules, as the functions.
 * - DynamoDB throttling: any read or write throttle event on the table or its indexes in 5 minutes. The
 *   table is on demand, so a throttle is a spike beyond what it adapts to at once (or an account limit):
 *   requests answer 503 and clients retry, but it should not go unnoticed.
 * - Outbox age: there is no "oldest entry" metric; what the relay logs is how many entries it published
 *   (`{"message":"outbox relayed","published":N}`, only when N > 0), and every one of those was at least
 *   30 s old — its request failed to publish it. A metric filter counts them; any in 5 minutes alarms.
 *   Entries the relay cannot publish either make its run fail (relayOutbox throws after trying them
 *   all), and a relay that cannot run at all fails too: both show as Lambda errors of the relay, every
 *   minute until fixed, so an entry cannot grow old unnoticed.
 * - Webhook subscriptions disabled: a subscription whose deliveries failed DISABLE_AFTER_FAILED_DELIVERIES
 *   times in a row is disabled, and the function that ended the last one logs
 *   `{"message":"webhook subscription disabled","webhook_id":…,"key_id":…}`. Metric filters on the log
 *   groups of every function that attempts deliveries count those lines; any in 5 minutes alarms, for
 *   someone to tell the client.
 * - Critical results unacknowledged: the critical results check (every 5 minutes) logs how many
 *   appointments hold critical values no clinician acknowledged within `criticalAckMinutes`
 *   (`{"message":"critical results unacknowledged","count":N,…}`, every run, 0 included). A metric filter
 *   reads `count`; any in 5 minutes alarms, naming the log group where the appointment ids are.
 * - Unmatched lab results waiting: the same check logs how many lab reports that matched no order waited
 *   longer than `unmatchedWaitMinutes` to be matched or discarded (`{"message":"unmatched results
 *   waiting","count":N,…}`, every run). A metric filter reads `count`; any in 5 minutes alarms (issue #51).
 */
import type { Duration } from 'aws-cdk-lib';
import { NestedStack, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, type IAlarm, MathExpression, Metric, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type LogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import type { Construct } from 'constructs';
import { GSI1, GSI2 } from '../shared/store/keys';
import { serviceDashboard } from './dashboard';
import type { HipaaControls } from './hipaa-controls';
import { serviceLevelAlarms } from './service-levels';
import { type LabFunction, metricsNamespace } from './api-function';
import { type AlarmFactory, logAlarms, PERIOD } from './log-alarms';

/** CloudWatch's limit of metrics in one metric-math alarm. */
export const METRICS_PER_ALARM = 10;

export {
  CRITICAL_UNACKNOWLEDGED_METRIC,
  OUTBOX_RELAYED_LOG,
  OUTBOX_RELAYED_METRIC,
  RATE_LIMITED_METRIC,
  UNMATCHED_WAITING_METRIC,
  WEBHOOKS_DISABLED_METRIC,
} from './log-alarms';

export interface MonitoringProps {
  readonly api: RestApi;
  readonly functions: readonly { name: string; function: LabFunction }[];
  readonly deadLetterQueues: readonly { name: string; queue: Queue }[];
  /** Working queues and how old their oldest message may grow. */
  readonly queues: readonly { name: string; queue: Queue; maxAge: Duration }[];
  readonly table: Table;
  /** Every rule that invokes a target; `bus` unset: the account's default bus. */
  readonly rules: readonly { name: string; rule: Rule; bus?: IEventBus }[];
  readonly relay: LabFunction;
  /** The functions that attempt webhook deliveries, and so may disable a subscription and log it. */
  readonly webhookSenders: readonly { name: string; function: LabFunction }[];
  /** The scheduled check of critical results nobody acknowledged and of unmatched lab results, and how long it lets each wait. */
  readonly criticalResultsCheck: { function: LabFunction; ackMinutes: number; unmatchedWaitMinutes: number };
  /** Where HIPAA's checks run: the alarm topic is encrypted with the operational data key. */
  readonly hipaa?: HipaaControls;
  /** API Gateway's access log: the requests it refused with 429 are counted from it. */
  readonly apiAccessLogs: LogGroup;
  readonly alarmEmail?: string;
}

/**
 * A nested stack of its own (room in the parent: infra/route-stacks.ts); alarms are named after the parent
 * stack, the one operators know.
 */
export class Monitoring extends NestedStack {
  readonly topic: Topic;
  readonly alarms: IAlarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id, { description: 'Lab API alarms and the topic they notify' });
    const stackName = Stack.of(scope).stackName;
    // Notifications carry alarm names and metric values, never patient data. Where HIPAA's checks run, the
    // topic is encrypted with the stack's operational data key, whose policy lets CloudWatch alarms use it
    // (infra/hipaa-controls.ts; they cannot use the AWS-managed SNS key).
    this.topic = new Topic(this, 'Topic', { displayName: `${stackName} alarms`, enforceSSL: true, masterKey: props.hipaa?.operationalDataKey });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const alarm: AlarmFactory = (alarmId, title, description, metric, options) => {
      const created = new Alarm(this, alarmId, {
        alarmName: `${stackName} ${title}`,
        alarmDescription: description.slice(0, 1024),
        metric,
        threshold: options.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: options.evaluationPeriods ?? 1,
        datapointsToAlarm: options.datapointsToAlarm ?? options.evaluationPeriods ?? 1,
        // No requests, no invocations, no messages: nothing is wrong.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    const stage = props.api.deploymentStage;
    alarm(
      'Api5xxRate',
      'API 5xx rate',
      "More than 5 % of API requests answered 5xx (at least 10 requests in 5 minutes). See the access log group and the route functions' logs.",
      new MathExpression({
        expression: 'IF(requests >= 10, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: stage.metricServerError({ period: PERIOD, statistic: Stats.SUM }),
          requests: stage.metricCount({ period: PERIOD, statistic: Stats.SUM }),
        },
        period: PERIOD,
        label: '5xx % of requests',
      }),
      { threshold: 5, evaluationPeriods: 3, datapointsToAlarm: 2 },
    );

    const groups = chunk(props.functions, METRICS_PER_ALARM);
    groups.forEach((group, index) => {
      const names = group.map((f) => f.name).join(', ');
      const part = groups.length > 1 ? ` (${index + 1}/${groups.length})` : '';
      for (const kind of ['errors', 'throttles'] as const) {
        const usingMetrics = Object.fromEntries(
          group.map(({ function: fn }, i) => [
            `f${i}`,
            kind === 'errors'
              ? fn.function.metricErrors({ period: PERIOD, statistic: Stats.SUM })
              : fn.function.metricThrottles({ period: PERIOD, statistic: Stats.SUM }),
          ]),
        );
        alarm(
          `Lambda${kind === 'errors' ? 'Errors' : 'Throttles'}${index + 1}`,
          `Lambda ${kind}${part}`,
          `A function ${kind === 'errors' ? 'failed (threw, timed out or crashed)' : 'was throttled'} in the last 5 minutes. Functions: ${names}.`,
          new MathExpression({ expression: 'SUM(METRICS())', usingMetrics, period: PERIOD, label: `${kind} of ${group.length} functions` }),
          { threshold: 1 },
        );
      }
    });

    for (const { name, queue } of props.deadLetterQueues) {
      alarm(
        `${name}Depth`,
        `${name} not empty`,
        `Messages in the dead-letter queue ${name}: events that could not be processed. Read them, fix the cause, then put them on the bus again (docs/runbook.md).`,
        queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: Stats.MAXIMUM }),
        { threshold: 1 },
      );
    }

    for (const { name, queue, maxAge } of props.queues) {
      alarm(
        `${name}OldestMessage`,
        `${name} queue falling behind`,
        `The oldest message in the ${name} queue is older than ${maxAge.toHumanString()}: its consumer stopped or cannot keep up. ` + 'See docs/runbook.md.',
        queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: Stats.MAXIMUM }),
        { threshold: maxAge.toSeconds(), evaluationPeriods: 2 },
      );
    }

    // In groups of 10 rules too (the first group's alarm keeps its id, and its name when it is the only one).
    const ruleGroups = chunk(props.rules, METRICS_PER_ALARM);
    for (const metricName of ['FailedInvocations', 'InvocationsFailedToBeSentToDlq'] as const) {
      ruleGroups.forEach((group, index) => {
        const usingMetrics = Object.fromEntries(
          group.map(({ rule, bus }, i) => [
            `r${i}`,
            new Metric({
              namespace: 'AWS/Events',
              metricName,
              dimensionsMap: { RuleName: rule.ruleName, ...(bus ? { EventBusName: bus.eventBusName } : {}) },
              period: PERIOD,
              statistic: Stats.SUM,
            }),
          ]),
        );
        const names = group.map((r) => r.name).join(', ');
        const part = ruleGroups.length > 1 ? ` (${index + 1}/${ruleGroups.length})` : '';
        alarm(
          `EventBridge${metricName}${index === 0 ? '' : index + 1}`,
          (metricName === 'FailedInvocations' ? 'EventBridge invocations failed' : 'EventBridge dead-letter delivery failed') + part,
          (metricName === 'FailedInvocations'
            ? 'A rule could not invoke its target even after its retries, and no dead-letter queue took the event'
            : 'A rule could not put a failed event into its dead-letter queue (a permission or a deleted queue)') +
            `: an event was lost. Rules: ${names}. See docs/runbook.md.`,
          new MathExpression({ expression: 'SUM(METRICS())', usingMetrics, period: PERIOD, label: metricName }),
          { threshold: 1 },
        );
      });
    }

    // Table and index throttles, read and write, in one expression (at most 10 metrics: 6 here).
    const throttleMetrics = Object.fromEntries(
      [undefined, GSI1, GSI2].flatMap((index, i) =>
        ['ReadThrottleEvents', 'WriteThrottleEvents'].map((metricName, j) => [
          `t${i}${j}`,
          props.table.metric(metricName, {
            period: PERIOD,
            statistic: Stats.SUM,
            ...(index ? { dimensionsMap: { TableName: props.table.tableName, GlobalSecondaryIndexName: index } } : {}),
          }),
        ]),
      ),
    );
    alarm(
      'DynamoDbThrottles',
      'DynamoDB throttles',
      'The table or an index throttled reads or writes in the last 5 minutes: requests answered 503 (clients retry). A spike beyond what ' +
        'on-demand capacity adapts to at once, or an account limit. See docs/runbook.md.',
      new MathExpression({ expression: 'SUM(METRICS())', usingMetrics: throttleMetrics, period: PERIOD, label: 'throttle events' }),
      { threshold: 1 },
    );

    const namespace = metricsNamespace(this);
    // What only the functions' logs (and API Gateway's) tell: metric filters and their alarms (infra/log-alarms.ts).
    const { rateLimited } = logAlarms(props, namespace, alarm);

    this.alarms.push(...serviceLevelAlarms(this, { namespace, stackName, action, hipaa: props.hipaa !== undefined }));
    serviceDashboard(this, {
      stackName,
      namespace,
      alarms: this.alarms,
      queues: props.queues,
      deadLetterQueues: props.deadLetterQueues,
      rules: props.rules,
      table: props.table,
      apiStage: props.api.deploymentStage,
      rateLimited: rateLimited.metric({ period: PERIOD, statistic: Stats.SUM, label: '429' }),
    });
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
  return groups;
}
