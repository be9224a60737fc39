/**
 * The names of the service's own CloudWatch metrics: written by shared/metrics.ts, read by the dashboard
 * and the alarms (infra/). A module of constants, so that infra/ never loads the metrics writer.
 */

/** What each API request counts, per route and per route class (shared/http/middlewares.ts accessLog). */
export const REQUEST_METRICS = {
  requests: 'Requests',
  clientErrors: 'ClientErrors',
  serverErrors: 'ServerErrors',
  latency: 'Latency',
} as const;

/**
 * What the business counts, with the service as the only dimension. One name per
 * fact, each counted where the fact becomes true (after the write that makes it so succeeded).
 */
export const BUSINESS_METRICS = {
  appointmentsBooked: 'AppointmentsBooked',
  appointmentsCancelled: 'AppointmentsCancelled',
  drawsConfirmed: 'DrawsConfirmed',
  /** Reports the lab sent that changed stored results (JSON or HL7). */
  resultsIngested: 'ResultsIngested',
  /** From the draw to the last final result of an appointment, in seconds. */
  drawToFinalTurnaround: 'DrawToFinalTurnaround',
  webhookDeliveriesSucceeded: 'WebhookDeliveriesSucceeded',
  webhookDeliveriesFailed: 'WebhookDeliveriesFailed',
} as const;

export type BusinessMetric = (typeof BUSINESS_METRICS)[keyof typeof BUSINESS_METRICS];
