/**
 * The one Powertools Metrics of a container: CloudWatch metrics written as log lines in the embedded
 * metric format (EMF), which CloudWatch Logs turns into metrics. No PutMetricData call, no SDK client, no
 * time spent on a request's path beyond writing one line.
 *
 * The namespace is the stack's (`LabApi/LabApi-prod`: POWERTOOLS_METRICS_NAMESPACE, set by
 * infra/api-function.ts), so two stages in one account never mix, and the log-derived metrics of
 * infra/monitoring.ts sit beside them. Dimensions are low-cardinality on purpose: the service, and either
 * the route (a name of the routes table) or its route class (`read`, `write`, `render`: what an SLO is
 * written for, docs/operations.md "Service levels"). Never a key id, a profile id, a tenant or anything else a client chooses: each
 * distinct value is a metric of its own, billed, and a key id in a metric is an identifier in a place
 * nobody reviews for privacy.
 *
 * The route class comes from the function's environment (LAB_ROUTE_CLASS, set by infra/api-function.ts),
 * like Powertools' own settings; the local stack turns metrics off
 * (POWERTOOLS_METRICS_DISABLED): there they would only be a JSON line per request on the terminal.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { type BusinessMetric, REQUEST_METRICS } from './metric-names';
import { currentRealm } from './sandbox';

/** Outside Lambda (the local stack, a test) there is no stack: its metrics, when on, are the local ones. */
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'LabApi/local',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'lab-api',
});

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/**
 * One business fact, written at once as its own EMF line with only the default dimensions: a request's
 * route dimensions never leak onto it, and a function that fails afterwards has still counted what it did.
 */
export function countBusiness(name: BusinessMetric, value = 1, unit: Unit = MetricUnit.Count): void {
  if (value === 0 && unit === MetricUnit.Count) return;
  // Sandbox data is a partner's test (docs/sandbox.md): its bookings and instant simulated results would
  // skew what the business figures and the turnaround tell. Its requests still count as load and errors.
  if (currentRealm() === 'sandbox') return;
  const single = metrics.singleMetric();
  single.addMetric(name, unit, value);
}

/** The route class of this function (infra/route-classes.ts sloClassOf), for the class dimension. */
const routeClass = process.env.LAB_ROUTE_CLASS;

/**
 * One API request as metrics: counted, its errors by status class (0 or 1, so that the average is a
 * rate) and its duration in the handler. Written as one EMF line with two dimension sets: by route and
 * by route class.
 */
export function countRequest(route: string, status: number | undefined, durationMs: number): void {
  const statusCode = status ?? 500;
  metrics.addDimension('route', route);
  if (routeClass) metrics.addDimensions({ class: routeClass });
  metrics.addMetric(REQUEST_METRICS.requests, MetricUnit.Count, 1);
  metrics.addMetric(REQUEST_METRICS.clientErrors, MetricUnit.Count, statusCode >= 400 && statusCode < 500 ? 1 : 0);
  metrics.addMetric(REQUEST_METRICS.serverErrors, MetricUnit.Count, statusCode >= 500 ? 1 : 0);
  metrics.addMetric(REQUEST_METRICS.latency, MetricUnit.Milliseconds, durationMs);
  metrics.publishStoredMetrics();
}

export { MetricUnit };
export { BUSINESS_METRICS } from './metric-names';
