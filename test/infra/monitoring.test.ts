/**
 * What a prod stack gives on-call beyond the alarms of test/infra/stack.test.ts: the service's metrics
 * wired into every function, the dashboard, the service-level burn alarms, the webhook failure rate and
 * the count of requests the gateway refused with 429. Dev has none of them but the metrics' wiring.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiFunction } from '../../infra/api-function';
import { RATE_LIMITED_METRIC } from '../../infra/monitoring';
import { SERVICE_LEVEL_CLASSES } from '../../infra/route-classes';
import { BURN_RATES, budgetOf, MIN_REQUESTS, SERVICE_LEVELS } from '../../infra/service-levels';
import { BUSINESS_METRICS } from '../../shared/metric-names';
import { labApiStack, str, Synthesized, testApp } from './synth';

let prod: Synthesized;
let dev: Synthesized;

beforeAll(() => {
  prod = new Synthesized(labApiStack(testApp(), 'prod'));
  dev = new Synthesized(labApiStack(testApp(), 'dev'));
});

const NAMESPACE = 'LabApi/LabApi-prod';

describe('the service metrics of a stack', () => {
  it("tell every function its stack's namespace, and every route function its route class", () => {
    for (const { construct, fn } of prod.functions) {
      const variables = (prod.resources[fn]!.Properties.Environment as { Variables: Record<string, string> }).Variables;
      expect(variables.POWERTOOLS_METRICS_NAMESPACE, construct.node.path).toBe(NAMESPACE);
      expect(variables.LAB_ROUTE_CLASS, construct.node.path).toBe(
        construct instanceof ApiFunction ? SERVICE_LEVEL_CLASSES[construct.functionClass] : undefined,
      );
    }
  });

  it('give each stage its own namespace', () => {
    const namespaces = dev.functions.map(
      ({ fn }) => (dev.resources[fn]!.Properties.Environment as { Variables: Record<string, string> }).Variables.POWERTOOLS_METRICS_NAMESPACE,
    );
    expect(new Set(namespaces)).toEqual(new Set(['LabApi/LabApi-dev']));
  });

  it('have no dashboard and no burn alarm in dev', () => {
    expect(dev.ofType('AWS::CloudWatch::Dashboard')).toEqual([]);
    expect(dev.ofType('AWS::CloudWatch::CompositeAlarm')).toEqual([]);
  });
});

describe('the prod dashboard', () => {
  const body = () => str(prod.onlyOfType('AWS::CloudWatch::Dashboard')[1].Properties.DashboardBody);

  it.each([
    'Alarms',
    'Requests by route class',
    '5xx and 4xx rate by route class (%)',
    'Latency p50 by route class (ms)',
    'Latency p99 by route class (ms)',
    'API Gateway latency, whole stage (ms)',
    'Requests by route',
    '5xx by route',
    'Latency p99 by route (ms)',
    'Rate-limited requests (429 at the gateway)',
    'Lambda throttles',
    'DynamoDB throttle events',
    'Queue depth (messages visible)',
    'Oldest message age (s)',
    'EventBridge failed invocations',
    'Webhook deliveries',
    'Bookings, cancellations, draws, reports',
    'Lab turnaround, draw to final results (hours)',
  ])('shows "%s"', (title) => {
    expect(body()).toContain(`\\"title\\":\\"${title}\\"`);
  });

  it("finds every route's series by a search over the stack's namespace, so a new route needs no edit", () => {
    // The body is JSON inside the template's JSON: each quote escaped twice.
    const twiceEscaped = (text: string) => JSON.stringify(JSON.stringify(text).slice(1, -1)).slice(1, -1);
    expect(body()).toContain(twiceEscaped(`SEARCH('{"${NAMESPACE}",service,route} MetricName="Requests"', 'Sum', 300)`));
  });

  it('shows every business metric', () => {
    for (const name of Object.values(BUSINESS_METRICS)) expect(body()).toContain(`\\"${name}\\"`);
  });
});

describe('the service-level burn alarms', () => {
  const composites = () => prod.ofType('AWS::CloudWatch::CompositeAlarm');
  const windowsOf = (rule: unknown) => [...str(rule).matchAll(/"Fn::GetAtt":\["(\w+)","Arn"\]/g)].map((m) => prod.resources[m[1]!]!.Properties);

  it('are one fast and one slow burn on availability and latency of each route class', () => {
    const names = composites().map(([, alarm]) => String(alarm.Properties.AlarmName));
    const expected = Object.keys(SERVICE_LEVELS).flatMap((routeClass) =>
      ['availability', 'latency'].flatMap((objective) => BURN_RATES.map((burn) => `LabApi-prod SLO ${routeClass} ${objective} burning ${burn.name}`)),
    );
    expect(names.sort()).toEqual(expected.sort());
  });

  it('each fire only when both the long and the short window burn past the rate (rate × budget, in % of requests)', () => {
    for (const [, { Properties: composite }] of composites()) {
      const [, routeClass, objective, , burnName] = String(composite.AlarmName)
        .replace('LabApi-prod SLO ', '')
        .match(/^(\w+) (\w+) (burning) (\w+)$/)!;
      const burn = BURN_RATES.find((b) => b.name === burnName)!;
      expect(str(composite.AlarmRule)).toMatch(/^\{"Fn::Join":\["",\["\(ALARM\(\\"",\{"Fn::GetAtt".*\\"\) AND ALARM\(\\"/);
      const windows = windowsOf(composite.AlarmRule);
      const threshold = Number((burn.rate * budgetOf(routeClass as 'read', objective as 'latency')).toFixed(3));
      expect(windows.map((w) => [w.Threshold, w.EvaluationPeriods, w.ComparisonOperator])).toEqual([
        [threshold, 1, 'GreaterThanOrEqualToThreshold'],
        [threshold, 1, 'GreaterThanOrEqualToThreshold'],
      ]);
      const periods = windows.map((w) => (w.Metrics as { MetricStat?: { Period: number } }[]).find((m) => m.MetricStat)!.MetricStat!.Period);
      expect(periods).toEqual([burn.long.toSeconds(), burn.short.toSeconds()]);
    }
  });

  it('read availability from the share of 5xx and latency from the percentile rank of the bound, by route class, ignoring quiet windows', () => {
    const byName = (name: string) => composites().find(([, a]) => a.Properties.AlarmName === name)![1].Properties;
    const [availability] = windowsOf(byName('LabApi-prod SLO write availability burning fast').AlarmRule);
    const [latency] = windowsOf(byName('LabApi-prod SLO read latency burning fast').AlarmRule);
    const statOf = (w: Record<string, unknown>, name: string) =>
      (w.Metrics as { MetricStat?: { Stat: string; Metric: { MetricName: string; Namespace: string; Dimensions: unknown } } }[]).find(
        (m) => m.MetricStat?.Metric.MetricName === name,
      )!.MetricStat!;
    expect(statOf(availability!, 'ServerErrors')).toMatchObject({
      Stat: 'Average',
      Metric: {
        Namespace: NAMESPACE,
        Dimensions: [
          { Name: 'class', Value: 'write' },
          { Name: 'service', Value: 'lab-api' },
        ],
      },
    });
    expect(statOf(latency!, 'Latency')).toMatchObject({ Stat: `PR(:${SERVICE_LEVELS.read.latencyMs})` });
    expect(str(availability!.Metrics)).toContain(`IF(requests >= ${MIN_REQUESTS}, 100 * bad, 0)`);
    expect(str(latency!.Metrics)).toContain(`IF(requests >= ${MIN_REQUESTS}, 100 - bad, 0)`);
  });

  it('ask the short window for one request only, so that a quiet class (renders) can still alarm', () => {
    const composite = composites().find(([, a]) => a.Properties.AlarmName === 'LabApi-prod SLO render availability burning fast')![1].Properties;
    const [, short] = windowsOf(composite.AlarmRule);
    expect(str(short!.Metrics)).toContain('IF(requests >= 1, 100 * bad, 0)');
  });
});

describe('the prod alarms on webhooks and limits', () => {
  it('alarm when a quarter of webhook delivery attempts fail, two 15-minute windows in a row with at least 20 attempts', () => {
    const alarm = prod
      .ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .find((a) => String(a.AlarmName).endsWith('webhook failure rate'))!;
    expect(alarm).toMatchObject({ Threshold: 25, EvaluationPeriods: 2, DatapointsToAlarm: 2 });
    // FILL: a window where every attempt failed has no `ok` data point, and must still alarm.
    expect(str(alarm.Metrics)).toContain('IF(FILL(ok, 0) + FILL(failed, 0) >= 20, 100 * FILL(failed, 0) / (FILL(ok, 0) + FILL(failed, 0)), 0)');
    expect(str(alarm.Metrics)).toContain(`"MetricName":"${BUSINESS_METRICS.webhookDeliveriesFailed}"`);
    expect(str(alarm.Metrics)).toContain('"Period":900');
  });

  it("count the requests the gateway answered 429 from its access log, in the stack's namespace", () => {
    const filters = prod.ofType('AWS::Logs::MetricFilter').map(([, f]) => f.Properties);
    const rateLimited = filters.find((f) => str(f.MetricTransformations).includes(RATE_LIMITED_METRIC))!;
    expect(rateLimited.FilterPattern).toBe('{ $.status = "429" }');
    expect(rateLimited.MetricTransformations).toEqual([{ MetricNamespace: NAMESPACE, MetricName: RATE_LIMITED_METRIC, MetricValue: '1' }]);
    expect(str(rateLimited.LogGroupName)).toContain('ApiAccessLogs');
  });
});
