/**
 * Patient email (issue #52, docs/messages.md): the domain events a patient hears of go from the bus to a queue
 * of their own, and from there to the sender (functions/events/patient-messages.ts), which claims each message
 * in the table before SES has it and sends it through the stage's SES identity and configuration set. The
 * reminder sweep (functions/events/message-reminders.ts) sends the reminders that came due, every minute.
 * SES reports each bounce and complaint of the configuration set to the account's default bus, from where
 * the feedback function (functions/events/email-feedback.ts) marks the address and stops further sends.
 *
 * - Sandbox events are consumed too: their messages are recorded as `simulated` and sent nowhere.
 * - SES throttling or an outage: the sender reports the message as a batch item failure; SQS receives it
 *   again after the visibility timeout, 8 times in all (about 24 minutes), then moves it to the dead-letter
 *   queue, which alarms; a redrive sends what was not sent (the claim keeps what was).
 * - A bounce or complaint the feedback function cannot record is retried twice by Lambda, then kept in its
 *   own dead-letter queue, which alarms, as is an event EventBridge could not deliver to it.
 * - SES's account-level suppression list is on for this configuration set (bounces and complaints): a second
 *   guard behind our own `email_status`, across every stage of the account; a send SES suppresses comes back
 *   as a bounce (bounceSubType OnAccountSuppressionList), which the feedback function records like any other.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import {
  ConfigurationSet,
  ConfigurationSetTlsPolicy,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { APPOINTMENT_RESCHEDULED } from '../shared/events/appointment-rescheduled';
import { EVENT_SOURCE, SANDBOX_EVENT_SOURCE } from '../shared/events/event-source';
import { LAB_RESULTS_AVAILABLE } from '../shared/events/lab-results-available';
import { SPECIMEN_REJECTED } from '../shared/events/specimen-rejected';
import { APPOINTMENT_STATUS_CHANGED, HOME_KIT_ORDER_STATUS_CHANGED } from '../shared/events/status-changed';
import { LabFunction } from './api-function';
import type { EventsProps } from './lab-events';
import { deadLetterQueue, secureQueue } from './queues';
import { FUNCTION_SIZES } from './route-classes';
import { senderDomain } from './settings';
import type { EmailSettings } from './stages/stage-file';

/** The domain events a patient may hear of: booked, moved, cancelled (status changes), kit dispatched, results ready, specimen rejected. */
export const PATIENT_MESSAGE_EVENTS = [
  APPOINTMENT_STATUS_CHANGED,
  APPOINTMENT_RESCHEDULED,
  HOME_KIT_ORDER_STATUS_CHANGED,
  LAB_RESULTS_AVAILABLE,
  SPECIMEN_REJECTED,
] as const;

/** Messages the sender takes in one invocation. */
export const PATIENT_MESSAGES_BATCH_SIZE = 10;
/**
 * At most this many senders at once: 2, the least an SQS event source allows, so at most 20 messages in
 * flight. SES's default sending rate in a fresh account is 14 messages a second (raised with production
 * access); a burst above it is SES throttling, which the SDK retries with backoff, and what still fails is
 * received again after the visibility timeout. A backlog waits in the queue instead of in SES's throttle.
 */
export const PATIENT_MESSAGES_CONCURRENCY = 2;
/** Receives of a message before it moves to the dead-letter queue: 8 × the visibility timeout, about 24 minutes of SES trouble. */
export const PATIENT_MESSAGES_MAX_RECEIVES = 8;
/**
 * How long a received batch stays hidden: 6 times the sender's timeout (AWS's advice for an SQS event source),
 * which is also the wait before a throttled message is tried again: 3 minutes, well past SES's one-second
 * rate window, and short enough that a confirmation is late by minutes, not hours.
 */
export const PATIENT_MESSAGES_VISIBILITY_TIMEOUT = Duration.seconds(6 * FUNCTION_SIZES['patient-messages'].timeout.toSeconds());

/**
 * What SES puts on the account's default bus (source `aws.ses`) for an event destination of type EventBridge,
 * by event type; the rule takes these two. DELIVERY is not published: the API shows `sent`, never `delivered`,
 * and it would invoke the feedback function for every message.
 */
export const SES_FEEDBACK_DETAIL_TYPES = ['Email Bounced', 'Email Complaint Received'] as const;

export interface PatientEmailProps extends EventsProps {
  /** The stage's email settings: the sender address and the domain SES verifies. */
  readonly email: EmailSettings;
  /** The stage's reminderHoursBefore. */
  readonly reminderHoursBefore: number;
  /** The public base URL of this API (its stage included, no trailing slash): unsubscribe links are `${origin}/u/{token}`. */
  readonly linkOrigin: string;
  /** The stage's patientPageOrigin: the emails' links to the patient's page are `${origin}/p/{token}`; unset: they carry none. */
  readonly patientPageOrigin?: string;
}

export class PatientEmail extends Construct {
  readonly identity: EmailIdentity;
  readonly configurationSet: ConfigurationSet;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly rule: Rule;
  readonly sender: LabFunction;
  readonly reminders: LabFunction;
  readonly reminderSchedule: Rule;
  readonly feedback: LabFunction;
  readonly feedbackDeadLetterQueue: Queue;
  readonly feedbackRule: Rule;

  constructor(scope: Construct, id: string, props: PatientEmailProps) {
    super(scope, id);
    const { email, reminderHoursBefore, linkOrigin, patientPageOrigin, ...eventsProps } = props;
    const domain = senderDomain(email);

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      // Health-related mail is never sent in the clear between mail servers: SES refuses a receiver without TLS.
      tlsPolicy: ConfigurationSetTlsPolicy.REQUIRE,
      // Bounce and complaint rates of this configuration set in CloudWatch (AWS/SES, ses:configuration-set).
      reputationMetrics: true,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.configurationSet.addEventDestination('Feedback', {
      // SES publishes to the default bus only: its rule below, not our bus, takes these events.
      destination: EventDestination.eventBus(EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });
    // Easy DKIM: the identity is verified once its three CNAME records are in the domain's DNS (docs/deploy.md "Patient email").
    this.identity = new EmailIdentity(this, 'Identity', { identity: Identity.domain(domain), configurationSet: this.configurationSet });
    const configurationSetArn = Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
    const sendEmail = new PolicyStatement({
      // SES API v2 SendEmail, whatever its content (simple, raw, with attachments), authorized against the
      // identity and the configuration set it names: the stage's own, no other.
      actions: ['ses:SendEmail'],
      resources: [this.identity.emailIdentityArn, configurationSetArn],
    });
    const senderEnvironment = {
      EMAIL_FROM_ADDRESS: email.fromAddress,
      EMAIL_CONFIGURATION_SET: this.configurationSet.configurationSetName,
      EMAIL_LINK_ORIGIN: linkOrigin,
      REMINDER_HOURS_BEFORE: String(reminderHoursBefore),
      // The booking, rescheduled and reminder emails carry a link to the patient's page only when the stage names its origin.
      ...(patientPageOrigin && { PATIENT_PAGE_ORIGIN: patientPageOrigin }),
    };

    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue');
    this.queue = secureQueue(this, 'Queue', {
      visibilityTimeout: PATIENT_MESSAGES_VISIBILITY_TIMEOUT,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: PATIENT_MESSAGES_MAX_RECEIVES },
    });
    this.rule = new Rule(this, 'Rule', {
      description: 'The domain events a patient hears of, live and sandbox (recorded as simulated), to the patient messages queue',
      eventBus: props.bus,
      eventPattern: { source: [EVENT_SOURCE, SANDBOX_EVENT_SOURCE], detailType: [...PATIENT_MESSAGE_EVENTS] },
      targets: [new SqsQueue(this.queue, { deadLetterQueue: this.deadLetterQueue, retryAttempts: 10, maxEventAge: Duration.hours(24) })],
    });
    this.sender = new LabFunction(this, 'Sender', {
      ...eventsProps,
      handlerFile: 'functions/events/patient-messages.ts',
      description: 'Patient messages: the email each domain event owes a patient, through SES, from the patient messages queue',
      functionClass: 'patient-messages',
      environment: senderEnvironment,
    });
    this.sender.function.addToRolePolicy(sendEmail);
    this.sender.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: PATIENT_MESSAGES_BATCH_SIZE,
        // No batching window: a confirmation goes out as soon as its booking's event arrives.
        reportBatchItemFailures: true,
        maxConcurrency: PATIENT_MESSAGES_CONCURRENCY,
      }),
    );

    this.reminders = new LabFunction(this, 'Reminders', {
      ...eventsProps,
      handlerFile: 'functions/events/message-reminders.ts',
      description: `Message reminders: sends the appointment reminders due (${reminderHoursBefore} h before), every minute`,
      functionClass: 'message-reminders',
      environment: senderEnvironment,
      // A reminder is claimed before it is sent, so an overlapping run finds it taken: no reserved concurrency.
      options: { retryAttempts: 0 },
    });
    this.reminders.function.addToRolePolicy(sendEmail);
    this.reminderSchedule = new Rule(this, 'ReminderSchedule', {
      description: 'Runs the message reminder sweep every minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      // The next run sends what this one did not: an EventBridge retry would only overlap it.
      targets: [new LambdaFunction(this.reminders.function, { retryAttempts: 0 })],
    });

    this.feedbackDeadLetterQueue = deadLetterQueue(this, 'FeedbackDeadLetterQueue');
    this.feedback = new LabFunction(this, 'Feedback', {
      ...eventsProps,
      handlerFile: 'functions/events/email-feedback.ts',
      description: 'Email feedback: marks an address SES reports bounced or complained about, and stops sending to it',
      functionClass: 'email-feedback',
      options: { deadLetterQueue: this.feedbackDeadLetterQueue, retryAttempts: 2, maxEventAge: Duration.hours(6) },
    });
    /*
     * The event, as SES publishes it (docs: "Monitoring SES events using Amazon EventBridge"; fixtures
     * test/fixtures/ses-bounce-event.json and ses-complaint-event.json):
     *   { "version": "0", "source": "aws.ses", "detail-type": "Email Bounced" | "Email Complaint Received",
     *     "resources": ["arn:aws:ses:<region>:<account>:configuration-set/<name>"],
     *     "detail": { "eventType": "Bounce" | "Complaint",
     *                 "mail": { "messageId", "destination": [...], "tags": { "ses:configuration-set": ["<name>"], ... }, ... },
     *                 "bounce": { "bounceType": "Permanent" | "Transient" | "Undetermined", "bounceSubType",
     *                             "bouncedRecipients": [{ "emailAddress", "status", "diagnosticCode" }], ... },
     *                 "complaint": { "complainedRecipients": [{ "emailAddress" }], "complaintFeedbackType", ... } } }
     * The detail is SES's event publishing record, the one it sends to SNS and Firehose. One default bus serves
     * every stage of the account: the rule takes this stage's configuration set only.
     */
    this.feedbackRule = new Rule(this, 'FeedbackRule', {
      description: "SES bounces and complaints of this stage's configuration set (on the default bus) to the email feedback function",
      eventPattern: {
        source: ['aws.ses'],
        detailType: [...SES_FEEDBACK_DETAIL_TYPES],
        detail: { mail: { tags: { 'ses:configuration-set': [this.configurationSet.configurationSetName] } } },
      },
      targets: [
        new LambdaFunction(this.feedback.function, { deadLetterQueue: this.feedbackDeadLetterQueue, retryAttempts: 10, maxEventAge: Duration.hours(6) }),
      ],
    });
  }
}
