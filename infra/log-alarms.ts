/**
 * The alarms that read what only logs tell (infra/monitoring.ts builds the rest): metric filters on the
 * functions' log lines — events the relay published late, webhook subscriptions disabled, critical values
 * nobody acknowledged, lab results that matched no order left waiting — the webhook failure rate from the business metrics, and the 429s of API Gateway's
 * access log, which no function sees.
 */
import { Duration } from 'aws-cdk-lib';
import { type IAlarm, type IMetric, MathExpression, Metric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, type LogGroup } from 'aws-cdk-lib/aws-logs';
import { CRITICAL_UNACKNOWLEDGED_LOG, UNMATCHED_WAITING_LOG } from '../shared/domain/results';
import { DISABLE_AFTER_FAILED_DELIVERIES, WEBHOOK_DISABLED_LOG } from '../shared/domain/webhook';
import { BUSINESS_METRICS } from '../shared/metric-names';
import type { LabFunction } from './lab-function';
import { businessMetric } from './service-levels';

/** The period of every alarm of the monitoring stack but the webhook failure rate's. */
export const PERIOD = Duration.minutes(5);
/** What the relay logs (functions/events/relay-outbox.ts), and the metric counted from it. */
export const OUTBOX_RELAYED_LOG = { message: 'outbox relayed', field: 'published' } as const;
export const OUTBOX_RELAYED_METRIC = 'OutboxRelayedEvents';
/** Subscriptions disabled by their failures, counted from WEBHOOK_DISABLED_LOG lines. */
export const WEBHOOKS_DISABLED_METRIC = 'WebhookSubscriptionsDisabled';
/** Requests API Gateway answered 429 (a key's usage plan or the stage's throttle), from its access log. */
export const RATE_LIMITED_METRIC = 'RateLimitedRequests';
/** The window of the webhook failure rate. */
export const WEBHOOK_WINDOW = Duration.minutes(15);
/** Appointments whose critical results waited too long, counted from CRITICAL_UNACKNOWLEDGED_LOG lines. */
export const CRITICAL_UNACKNOWLEDGED_METRIC = 'CriticalResultsUnacknowledged';
/** Lab reports that matched no order and waited too long to be matched or discarded, from UNMATCHED_WAITING_LOG lines (issue #51). */
export const UNMATCHED_WAITING_METRIC = 'UnmatchedResultsWaiting';

/** An alarm of the monitoring stack, notifying its topic (infra/monitoring.ts makes them). */
export type AlarmFactory = (
  alarmId: string,
  title: string,
  description: string,
  metric: IMetric,
  options: { threshold: number; evaluationPeriods?: number; datapointsToAlarm?: number },
) => IAlarm;

export interface LogAlarmsProps {
  readonly relay: LabFunction;
  readonly webhookSenders: readonly { name: string; function: LabFunction }[];
  readonly criticalResultsCheck: { function: LabFunction; ackMinutes: number; unmatchedWaitMinutes: number };
  readonly apiAccessLogs: LogGroup;
}

export function logAlarms(props: LogAlarmsProps, namespace: string, alarm: AlarmFactory) {
  const relayed = props.relay.logGroup.addMetricFilter('OutboxRelayed', {
    filterPattern: FilterPattern.stringValue('$.message', '=', OUTBOX_RELAYED_LOG.message),
    metricNamespace: namespace,
    metricName: OUTBOX_RELAYED_METRIC,
    metricValue: `$.${OUTBOX_RELAYED_LOG.field}`,
  });
  alarm(
    'OutboxDelayed',
    'outbox events delayed',
    'The outbox relay published events at least 30 s after their request: the request path failed to put them on the bus (EventBridge or IAM trouble). They are published now; find why the requests could not.',
    relayed.metric({ period: PERIOD, statistic: Stats.SUM }),
    { threshold: 1 },
  );

  // One metric fed by every sender's log group: the alarm reads it whichever function disabled.
  for (const { function: fn } of props.webhookSenders) {
    fn.logGroup.addMetricFilter('WebhooksDisabled', {
      filterPattern: FilterPattern.stringValue('$.message', '=', WEBHOOK_DISABLED_LOG),
      metricNamespace: namespace,
      metricName: WEBHOOKS_DISABLED_METRIC,
      metricValue: '1',
    });
  }
  alarm(
    'WebhooksDisabled',
    'webhook subscriptions disabled',
    `A client's webhook subscription was disabled after ${DISABLE_AFTER_FAILED_DELIVERIES} failed deliveries in a row: tell the client. ` +
      `Find the "${WEBHOOK_DISABLED_LOG}" log lines (webhook_id, key_id) of these functions: ${props.webhookSenders.map((f) => f.name).join(', ')}. ` +
      'Once the endpoint is fixed, the client PATCHes the subscription to enabled and may retry its failed deliveries.',
    new Metric({ namespace, metricName: WEBHOOKS_DISABLED_METRIC, period: PERIOD, statistic: Stats.SUM }),
    { threshold: 1 },
  );

  const check = props.criticalResultsCheck;
  const unacknowledged = check.function.logGroup.addMetricFilter('CriticalUnacknowledged', {
    filterPattern: FilterPattern.stringValue('$.message', '=', CRITICAL_UNACKNOWLEDGED_LOG),
    metricNamespace: namespace,
    metricName: CRITICAL_UNACKNOWLEDGED_METRIC,
    metricValue: '$.count',
  });
  alarm(
    'CriticalUnacknowledged',
    'critical results unacknowledged',
    `Critical lab values waited more than ${check.ackMinutes} minutes for a clinician's acknowledgement: a patient may need care now. ` +
      `The critical results check's log (${CRITICAL_UNACKNOWLEDGED_LOG}: appointment_ids, oldest_waiting_since) names the appointments; ` +
      'reach the ordering clinic. The alarm clears once each is acknowledged (POST /api/v1/appointments/{id}/results/acknowledge).',
    unacknowledged.metric({ period: PERIOD, statistic: Stats.MAXIMUM }),
    { threshold: 1 },
  );

  const unmatched = check.function.logGroup.addMetricFilter('UnmatchedWaiting', {
    filterPattern: FilterPattern.stringValue('$.message', '=', UNMATCHED_WAITING_LOG),
    metricNamespace: namespace,
    metricName: UNMATCHED_WAITING_METRIC,
    metricValue: '$.count',
  });
  alarm(
    'UnmatchedResultsWaiting',
    'unmatched lab results waiting',
    `A lab report whose barcode matched no drawn order waited more than ${check.unmatchedWaitMinutes} minutes to be matched or discarded: ` +
      "a person's results reach nobody. The check's log " +
      `(${UNMATCHED_WAITING_LOG}: unmatched_result_ids, oldest_received_at) names them; GET /api/v1/lab/unmatched-results lists them. ` +
      'Match each to its appointment or discard it (docs/runbook.md); the alarm clears once none waits that long.',
    unmatched.metric({ period: PERIOD, statistic: Stats.MAXIMUM }),
    { threshold: 1 },
  );

  // Attempts of real events (shared/usecases/deliver-webhooks.ts); one client's dead endpoint is the
  // disabled-subscription alarm's business, a quarter of all attempts failing is ours (signing, egress, DNS).
  const attempts = (metricName: string) => businessMetric(namespace, metricName, { period: WEBHOOK_WINDOW, statistic: Stats.SUM });
  alarm(
    'WebhookFailureRate',
    'webhook failure rate',
    `At least 25 % of webhook delivery attempts failed, in two ${WEBHOOK_WINDOW.toHumanString()} windows in a row with at least 20 attempts each. ` +
      'Many clients failing at once points at us (signing, network egress, DNS), not at one endpoint. See docs/runbook.md.',
    new MathExpression({
      // Each is written only when it happened: a window where every attempt failed has no `ok` at all.
      expression: 'IF(FILL(ok, 0) + FILL(failed, 0) >= 20, 100 * FILL(failed, 0) / (FILL(ok, 0) + FILL(failed, 0)), 0)',
      usingMetrics: { ok: attempts(BUSINESS_METRICS.webhookDeliveriesSucceeded), failed: attempts(BUSINESS_METRICS.webhookDeliveriesFailed) },
      period: WEBHOOK_WINDOW,
      label: 'failed % of webhook attempts',
    }),
    { threshold: 25, evaluationPeriods: 2 },
  );

  // What API Gateway refused over a key's usage plan or the stage's throttle: no function ran, so only its access log knows.
  const rateLimited = props.apiAccessLogs.addMetricFilter('RateLimited', {
    filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
    metricNamespace: namespace,
    metricName: RATE_LIMITED_METRIC,
    metricValue: '1',
  });

  return { rateLimited };
}
