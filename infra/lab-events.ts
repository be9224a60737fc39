/**
 * The event side of the stack: the outbox relay's schedule, the lab's results coming in
 * (`LabResultsReported` → results-ingest) and, as the example a lab system subscribes with, the
 * `LabOrderRequested` events going out to an SQS queue.
 */
import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Match, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { HL7_PREFIX } from '../shared/documents/bucket-layout';
import { EVENT_SOURCE } from '../shared/events/event-source';
import { LAB_ORDER_REQUESTED } from '../shared/events/lab-order-requested';
import { LAB_PARTNER_SOURCE, LAB_RESULTS_REPORTED } from '../shared/events/lab-results-reported';
import { LabFunction } from './api-function';
import { labOrdersV1Message } from './lab-orders-v1';
import type { HipaaControls } from './hipaa-controls';
import { deadLetterQueue, secureQueue } from './queues';
import type { StageName } from './settings';

export interface EventsProps {
  readonly stage: StageName;
  readonly table: Table;
  readonly bucket: Bucket;
  readonly bus: IEventBus;
  /** Where the stage runs the HIPAA checks: the key of the functions' logs. */
  readonly hipaa?: HipaaControls;
}

/** Publishes what a request committed to the outbox but could not put on the bus itself. */
export class OutboxRelay extends Construct {
  readonly function: LabFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: EventsProps) {
    super(scope, id);
    this.function = new LabFunction(this, 'Relay', {
      ...props,
      handlerFile: 'functions/events/relay-outbox.ts',
      description: 'Outbox relay: publishes events older than 30 s, every minute',
      functionClass: 'relay',
      // No reserved concurrency: a reservation takes from the account's quota and fails the deploy on an
      // account below 100 + the reservations (docs/deploy.md "Deploy"). Runs overlap rarely (a minute apart) and
      // the relay takes a lease (shared/store/leases.ts) so that only one publishes at a time.
      options: { retryAttempts: 0 },
    });
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Runs the outbox relay every minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      // The next run retries anyway; an EventBridge retry would only overlap it.
      targets: [new LambdaFunction(this.function.function, { retryAttempts: 0 })],
    });
  }
}

/**
 * Every 5 minutes: counts the appointments whose critical results waited longer than `criticalAckMinutes`
 * for a clinician's acknowledgement, and the lab reports that matched no order and waited longer than
 * `unmatchedWaitMinutes` to be matched or discarded (issue #51; functions/events/critical-results-check.ts),
 * and logs both counts. In stages with alarms, Monitoring turns each line into a metric and alarms on it.
 */
export class CriticalResultsCheck extends Construct {
  static readonly RATE = Duration.minutes(5);
  readonly function: LabFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: EventsProps & { criticalAckMinutes: number; unmatchedWaitMinutes: number }) {
    super(scope, id);
    const { criticalAckMinutes, unmatchedWaitMinutes, ...eventsProps } = props;
    this.function = new LabFunction(this, 'Check', {
      ...eventsProps,
      handlerFile: 'functions/events/critical-results-check.ts',
      description:
        `Critical results check: counts critical results unacknowledged after ${criticalAckMinutes} minutes, ` +
        `and unmatched lab results waiting over ${unmatchedWaitMinutes} minutes, every 5 minutes`,
      functionClass: 'critical-check',
      environment: { CRITICAL_ACK_MINUTES: String(criticalAckMinutes), UNMATCHED_WAIT_MINUTES: String(unmatchedWaitMinutes) },
      options: { retryAttempts: 0 },
    });
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Runs the critical results check every 5 minutes',
      schedule: Schedule.rate(CriticalResultsCheck.RATE),
      // The next run counts again anyway.
      targets: [new LambdaFunction(this.function.function, { retryAttempts: 0 })],
    });
  }
}

/**
 * The lab's results → results-ingest, in either form: `LabResultsReported` from the lab (source
 * lab-partner) on our bus, or an HL7 v2 message the lab uploaded under `incoming/hl7/` (S3's `Object
 * Created`, on the account's default bus: S3 sends there only). A report that can never be stored makes
 * the function throw; Lambda retries it twice, then puts the event in the DLQ. EventBridge puts it in
 * the same DLQ if it cannot invoke the function at all. One queue, one alarm, and each message is the
 * original event, ready to be put on its bus again once the cause is fixed (the HL7 file stays where
 * the lab put it until it is stored).
 */
export class ResultsIngest extends Construct {
  readonly function: LabFunction;
  readonly deadLetterQueue: Queue;
  readonly rule: Rule;
  readonly hl7Rule: Rule;

  constructor(scope: Construct, id: string, props: EventsProps) {
    super(scope, id);
    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue');
    this.function = new LabFunction(this, 'Ingest', {
      ...props,
      handlerFile: 'functions/events/results-ingest.ts',
      description: 'results-ingest: stores LabResultsReported reports from the lab',
      functionClass: 'ingest',
      options: {
        deadLetterQueue: this.deadLetterQueue,
        // A transient DynamoDB or S3 failure gets two more tries; a refused report fails all three.
        retryAttempts: 2,
        maxEventAge: Duration.hours(6),
      },
    });
    this.rule = new Rule(this, 'Rule', {
      description: 'LabResultsReported from the lab to results-ingest',
      eventBus: props.bus,
      eventPattern: { source: [LAB_PARTNER_SOURCE], detailType: [LAB_RESULTS_REPORTED] },
      targets: [
        new LambdaFunction(this.function.function, {
          deadLetterQueue: this.deadLetterQueue,
          // Retries of the invocation itself (Lambda unavailable or throttling the Invoke call).
          retryAttempts: 10,
          maxEventAge: Duration.hours(2),
        }),
      ],
    });
    this.hl7Rule = new Rule(this, 'Hl7Rule', {
      description: 'HL7 v2 messages the lab uploads under incoming/hl7/ to results-ingest',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: { bucket: { name: [props.bucket.bucketName] }, object: { key: Match.prefix(HL7_PREFIX) } },
      },
      targets: [new LambdaFunction(this.function.function, { deadLetterQueue: this.deadLetterQueue, retryAttempts: 10, maxEventAge: Duration.hours(2) })],
    });
  }
}

/**
 * The example a lab system subscribes with: every `LabOrderRequested` of this service lands in a queue
 * the lab polls (cross-account with `-c labAccountId=…`). A message the lab fails to process five times
 * moves to the DLQ, as does an event EventBridge cannot deliver.
 */
export class LabOrdersSubscription extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly rule: Rule;

  /** `queueVersion`: the LabOrderRequested version the queue receives (the stage's labOrdersQueueVersion). */
  constructor(scope: Construct, id: string, props: Pick<EventsProps, 'bus'> & { queueVersion: 1 | 2 }) {
    super(scope, id);
    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue');
    this.queue = secureQueue(this, 'Queue', {
      visibilityTimeout: Duration.minutes(5),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });
    this.rule = new Rule(this, 'Rule', {
      description: 'LabOrderRequested to the lab orders queue',
      eventBus: props.bus,
      eventPattern: { source: [EVENT_SOURCE], detailType: [LAB_ORDER_REQUESTED] },
      targets: [
        new SqsQueue(this.queue, {
          deadLetterQueue: this.deadLetterQueue,
          retryAttempts: 10,
          maxEventAge: Duration.hours(24),
          ...(props.queueVersion === 1 ? { message: labOrdersV1Message() } : {}),
        }),
      ],
    });
  }
}
