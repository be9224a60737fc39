/**
 * Webhook delivery (docs/events-and-webhooks.md "Webhooks"): the service's events a client may subscribe to go from the bus
 * to a queue, and from the queue to the dispatcher, which makes each subscription's first attempt at
 * once. A failed attempt is retried on a schedule kept in DynamoDB: the retry sweep runs every minute and
 * attempts the deliveries that are due. Both send HTTPS requests to clients' endpoints and put nothing on
 * the bus.
 *
 * - An event the dispatcher cannot fan out (DynamoDB unavailable) is reported as a batch item failure:
 *   SQS redelivers that message only, and after 5 receives moves it to the dead-letter queue, as does an
 *   event EventBridge could not put in the queue. One queue, one alarm (infra/monitoring.ts); each message
 *   is the original event, ready to be put on the bus again once the cause is fixed. A redelivered event
 *   makes no second delivery (deterministic delivery ids).
 * - A receiver that fails is no failure of the dispatcher: its retries are deliveries due later, the
 *   sweep's business.
 */
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE, SANDBOX_EVENT_SOURCE } from '../shared/events/event-source';
import { WEBHOOK_EVENT_TYPES } from '../shared/webhooks/event-types';
import { LabFunction } from './api-function';
import type { EventsProps } from './lab-events';
import { deadLetterQueue, secureQueue } from './queues';
import { FUNCTION_SIZES } from './route-classes';

/** Messages the dispatcher takes in one invocation: it handles them in parallel. */
export const WEBHOOK_BATCH_SIZE = 10;
export const WEBHOOK_DISPATCH_CONCURRENCY = 10;
/** Receives of an event before it moves to the dead-letter queue. */
export const WEBHOOK_MAX_RECEIVES = 5;
/**
 * How long a received batch stays hidden: 6 times the dispatcher's timeout, AWS's advice for an SQS event
 * source, so that a message is not received again while a (throttled, retried) invocation still holds it.
 */
export const WEBHOOK_VISIBILITY_TIMEOUT = Duration.seconds(6 * FUNCTION_SIZES['webhook-dispatch'].timeout.toSeconds());

export class WebhookDelivery extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly rule: Rule;
  readonly dispatcher: LabFunction;
  readonly retries: LabFunction;
  readonly retrySchedule: Rule;

  constructor(scope: Construct, id: string, props: EventsProps) {
    super(scope, id);
    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue');
    this.queue = secureQueue(this, 'Queue', {
      visibilityTimeout: WEBHOOK_VISIBILITY_TIMEOUT,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: WEBHOOK_MAX_RECEIVES },
    });
    this.rule = new Rule(this, 'Rule', {
      description: 'The event types a webhook subscription may ask for, live and sandbox, to the webhook queue',
      eventBus: props.bus,
      eventPattern: { source: [EVENT_SOURCE, SANDBOX_EVENT_SOURCE], detailType: [...WEBHOOK_EVENT_TYPES] },
      targets: [new SqsQueue(this.queue, { deadLetterQueue: this.deadLetterQueue, retryAttempts: 10, maxEventAge: Duration.hours(24) })],
    });

    this.dispatcher = new LabFunction(this, 'Dispatcher', {
      ...props,
      handlerFile: 'functions/events/webhook-dispatch.ts',
      description: 'Webhook dispatch: first attempt of each subscription wanting an event, from the webhook queue',
      functionClass: 'webhook-dispatch',
    });
    this.dispatcher.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: WEBHOOK_BATCH_SIZE,
        // No batching window: a webhook's first attempt goes out as soon as its event arrives.
        // Failed messages only are redelivered; the rest of the batch is deleted.
        reportBatchItemFailures: true,
        // At most 10 dispatchers at once (about 100 requests in flight to clients): a burst of events waits
        // in the queue instead of taking the account's concurrency from the API.
        maxConcurrency: WEBHOOK_DISPATCH_CONCURRENCY,
      }),
    );

    this.retries = new LabFunction(this, 'Retries', {
      ...props,
      handlerFile: 'functions/events/webhook-retries.ts',
      description: 'Webhook retries: attempts the deliveries whose next retry is due, every minute',
      functionClass: 'webhook-retries',
      // No reserved concurrency (see the outbox relay): deliveries are claimed before each attempt, and the
      // sweep takes a lease (shared/store/leases.ts), so an overlapping run finds nothing to do.
      options: { retryAttempts: 0 },
    });
    this.retrySchedule = new Rule(this, 'RetrySchedule', {
      description: 'Runs the webhook retry sweep every minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      // The next run retries anyway; an EventBridge retry would only overlap it.
      targets: [new LambdaFunction(this.retries.function, { retryAttempts: 0 })],
    });
  }
}
