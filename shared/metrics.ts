/**
 * The service's CloudWatch metrics, written as log lines in the embedded metric format (EMF), which
 * CloudWatch Logs turns into metrics. No PutMetricData call, no SDK client, no time spent on a request's
 * path beyond writing one line.
 *
 * Written here, not with Powertools Metrics: we write two fixed shapes of line (a request's, a business
 * fact's), and the library's store, validation and console made a request's line three times as dear
 * (22 µs of CPU against 7 in a tight loop, 39 µs in a profile of real requests) and added 12 KB to every
 * bundle (docs/proofs-and-performance.md "Handler CPU"), for what is two JSON.stringify calls. The format is
 * AWS's (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html);
 * test/integration/metrics.test.ts pins every line we write to it. The variables are those Powertools
 * reads, as the service's logger (shared/logger.ts) does, so one set configures both.
 *
 * The namespace is the stack's (`LabApi/LabApi-prod`: POWERTOOLS_METRICS_NAMESPACE, set by
 * infra/lab-function.ts), so two stages in one account never mix, and the log-derived metrics of
 * infra/monitoring.ts sit beside them. Dimensions are low-cardinality on purpose: the service, and either
 * the route (a name of the routes table) or its route class (`read`, `write`, `render`: what an SLO is
 * written for, docs/operations.md "Service levels"). Never a key id, a profile id, a tenant or anything else a client chooses: each
 * distinct value is a metric of its own, billed, and a key id in a metric is an identifier in a place
 * nobody reviews for privacy.
 *
 * The route class comes from the function's environment (LAB_ROUTE_CLASS, set by infra/lab-function.ts);
 * the local stack turns metrics off (POWERTOOLS_METRICS_DISABLED): there they would only be a JSON line
 * per request on the terminal.
 */
import { type BusinessMetric, REQUEST_METRICS } from './metric-names';
import { currentRealm } from './sandbox';

/** EMF's units, as CloudWatch names them; only those we write. */
export const MetricUnit = { Count: 'Count', Milliseconds: 'Milliseconds', Seconds: 'Seconds' } as const;
type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/** Outside Lambda (the local stack, a test) there is no stack: its metrics, when on, are the local ones. */
const namespace = process.env.POWERTOOLS_METRICS_NAMESPACE || 'LabApi/local';
const service = process.env.POWERTOOLS_SERVICE_NAME || 'lab-api';
/**
 * The values Powertools' extended boolean parsing reads as yes, in any case. Unlike Powertools, any other
 * value (and POWERTOOLS_DEV, which nothing here sets) leaves metrics on: a typo never silences them.
 */
const disabled = ['1', 'y', 'yes', 't', 'true', 'on'].includes((process.env.POWERTOOLS_METRICS_DISABLED ?? '').trim().toLowerCase());

/** The route class of this function (infra/route-classes.ts sloClassOf), for the class dimension. */
const routeClass = process.env.LAB_ROUTE_CLASS;

type Directive = { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: Unit }[] };

/**
 * An EMF document: the directive, and the dimensions' values and the metrics' own, by name. All but the
 * `service` dimension's value, which the line it is written in carries: a line of its own
 * (writeDocument), or the request's log line, whose `service` is the logger's, the same variable's value.
 */
const documentOf = (directive: Directive, values: Record<string, string | number>): Record<string, unknown> => ({
  _aws: { Timestamp: Date.now(), CloudWatchMetrics: [directive] },
  ...values,
});

/**
 * One EMF document on its own line: CloudWatch reads a log event as one document. A write to stdout, as
 * Powertools' Console made: Lambda's runtime reads each line as a log event.
 */
function writeDocument(document: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ _aws: document._aws, service, ...document })}\n`);
}

function writeMetrics(dimensions: string[][], metrics: { Name: string; Unit: Unit }[], values: Record<string, string | number>): void {
  if (disabled) return;
  writeDocument(documentOf({ Namespace: namespace, Dimensions: dimensions, Metrics: metrics }, values));
}

/**
 * One business fact, written at once as its own line with only the service as dimension: a request's
 * route dimensions never reach it, and a function that fails afterwards has still counted what it did.
 */
export function countBusiness(name: BusinessMetric, value = 1, unit: Unit = MetricUnit.Count): void {
  if (value === 0 && unit === MetricUnit.Count) return;
  // Sandbox data is a partner's test (docs/sandbox.md): its bookings and instant simulated results would
  // skew what the business figures and the turnaround tell. Its requests still count as load and errors.
  if (currentRealm() === 'sandbox') return;
  writeMetrics([['service']], [{ Name: name, Unit: unit }], { [name]: value });
}

const REQUEST_METRIC_DEFINITIONS = [
  { Name: REQUEST_METRICS.requests, Unit: MetricUnit.Count },
  { Name: REQUEST_METRICS.clientErrors, Unit: MetricUnit.Count },
  { Name: REQUEST_METRICS.serverErrors, Unit: MetricUnit.Count },
  { Name: REQUEST_METRICS.latency, Unit: MetricUnit.Milliseconds },
];
const REQUEST_DIMENSIONS = routeClass
  ? [
      ['service', 'route'],
      ['service', 'class'],
    ]
  : [['service', 'route']];
const REQUEST_DIRECTIVE: Directive = { Namespace: namespace, Dimensions: REQUEST_DIMENSIONS, Metrics: REQUEST_METRIC_DEFINITIONS };

/**
 * One API request as metrics, the EMF document's fields: counted, its errors by status class (0 or 1, so
 * that the average is a rate) and its duration in the handler, with two dimension sets: by route and by
 * route class. Undefined when metrics are off. The request's log line carries them when it is written
 * (shared/http/middlewares.ts accessLog: EMF lets a document hold other fields, and one line costs a
 * request less than two); `countRequest` writes them alone.
 */
export function requestMetrics(route: string, status: number | undefined, durationMs: number): Record<string, unknown> | undefined {
  if (disabled) return undefined;
  const statusCode = status ?? 500;
  return documentOf(REQUEST_DIRECTIVE, {
    route,
    ...(routeClass ? { class: routeClass } : {}),
    [REQUEST_METRICS.requests]: 1,
    [REQUEST_METRICS.clientErrors]: statusCode >= 400 && statusCode < 500 ? 1 : 0,
    [REQUEST_METRICS.serverErrors]: statusCode >= 500 ? 1 : 0,
    [REQUEST_METRICS.latency]: durationMs,
  });
}

/** One API request as metrics, on a line of its own (when the request's log line is not written). */
export function countRequest(route: string, status: number | undefined, durationMs: number): void {
  const document = requestMetrics(route, status, durationMs);
  if (document) writeDocument(document);
}

export { BUSINESS_METRICS } from './metric-names';
