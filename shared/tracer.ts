/**
 * The one Powertools Tracer of a container: X-Ray subsegments for every AWS SDK call (DynamoDB, S3,
 * EventBridge: operation, table or bucket, status, retries and time) and for the handler of every keyed
 * route, annotated with the route. Never a body: the response and errors are not captured
 * (POWERTOOLS_TRACER_CAPTURE_RESPONSE/ERROR false in infra/api-function.ts, and captureResponse: false
 * here), and the SDK instrumentation records no parameters or results.
 *
 * Outside Lambda (the local stack, the tests) the Tracer is off by itself: clients are returned as they
 * are, nothing is recorded.
 *
 * Public routes (health, the docs) carry none of it: they call no AWS service, Lambda's own tracing
 * (Tracing.ACTIVE) already times them, and X-Ray's SDK would triple their bundle.
 */
import type { MiddlewareObj } from '@middy/core';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';

// No global capture of HTTP requests: a webhook delivery's URL may carry a client's token, and it would
// be recorded with every attempt. The AWS SDK's calls are traced by their clients (traced, below).
export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'lab-api', captureHTTPsRequests: false });

/** An AWS SDK v3 client whose every call is a subsegment of the current trace. */
export const traced = <T>(client: T): T => tracer.captureAWSv3Client(client);

/**
 * The handler as a subsegment of its own (cold start annotated by Powertools), with the route as an
 * annotation to search traces by; no response, no error message.
 */
export function traceHandler(route: string): MiddlewareObj[] {
  return [
    captureLambdaHandler(tracer, { captureResponse: false }),
    {
      before: () => {
        if (tracer.isTracingEnabled()) tracer.putAnnotation('route', route);
      },
    },
  ];
}
