/**
 * SQS consumer of the webhook queue (an EventBridge rule puts the service's events in it): each message
 * is one event, fanned out to the subscriptions that want it, first attempt at once. A message whose
 * dispatch failed (DynamoDB unavailable) is reported as a batch item failure, so SQS redelivers only it;
 * after 5 receives it goes to the DLQ. A receiver that fails is not a failure here: its retries are
 * scheduled in DynamoDB (shared/usecases/deliver-webhooks.ts). A redelivered event makes no second
 * delivery (deterministic delivery ids).
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { errorNames, inInvocation, logger } from '../../shared/logger';
import { dispatchBusEvent } from '../../shared/usecases/deliver-webhooks';
import { fromEventBridge } from '../../shared/webhooks/bus-event';

export const handler = inInvocation(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures = await Promise.all(
    event.Records.map(async (record) => {
      try {
        await dispatchBusEvent(fromEventBridge(record.body));
        return undefined;
      } catch (error) {
        logger.error('webhook dispatch failed', { message_id: record.messageId, ...errorNames(error) });
        return { itemIdentifier: record.messageId };
      }
    }),
  );
  return { batchItemFailures: failures.filter((failure) => failure !== undefined) };
});
