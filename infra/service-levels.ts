/**
 * The service levels (docs/operations.md "Service levels") and the alarms on how fast they burn.
 *
 * Each route class (infra/route-classes.ts SERVICE_LEVEL_CLASSES) has two objectives over 30 days:
 * availability (the share of requests not answered 5xx) and latency (the share answered within a bound,
 * measured in the handler: shared/metrics.ts `Latency`). Both read the service's own metrics by class.
 *
 * Burn-rate alarms, as in Google's SRE workbook ("Alerting on SLOs", multiwindow, multi-burn-rate): the
 * error budget is 1 − objective. Burning it 14.4 times as fast as allowed for an hour spends 2 % of the
 * month's budget (page now); 6 times for six hours spends 5 % (look today). Each is a composite alarm of a
 * long window (is it significant?) and a short one (is it still happening?), so it fires within minutes
 * and clears as soon as the burning stops. A long window with fewer than MIN_REQUESTS requests never
 * alarms: one 5xx of three requests at night is the Lambda error alarm's business, not a budget burning.
 * The short window needs only one request (it says whether the burning goes on): with a minimum there too,
 * a class as quiet as the renders would never reach it in 5 minutes, and its alarms could never fire.
 *
 * What the service's metrics see is what the handler answered: a Lambda that times out, runs out of
 * memory, or whose answer is over 6 MB writes no metric line, and API Gateway answers 502/504 for it.
 * Those are the API 5xx rate alarm's and the Lambda errors alarms' (infra/monitoring.ts), which read AWS's
 * own metrics.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmRule,
  AlarmState,
  ComparisonOperator,
  CompositeAlarm,
  type IAlarmAction,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { REQUEST_METRICS } from '../shared/metric-names';
import { POWERTOOLS_ENVIRONMENT } from './api-function';
import { SERVICE_LEVEL_CLASS_NAMES, type ServiceLevelClass } from './route-classes';

export interface ServiceLevel {
  /** Percent of requests not answered 5xx. */
  readonly availability: number;
  /** Percent of requests answered within latencyMs. */
  readonly latencyObjective: number;
  readonly latencyMs: number;
}

/**
 * Reads answer from a few items: 99 % within 500 ms leaves room for a cold start's first queries. Writes
 * commit a transaction (or wait for a client's webhook endpoint, at most 10 s, in the rare test send): 99 %
 * within 1 s. Renders build a PDF with its fonts or a person's whole export: 99 % within 8 s, and a
 * looser availability: they parse fonts and read whole histories, the work most exposed to the
 * table's and S3's throttling (answered 503).
 */
export const SERVICE_LEVELS: Readonly<Record<ServiceLevelClass, ServiceLevel>> = {
  read: { availability: 99.9, latencyObjective: 99, latencyMs: 500 },
  write: { availability: 99.9, latencyObjective: 99, latencyMs: 1000 },
  render: { availability: 99.5, latencyObjective: 99, latencyMs: 8000 },
};

/** The two burn rates, each with its long and short window. */
export const BURN_RATES = [
  { name: 'fast', rate: 14.4, long: Duration.hours(1), short: Duration.minutes(5) },
  { name: 'slow', rate: 6, long: Duration.hours(6), short: Duration.minutes(30) },
] as const;

/** Fewer requests than this in a window: no alarm (see above). */
export const MIN_REQUESTS = 20;

/**
 * The dimension every metric of the service carries: the service name the functions' Powertools writes
 * (POWERTOOLS_SERVICE_NAME), so that what the alarms and the dashboard read is what the functions write.
 */
export const SERVICE_DIMENSIONS = { service: POWERTOOLS_ENVIRONMENT.POWERTOOLS_SERVICE_NAME } as const;

/** The service's dimensions of a route class's metrics (shared/metrics.ts countRequest). */
export const classDimensions = (routeClass: ServiceLevelClass) => ({ ...SERVICE_DIMENSIONS, class: routeClass });

/** One of the service's business metrics (shared/metric-names.ts BUSINESS_METRICS): the service its only dimension. */
export const businessMetric = (namespace: string, metricName: string, props: { period: Duration; statistic: string; label?: string }) =>
  new Metric({ namespace, metricName, dimensionsMap: SERVICE_DIMENSIONS, ...props });

/** The percent of a class's requests that broke the objective in `period` (0 with fewer than `minRequests`). */
function badPercent(
  namespace: string,
  routeClass: ServiceLevelClass,
  objective: 'availability' | 'latency',
  period: Duration,
  minRequests: number,
): MathExpression {
  const level = SERVICE_LEVELS[routeClass];
  const dimensionsMap = classDimensions(routeClass);
  const requests = new Metric({ namespace, metricName: REQUEST_METRICS.requests, dimensionsMap, period, statistic: Stats.SUM });
  // ServerErrors is 0 or 1 per request: its average is the share answered 5xx. Percentile rank: the share
  // of Latency samples at or under the bound.
  const bad =
    objective === 'availability'
      ? new Metric({ namespace, metricName: REQUEST_METRICS.serverErrors, dimensionsMap, period, statistic: Stats.AVERAGE })
      : new Metric({ namespace, metricName: REQUEST_METRICS.latency, dimensionsMap, period, statistic: Stats.percentileRank(level.latencyMs) });
  return new MathExpression({
    expression: objective === 'availability' ? `IF(requests >= ${minRequests}, 100 * bad, 0)` : `IF(requests >= ${minRequests}, 100 - bad, 0)`,
    usingMetrics: { requests, bad },
    period,
    label: `${routeClass} ${objective === 'availability' ? '% answered 5xx' : `% slower than ${level.latencyMs} ms`}`,
  });
}

/** The budget of an objective, in percent of requests. */
export const budgetOf = (routeClass: ServiceLevelClass, objective: 'availability' | 'latency') =>
  100 - (objective === 'availability' ? SERVICE_LEVELS[routeClass].availability : SERVICE_LEVELS[routeClass].latencyObjective);

/**
 * For every class, objective and burn rate: two window alarms without actions, and the composite alarm of
 * both, which notifies `action` on alarm and on recovery. Answers the composites.
 */
export function serviceLevelAlarms(scope: Construct, props: { namespace: string; stackName: string; action: IAlarmAction; hipaa: boolean }): CompositeAlarm[] {
  const composites: CompositeAlarm[] = [];
  for (const routeClass of SERVICE_LEVEL_CLASS_NAMES) {
    for (const objective of ['availability', 'latency'] as const) {
      const level = SERVICE_LEVELS[routeClass];
      const budget = budgetOf(routeClass, objective);
      for (const burn of BURN_RATES) {
        const threshold = Number((burn.rate * budget).toFixed(3));
        const id = `${capitalize(routeClass)}${capitalize(objective)}${capitalize(burn.name)}Burn`;
        const windows = [burn.long, burn.short].map(
          (window, i) =>
            new Alarm(scope, `${id}${i === 0 ? 'Long' : 'Short'}`, {
              alarmName: `${props.stackName} SLO ${routeClass} ${objective} ${burn.name} burn (${window.toHumanString()})`,
              metric: badPercent(props.namespace, routeClass, objective, window, i === 0 ? MIN_REQUESTS : 1),
              threshold,
              comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
              evaluationPeriods: 1,
              treatMissingData: TreatMissingData.NOT_BREACHING,
            }),
        );
        // HIPAA's checks want an action on every alarm; a window's would page a second time for its composite.
        if (props.hipaa) {
          for (const window of windows) {
            Validations.of(window).acknowledge({
              id: 'HIPAA.Security-CloudWatchAlarmAction',
              reason:
                'One window of a multiwindow burn-rate alarm: the composite alarm of its two windows notifies the alarm topic on ' +
                'alarm and on recovery; an action here would page a second time, and on one window alone.',
            });
          }
        }
        const what =
          objective === 'availability'
            ? `${level.availability} % of ${routeClass} requests not answered 5xx`
            : `${level.latencyObjective} % of ${routeClass} requests within ${level.latencyMs} ms`;
        const composite = new CompositeAlarm(scope, id, {
          compositeAlarmName: `${props.stackName} SLO ${routeClass} ${objective} burning ${burn.name}`,
          alarmDescription:
            `The ${objective} objective (${what}, over 30 days) is spending its error budget ${burn.rate} times as fast as it may ` +
            `(${threshold} % of requests bad over ${burn.long.toHumanString()} and still over the last ${burn.short.toHumanString()}). ` +
            'See docs/runbook.md, "Service level burning".',
          alarmRule: AlarmRule.allOf(...windows.map((window) => AlarmRule.fromAlarm(window, AlarmState.ALARM))),
        });
        composite.addAlarmAction(props.action);
        composite.addOkAction(props.action);
        composites.push(composite);
      }
    }
  }
  return composites;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
