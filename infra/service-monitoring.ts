/**
 * What on-call watches in a stage with `alarms` (prod, staging; infra/monitoring.ts builds it): every function, dead-letter queue, queue,
 * EventBridge rule and the table of the service, named as the runbook names them, and where alarms go.
 */
import { CfnOutput, Duration, type Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ApiFunction, LabFunction } from './api-function';
import type { EventStack } from './events-stack';
import type { HipaaControls } from './hipaa-controls';
import { Monitoring } from './monitoring';
import type { StackSettings } from './settings';

export interface ServiceMonitoringProps {
  readonly api: RestApi;
  readonly table: Table;
  readonly bus: IEventBus;
  readonly events: EventStack;
  readonly routeFunctions: readonly ApiFunction[];
  readonly authorizerFunction: LabFunction;
  readonly settings: Pick<StackSettings, 'criticalAckMinutes' | 'unmatchedWaitMinutes' | 'alarmEmail'>;
  readonly hipaa?: HipaaControls;
}

export function monitorService(scope: Stack, props: ServiceMonitoringProps): Monitoring {
  const { api, table, bus, events, routeFunctions, authorizerFunction, settings, hipaa } = props;
  const { relay, ingest, labOrders, webhooks, criticalResults, labOrderSender, patientEmail } = events;
  const monitoring = new Monitoring(scope, 'Monitoring', {
    api,
    functions: [
      ...routeFunctions.map((fn) => ({ name: fn.routeName, function: fn })),
      { name: 'outbox relay', function: relay.function },
      { name: 'results-ingest', function: ingest.function },
      { name: 'webhook dispatch', function: webhooks.dispatcher },
      { name: 'webhook retries', function: webhooks.retries },
      { name: 'critical results check', function: criticalResults.function },
      ...(labOrderSender ? [{ name: 'lab order sender', function: labOrderSender.function }] : []),
      { name: 'patient messages', function: patientEmail.sender },
      { name: 'message reminders', function: patientEmail.reminders },
      { name: 'email feedback', function: patientEmail.feedback },
      { name: 'API key authorizer', function: authorizerFunction },
    ],
    deadLetterQueues: [
      { name: 'ResultsIngestDLQ', queue: ingest.deadLetterQueue },
      { name: 'LabOrdersDLQ', queue: labOrders.deadLetterQueue },
      { name: 'WebhooksDLQ', queue: webhooks.deadLetterQueue },
      // An order the lab's engine never acknowledged in 3¾ hours (docs/runbook.md: redrive it once the lab is back).
      ...(labOrderSender ? [{ name: 'LabOrderSenderDLQ', queue: labOrderSender.deadLetterQueue }] : []),
      // Patient email SES would not take in 8 receives (about 24 minutes), and bounces or complaints not recorded (docs/runbook.md).
      { name: 'PatientMessagesDLQ', queue: patientEmail.deadLetterQueue },
      { name: 'EmailFeedbackDLQ', queue: patientEmail.feedbackDeadLetterQueue },
    ],
    // How old the oldest message may grow before someone looks: the lab polls its orders (an hour is
    // already a lab that stopped), the dispatcher takes webhook events within seconds, the patient message
    // sender within seconds too, retrying a throttled one every 3 minutes until it moves to its DLQ (24 minutes).
    queues: [
      { name: 'LabOrders', queue: labOrders.queue, maxAge: Duration.hours(1) },
      { name: 'Webhooks', queue: webhooks.queue, maxAge: Duration.minutes(5) },
      { name: 'PatientMessages', queue: patientEmail.queue, maxAge: Duration.minutes(30) },
    ],
    table,
    // Every rule that invokes something, and the bus it is on (undefined: the account's default bus).
    rules: [
      { name: 'results-ingest (LabResultsReported)', rule: ingest.rule, bus },
      { name: 'results-ingest (HL7 uploads)', rule: ingest.hl7Rule },
      { name: 'lab orders', rule: labOrders.rule, bus },
      { name: 'webhook events', rule: webhooks.rule, bus },
      { name: 'outbox relay schedule', rule: relay.schedule },
      { name: 'webhook retries schedule', rule: webhooks.retrySchedule },
      { name: 'critical results check schedule', rule: criticalResults.schedule },
      ...(labOrderSender ? [{ name: 'lab order sender', rule: labOrderSender.rule, bus }] : []),
      { name: 'patient messages', rule: patientEmail.rule, bus },
      { name: 'message reminders schedule', rule: patientEmail.reminderSchedule },
      { name: 'email feedback (SES, default bus)', rule: patientEmail.feedbackRule },
    ],
    relay: relay.function,
    // Every function that attempts a delivery may be the one that disables a subscription: the
    // dispatcher and the sweep, and the routes that send one (a manual retry counts as a delivery).
    webhookSenders: [
      { name: 'webhook dispatch', function: webhooks.dispatcher },
      { name: 'webhook retries', function: webhooks.retries },
      ...routeFunctions.filter((fn) => fn.functionClass === 'webhook-sender').map((fn) => ({ name: fn.routeName, function: fn })),
    ],
    criticalResultsCheck: { function: criticalResults.function, ackMinutes: settings.criticalAckMinutes, unmatchedWaitMinutes: settings.unmatchedWaitMinutes },
    apiAccessLogs: scope.node.findChild('ApiAccessLogs') as LogGroup,
    hipaa,
    alarmEmail: settings.alarmEmail,
  });
  new CfnOutput(scope, 'AlarmTopicArn', { value: monitoring.topic.topicArn, description: 'Subscribe on-call to this topic' });
  return monitoring;
}
