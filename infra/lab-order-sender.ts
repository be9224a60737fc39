/**
 * The lab order sender (issue #51, docs/hl7.md "Orders"), in a stage whose file names a lab interface
 * (stage file labInterface): every live LabOrderRequested goes from the bus to a queue of its own, and from
 * there, one message per invocation, to a function in the VPC that routes to the lab's interface engine,
 * which sends the order over MLLP (functions/events/lab-order-sender.ts).
 *
 * - Backoff: the function hides a message it could not deliver for the schedule's next wait
 *   (ChangeMessageVisibility: 30 s doubling to 15 minutes), and its receive count is the attempt number.
 *   After LAB_ORDER_RETRY.attempts receives (3¾ hours) the order is failed and the message moves to the
 *   dead-letter queue, which alarms; a redrive from there tries again from the first attempt.
 * - Network: the function runs in the subnets the stage file names, behind a security group that allows
 *   egress to the lab's host and port only, and HTTPS for the AWS APIs it calls (DynamoDB, SQS,
 *   EventBridge) through the VPC's endpoints or NAT (docs/deploy.md "Connecting a lab over MLLP").
 * - The lab's own account, polling the lab orders queue (infra/lab-events.ts), is untouched: both consume
 *   the same events.
 */
import { Annotations, Duration, Fn } from 'aws-cdk-lib';
import { type ISecurityGroup, Peer, Port, SecurityGroup, Subnet, Vpc } from 'aws-cdk-lib/aws-ec2';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { Rule } from 'aws-cdk-lib/aws-events';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { LAB_ORDER_RETRY } from '../shared/domain/lab-order';
import { EVENT_SOURCE } from '../shared/events/event-source';
import { LAB_ORDER_REQUESTED } from '../shared/events/lab-order-requested';
import { LabFunction } from './api-function';
import type { EventsProps } from './lab-events';
import { deadLetterQueue, secureQueue } from './queues';
import { FUNCTION_SIZES } from './route-classes';
import type { LabInterfaceSettings } from './stages/stage-file';

/** At most this many attempts at once: a lab's engine takes orders one connection at a time, and a backlog waits in the queue. */
export const LAB_ORDER_SENDER_CONCURRENCY = 5;

export class LabOrderSender extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly rule: Rule;
  readonly function: LabFunction;
  readonly securityGroup: ISecurityGroup;

  constructor(scope: Construct, id: string, props: EventsProps & { labInterface: LabInterfaceSettings }) {
    super(scope, id);
    const { labInterface: lab, ...eventsProps } = props;
    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue');
    this.queue = secureQueue(this, 'Queue', {
      // Hidden while an attempt runs, with room for a throttled invocation (AWS's advice: 6 × the timeout);
      // between attempts the function sets the wait itself.
      visibilityTimeout: Duration.seconds(6 * FUNCTION_SIZES['lab-order-sender'].timeout.toSeconds()),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: LAB_ORDER_RETRY.attempts },
    });
    this.rule = new Rule(this, 'Rule', {
      description: "LabOrderRequested (live only: sandbox orders never reach the lab) to the lab order sender's queue",
      eventBus: props.bus,
      eventPattern: { source: [EVENT_SOURCE], detailType: [LAB_ORDER_REQUESTED] },
      targets: [new SqsQueue(this.queue, { deadLetterQueue: this.deadLetterQueue, retryAttempts: 10, maxEventAge: Duration.hours(24) })],
    });

    const vpc = Vpc.fromVpcAttributes(this, 'Vpc', { vpcId: lab.vpcId, availabilityZones: Fn.getAzs() });
    this.securityGroup = lab.securityGroupId
      ? SecurityGroup.fromSecurityGroupId(this, 'SecurityGroup', lab.securityGroupId, { mutable: false })
      : this.ownSecurityGroup(vpc, lab);
    this.function = new LabFunction(this, 'Sender', {
      ...eventsProps,
      handlerFile: 'functions/events/lab-order-sender.ts',
      description: `Lab order sender: LabOrderRequested as HL7 v2 OML^O21 over MLLP to ${lab.host}:${lab.port}`,
      functionClass: 'lab-order-sender',
      environment: {
        LAB_MLLP_HOST: lab.host,
        LAB_MLLP_PORT: String(lab.port),
        LAB_MLLP_TLS: String(lab.tls),
        // The lab's private CA (PEM), in the environment only: the description above, which consoles and logs show, names host and port.
        ...(lab.caCertificate !== undefined && { LAB_MLLP_CA: lab.caCertificate }),
        LAB_SENDING_FACILITY: lab.sendingFacility,
        LAB_RECEIVING_APPLICATION: lab.receivingApplication,
        LAB_RECEIVING_FACILITY: lab.receivingFacility,
      },
      options: {
        vpc,
        vpcSubnets: { subnets: lab.subnetIds.map((subnetId, i) => Subnet.fromSubnetId(this, `Subnet${i}`, subnetId)) },
        securityGroups: [this.securityGroup],
      },
    });
    // The imported VPC and subnets only place the function's network interfaces: nothing reads their route
    // tables or the VPC's zone list at synth, which is all CDK warns about.
    Annotations.of(this).acknowledgeWarning('@aws-cdk/aws-ec2:noSubnetRouteTableId', 'the subnets only place the function; no route table is read');
    Annotations.of(this).acknowledgeWarning('@aws-cdk/aws-ec2:vpcAttributeIsListTokenavailabilityZones', 'the subnets are named: no zone is selected at synth');
    this.function.function.addEventSource(
      new SqsEventSource(this.queue, {
        // One order per invocation: its visibility, and so its backoff, is its own.
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: LAB_ORDER_SENDER_CONCURRENCY,
      }),
    );
  }

  /** Egress to the lab's engine on its port, and HTTPS for the AWS APIs; nothing may connect in. */
  private ownSecurityGroup(vpc: ReturnType<typeof Vpc.fromVpcAttributes>, lab: LabInterfaceSettings): SecurityGroup {
    const group = new SecurityGroup(this, 'SecurityGroup', {
      vpc,
      description: `Lab order sender: MLLP to the lab's interface engine, HTTPS to AWS APIs`,
      allowAllOutbound: false,
    });
    group.addEgressRule(Peer.ipv4(lab.labCidr), Port.tcp(lab.port), "MLLP to the lab's interface engine");
    // DynamoDB (a gateway endpoint's prefix list, or NAT), SQS and EventBridge (interface endpoints, or NAT).
    group.addEgressRule(Peer.anyIpv4(), Port.tcp(443), 'AWS APIs: DynamoDB, SQS, EventBridge, through endpoints or NAT');
    return group;
  }
}
