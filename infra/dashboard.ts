/**
 * The one CloudWatch dashboard of a prod stack: what on-call opens first (docs/runbook.md). Top to bottom:
 * the alarms' states; traffic, errors and latency by route class and by route; throttles (rate-limited
 * clients, Lambda, DynamoDB); queues; lost events; webhook deliveries; the business (bookings, draws,
 * results, the lab's turnaround).
 *
 * Per-route graphs use SEARCH expressions over the service's namespace: a new route shows up without an
 * edit here, and the dashboard costs the same with 57 routes as with 5 ($3 a month, whatever it holds).
 */
import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { AlarmStatusWidget, Dashboard, GraphWidget, type IAlarm, type IMetric, MathExpression, Metric, Stats, TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { BUSINESS_METRICS, REQUEST_METRICS } from '../shared/metric-names';
import { GSI1, GSI2 } from '../shared/store/keys';
import { SERVICE_LEVEL_CLASS_NAMES } from './route-classes';
import { businessMetric, classDimensions } from './service-levels';

const PERIOD = Duration.minutes(5);
const WIDTH = 24;

export interface DashboardProps {
  readonly stackName: string;
  readonly namespace: string;
  readonly alarms: readonly IAlarm[];
  readonly queues: readonly { name: string; queue: Queue }[];
  readonly deadLetterQueues: readonly { name: string; queue: Queue }[];
  readonly rules: readonly { name: string; rule: Rule; bus?: IEventBus }[];
  readonly table: Table;
  /** The API's stage: its own latency, as clients see it. */
  readonly apiStage: Stage;
  /** Requests API Gateway refused over a key's limits or the stage's (from its access log). */
  readonly rateLimited: IMetric;
}

export function serviceDashboard(scope: Construct, props: DashboardProps): Dashboard {
  const { namespace } = props;
  const byClass = (metricName: string, statistic: string, label: (c: string) => string) =>
    SERVICE_LEVEL_CLASS_NAMES.map(
      (routeClass) => new Metric({ namespace, metricName, dimensionsMap: classDimensions(routeClass), period: PERIOD, statistic, label: label(routeClass) }),
    );
  // Every route's series of one metric, found by search: `{namespace,service,route}` is the route dimension set.
  const byRoute = (metricName: string, statistic: string, label: string) =>
    new MathExpression({
      // Quoted: the namespace holds a slash and a hyphen.
      expression: `SEARCH('{"${namespace}",service,route} MetricName="${metricName}"', '${statistic}', ${PERIOD.toSeconds()})`,
      usingMetrics: {},
      period: PERIOD,
      label,
    });
  const business = (metricName: string, statistic: string = Stats.SUM, label: string = metricName) =>
    businessMetric(namespace, metricName, { period: PERIOD, statistic, label });
  const graph = (title: string, left: IMetric[], width = WIDTH / 2, right?: IMetric[]) => new GraphWidget({ title, left, right, width, height: 6 });

  const dashboard = new Dashboard(scope, 'Dashboard', { dashboardName: props.stackName, defaultInterval: Duration.hours(6) });
  dashboard.addWidgets(
    new TextWidget({
      markdown: `# ${props.stackName}\nService levels: docs/operations.md "Service levels". Each alarm and what to look at first: docs/runbook.md.`,
      width: WIDTH,
      height: 2,
    }),
  );
  dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: WIDTH, height: 6 }));
  dashboard.addWidgets(
    graph(
      'Requests by route class',
      byClass(REQUEST_METRICS.requests, Stats.SUM, (c) => c),
    ),
    graph(
      '5xx and 4xx rate by route class (%)',
      [REQUEST_METRICS.serverErrors, REQUEST_METRICS.clientErrors].flatMap((metricName, m) =>
        SERVICE_LEVEL_CLASS_NAMES.map(
          (routeClass, c) =>
            // 0 or 1 per request: the average is the rate. Ids unique within the graph.
            new MathExpression({
              expression: `100 * e${m}${c}`,
              usingMetrics: {
                [`e${m}${c}`]: new Metric({ namespace, metricName, dimensionsMap: classDimensions(routeClass), period: PERIOD, statistic: Stats.AVERAGE }),
              },
              period: PERIOD,
              label: `${routeClass} ${m === 0 ? '5xx' : '4xx'}`,
            }),
        ),
      ),
    ),
  );
  dashboard.addWidgets(
    graph(
      'Latency p50 by route class (ms)',
      byClass(REQUEST_METRICS.latency, Stats.p(50), (c) => `${c} p50`),
      WIDTH / 3,
    ),
    graph(
      'Latency p99 by route class (ms)',
      byClass(REQUEST_METRICS.latency, Stats.p(99), (c) => `${c} p99`),
      WIDTH / 3,
    ),
    // What the client waits for, cold starts and the gateway's own time included, for the stage as a whole.
    graph(
      'API Gateway latency, whole stage (ms)',
      [
        props.apiStage.metricLatency({ period: PERIOD, statistic: Stats.p(50), label: 'p50' }),
        props.apiStage.metricLatency({ period: PERIOD, statistic: Stats.p(99), label: 'p99' }),
        props.apiStage.metricIntegrationLatency({ period: PERIOD, statistic: Stats.p(99), label: 'integration p99' }),
      ],
      WIDTH / 3,
    ),
  );
  dashboard.addWidgets(
    graph('Requests by route', [byRoute(REQUEST_METRICS.requests, 'Sum', 'requests')], WIDTH / 3),
    graph('5xx by route', [byRoute(REQUEST_METRICS.serverErrors, 'Sum', '5xx')], WIDTH / 3),
    graph('Latency p99 by route (ms)', [byRoute(REQUEST_METRICS.latency, 'p99', 'p99')], WIDTH / 3),
  );
  dashboard.addWidgets(
    graph('Rate-limited requests (429 at the gateway)', [props.rateLimited], WIDTH / 3),
    graph(
      'Lambda throttles',
      [
        new MathExpression({
          expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="Throttles" "${props.stackName}"', 'Sum', ${PERIOD.toSeconds()})`,
          usingMetrics: {},
          period: PERIOD,
          label: 'throttles',
        }),
      ],
      WIDTH / 3,
    ),
    graph(
      'DynamoDB throttle events',
      [undefined, GSI1, GSI2].flatMap((index) =>
        ['ReadThrottleEvents', 'WriteThrottleEvents'].map((metricName) =>
          props.table.metric(metricName, {
            period: PERIOD,
            statistic: Stats.SUM,
            label: `${index ?? 'table'} ${metricName}`,
            ...(index ? { dimensionsMap: { TableName: props.table.tableName, GlobalSecondaryIndexName: index } } : {}),
          }),
        ),
      ),
      WIDTH / 3,
    ),
  );
  dashboard.addWidgets(
    graph(
      'Queue depth (messages visible)',
      [...props.queues, ...props.deadLetterQueues].map(({ name, queue }) =>
        queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: Stats.MAXIMUM, label: name }),
      ),
      WIDTH / 3,
    ),
    graph(
      'Oldest message age (s)',
      props.queues.map(({ name, queue }) => queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: Stats.MAXIMUM, label: name })),
      WIDTH / 3,
    ),
    graph(
      'EventBridge failed invocations',
      props.rules.map(
        ({ name, rule, bus }) =>
          new Metric({
            namespace: 'AWS/Events',
            metricName: 'FailedInvocations',
            dimensionsMap: { RuleName: rule.ruleName, ...(bus ? { EventBusName: bus.eventBusName } : {}) },
            period: PERIOD,
            statistic: Stats.SUM,
            label: name,
          }),
      ),
      WIDTH / 3,
    ),
  );
  dashboard.addWidgets(
    graph('Webhook deliveries', [
      business(BUSINESS_METRICS.webhookDeliveriesSucceeded, Stats.SUM, 'succeeded'),
      business(BUSINESS_METRICS.webhookDeliveriesFailed, Stats.SUM, 'failed'),
    ]),
    graph('Bookings, cancellations, draws, reports', [
      business(BUSINESS_METRICS.appointmentsBooked),
      business(BUSINESS_METRICS.appointmentsCancelled),
      business(BUSINESS_METRICS.drawsConfirmed),
      business(BUSINESS_METRICS.resultsIngested),
    ]),
  );
  dashboard.addWidgets(
    graph(
      'Lab turnaround, draw to final results (hours)',
      [Stats.p(50), Stats.p(90)].map(
        (statistic) =>
          new MathExpression({
            expression: `t${statistic.replace(/\W/g, '')} / 3600`,
            usingMetrics: {
              [`t${statistic.replace(/\W/g, '')}`]: business(BUSINESS_METRICS.drawToFinalTurnaround, statistic).with({ period: Duration.hours(1) }),
            },
            period: Duration.hours(1),
            label: statistic,
          }),
      ),
      WIDTH,
    ),
  );
  return dashboard;
}
