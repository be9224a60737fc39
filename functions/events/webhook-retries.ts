/**
 * Scheduled every minute: attempts the webhook deliveries whose next retry is due (the schedule is kept
 * in DynamoDB, shared/domain/webhook.ts), batch after batch while the run has time left for one more.
 */
import type { Context } from 'aws-lambda';
import { ATTEMPT_LEASE_MS } from '../../shared/domain/webhook';
import { logger } from '../../shared/logger';
import { attemptDueDeliveries } from '../../shared/usecases/deliver-webhooks';

export const handler = async (_event: unknown, context: Pick<Context, 'getRemainingTimeInMillis'>): Promise<{ attempted: number }> => {
  let attempted = 0;
  while (context.getRemainingTimeInMillis() > ATTEMPT_LEASE_MS) {
    const batch = await attemptDueDeliveries(new Date());
    attempted += batch;
    if (batch === 0) break;
  }
  if (attempted > 0) logger.info('webhook retries attempted', { attempted });
  return { attempted };
};
