/**
 * SES's bounces and complaints (issue #52): the configuration set's event destination puts them on the
 * account's default bus (source aws.ses), and a rule invokes this function with each (infra/patient-email.ts).
 * A failure throws, so EventBridge retries the invocation (and then its dead-letter queue keeps the event).
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { now } from '../../shared/config';
import { inInvocation, logger } from '../../shared/logger';
import { recordEmailFeedback } from '../../shared/usecases/email-feedback';

export const handler = inInvocation(async (event: EventBridgeEvent<string, unknown>): Promise<{ outcome: string }> => {
  const outcome = await recordEmailFeedback(event.detail, now());
  // The outcome and SES's event type only: the event names the recipient's address, which is never logged.
  logger.info('email feedback', { outcome, detail_type: event['detail-type'] });
  return { outcome };
});
