/**
 * SQS consumer of the message queue (an EventBridge rule puts the events that concern a patient in it,
 * infra/patient-email.ts): each message is one event, turned into the patient's emails, each sent once
 * (shared/usecases/patient-messages.ts). A message that failed (SES throttled or down, DynamoDB unavailable)
 * is reported as a batch item failure, so SQS redelivers only it, after its visibility timeout; after the
 * queue's last receive it goes to the dead-letter queue, which alarms. Nothing is dropped.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { now } from '../../shared/config';
import { errorNames, inInvocation, logger } from '../../shared/logger';
import { messagesForEvent } from '../../shared/usecases/patient-messages';
import { fromEventBridge } from '../../shared/webhooks/bus-event';

export const handler = inInvocation(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures = await Promise.all(
    event.Records.map(async (record) => {
      try {
        await messagesForEvent(fromEventBridge(record.body), now());
        return undefined;
      } catch (error) {
        logger.error('patient messages failed', { message_id: record.messageId, ...errorNames(error) });
        return { itemIdentifier: record.messageId };
      }
    }),
  );
  return { batchItemFailures: failures.filter((failure) => failure !== undefined) };
});
