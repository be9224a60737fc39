/**
 * SQS consumer of the lab order sender's queue (an EventBridge rule puts each live LabOrderRequested in it;
 * batch size 1): one attempt to deliver the order over MLLP per receive (shared/usecases/send-lab-order.ts).
 * The backoff is the message's own visibility: after an attempt without an answer the message is hidden
 * for the schedule's next wait (ChangeMessageVisibility) and reported as a batch item failure, so SQS
 * hands it back then, its receive count the attempt number. After the last attempt (the queue's
 * maxReceiveCount) it is made visible at once, and SQS moves it to the dead-letter queue, which alarms; a
 * redrive starts the count again. A failure of our own (DynamoDB unavailable) is retried after the queue's
 * visibility timeout; on the last receive the order is first recorded failed (LabOrderFailed), if that
 * works, so that it does not stay pending while the message waits in the DLQ.
 *
 * An attempt that finds another one sending the order (in-flight: a second delivery of this message, or a
 * second message for the order) is reported failed and hidden until the other's lease ends, as after no
 * answer: it then finds the order answered (and is deleted) or tries itself. It is not deleted at once: for
 * a second delivery of the same message, deleting with the newest receipt handle would delete the message
 * the sending attempt relies on for its retries. That receive counts towards maxReceiveCount, as any.
 */
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { config, now } from '../../shared/config';
import { LAB_ORDER_REQUESTED } from '../../shared/events/lab-order-requested';
import { errorNames, inInvocation, logger } from '../../shared/logger';
import { configuredLabInterface, failLabOrder, type OrderToSend, sendLabOrder } from '../../shared/usecases/send-lab-order';
import { fromEventBridge } from '../../shared/webhooks/bus-event';

const lab = configuredLabInterface();
// Short timeouts: a VPC without a route to SQS must not hold the invocation (the queue's visibility then spaces the attempts).
const sqs = new SQSClient({ region: config.region, requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 } });
/** SQS's longest visibility timeout: 12 hours. */
const MAX_VISIBILITY_SECONDS = 43_200;

/** The order a message names, or undefined for anything but a live LabOrderRequested with a requisition. */
function orderOf(record: SQSRecord): OrderToSend | undefined {
  const { event, realm } = fromEventBridge(record.body);
  const { appointment_id, requisition_number } = event.detail;
  if (event.detail_type !== LAB_ORDER_REQUESTED || realm !== 'live' || typeof appointment_id !== 'string' || typeof requisition_number !== 'string')
    return undefined;
  return { appointment_id, requisition_number };
}

const receivesOf = (record: SQSRecord) => Number(record.attributes.ApproximateReceiveCount);

async function attempt(record: SQSRecord): Promise<boolean> {
  const order = orderOf(record);
  // The rule sends live orders only; anything else here is a misrouted message, never an order for the lab.
  if (!order) {
    logger.error('lab order sender: not a live LabOrderRequested with a requisition', { message_id: record.messageId });
    return true;
  }
  const outcome = await sendLabOrder(order, receivesOf(record), lab, now);
  if (outcome.kind === 'answered' || outcome.kind === 'skipped') return true;
  // Failed: visible again at once, so that its next receive, past maxReceiveCount, moves it to the DLQ.
  const seconds = outcome.kind === 'failed' ? 0 : Math.min(Math.ceil(outcome.afterMs / 1000), MAX_VISIBILITY_SECONDS);
  const queueUrl = queueUrlOf(record.eventSourceARN);
  await sqs
    .send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: record.receiptHandle, VisibilityTimeout: seconds }))
    // Without it the queue's own visibility timeout spaces the attempts: slower, never lost.
    .catch((error: unknown) => logger.warn('lab order sender: visibility not changed', { message_id: record.messageId, ...errorNames(error) }));
  return false;
}

/**
 * Our own failure on the last receive: its next receive moves the message to the DLQ, so the order is
 * recorded failed now, with LabOrderFailed. If this fails too (DynamoDB still down), the order stays
 * pending and the DLQ still holds the message for a redrive.
 */
async function failAtLastReceive(record: SQSRecord, error: unknown): Promise<void> {
  try {
    const order = orderOf(record);
    if (!order) return;
    const outcome = await failLabOrder(order, `the sender failed (${errorNames(error).errorName})`, now);
    logger.warn('lab order sender: last receive failed, order recorded', { message_id: record.messageId, outcome: outcome.kind });
  } catch (second) {
    logger.error('lab order sender: failed order not recorded', { message_id: record.messageId, ...errorNames(second) });
  }
}

/** arn:aws:sqs:<region>:<account>:<name> → https://sqs.<region>.amazonaws.com/<account>/<name> */
function queueUrlOf(arn: string): string {
  const [, partition, , region, account, name] = arn.split(':');
  return `https://sqs.${region}.amazonaws.${partition === 'aws-cn' ? 'com.cn' : 'com'}/${account}/${name}`;
}

export const handler = inInvocation(async (event: { Records: SQSRecord[] }): Promise<SQSBatchResponse> => {
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      if (!(await attempt(record))) failures.push({ itemIdentifier: record.messageId });
    } catch (error) {
      logger.error('lab order sender failed', { message_id: record.messageId, ...errorNames(error) });
      if (receivesOf(record) >= lab.schedule.attempts) await failAtLastReceive(record, error);
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
});
