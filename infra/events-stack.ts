/**
 * The functions and queues that run on events rather than requests, in a nested stack of their own (room
 * in the parent: infra/route-stacks.ts): the outbox relay, results-ingest, the lab orders queue, webhook
 * delivery, the critical results check (which also counts the lab reports that matched no order) and patient email
 * (infra/patient-email.ts). The bus, the table and the bucket they use stay in the parent.
 */
import { NestedStack } from 'aws-cdk-lib';
import type { IPrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { CriticalResultsCheck, type EventsProps, LabOrdersSubscription, OutboxRelay, ResultsIngest } from './lab-events';
import { WebhookDelivery } from './webhooks';
import { LabOrderSender } from './lab-order-sender';
import { PatientEmail } from './patient-email';
import type { EmailSettings, LabInterfaceSettings } from './stages/stage-file';

export interface EventStackProps extends EventsProps {
  /** The lab's account: it polls the lab orders queue. */
  readonly lab?: IPrincipal;
  /** The stage's criticalAckMinutes: how long a critical result may wait for its acknowledgement. */
  readonly criticalAckMinutes: number;
  /** The stage's labInterface: the lab's engine the lab order sender delivers to over MLLP; unset: no sender. */
  readonly labInterface?: LabInterfaceSettings;
  /** The stage's labOrdersQueueVersion: the LabOrderRequested version the lab orders queue receives. */
  readonly labOrdersQueueVersion: 1 | 2;
  /** The stage's unmatchedWaitMinutes: how long a lab report that matched no order may wait to be matched or discarded. */
  readonly unmatchedWaitMinutes: number;
  /** The stage's email: the sender address and the domain SES verifies for it. */
  readonly email: EmailSettings;
  /** The stage's reminderHoursBefore. */
  readonly reminderHoursBefore: number;
  /** The API's public base URL (stage included): the unsubscribe links of patient email point there. */
  readonly apiBaseUrl: string;
  /** The stage's patientPageOrigin: the emails' links to the patient's page point there; unset: the emails carry none. */
  readonly patientPageOrigin?: string;
}

export class EventStack extends NestedStack {
  readonly relay: OutboxRelay;
  readonly ingest: ResultsIngest;
  readonly labOrders: LabOrdersSubscription;
  readonly webhooks: WebhookDelivery;
  readonly criticalResults: CriticalResultsCheck;
  /** Only in a stage whose file names a lab interface (infra/lab-order-sender.ts). */
  readonly labOrderSender?: LabOrderSender;
  readonly patientEmail: PatientEmail;

  constructor(scope: Construct, id: string, props: EventStackProps) {
    super(scope, id, {
      description: 'Lab API events: outbox relay, results-ingest, lab orders queue, webhook delivery, critical results check, patient email',
    });
    const { lab, criticalAckMinutes, unmatchedWaitMinutes, labOrdersQueueVersion, email, reminderHoursBefore, apiBaseUrl, patientPageOrigin, ...eventsProps } =
      props;
    this.relay = new OutboxRelay(this, 'OutboxRelay', eventsProps);
    this.ingest = new ResultsIngest(this, 'ResultsIngest', eventsProps);
    this.labOrders = new LabOrdersSubscription(this, 'LabOrders', { ...eventsProps, queueVersion: labOrdersQueueVersion });
    this.webhooks = new WebhookDelivery(this, 'Webhooks', eventsProps);
    this.criticalResults = new CriticalResultsCheck(this, 'CriticalResults', { ...eventsProps, criticalAckMinutes, unmatchedWaitMinutes });
    if (lab) this.labOrders.queue.grantConsumeMessages(lab);
    if (props.labInterface) this.labOrderSender = new LabOrderSender(this, 'LabOrderSender', { ...eventsProps, labInterface: props.labInterface });
    this.patientEmail = new PatientEmail(this, 'PatientEmail', {
      ...eventsProps,
      email,
      reminderHoursBefore,
      linkOrigin: apiBaseUrl,
      patientPageOrigin,
    });
  }
}
