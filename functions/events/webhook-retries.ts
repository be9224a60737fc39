/**
 * Scheduled every minute: attempts the webhook deliveries whose next retry is due (the schedule is kept
 * in DynamoDB, shared/domain/webhook.ts), batch after batch while the run has time left for one more.
 * One run at a time (a lease): each attempt is claimed anyway, so an overlapping run would only contend.
 */
import type { Context } from 'aws-lambda';
import { ATTEMPT_LEASE_MS } from '../../shared/domain/webhook';
import { inInvocation, logger } from '../../shared/logger';
import { whileHolding } from '../../shared/store/leases';
import { attemptDueDeliveries } from '../../shared/usecases/deliver-webhooks';

type SweepContext = Pick<Context, 'getRemainingTimeInMillis'> & Partial<Pick<Context, 'awsRequestId'>>;

async function attemptWhileTimeLeft(context: SweepContext): Promise<number> {
  let attempted = 0;
  while (context.getRemainingTimeInMillis() > ATTEMPT_LEASE_MS) {
    const batch = await attemptDueDeliveries(new Date());
    attempted += batch;
    if (batch === 0) break;
  }
  return attempted;
}

export const handler = inInvocation(async (_event: unknown, context: SweepContext): Promise<{ attempted: number; skipped: boolean }> => {
  const holder = context.awsRequestId ?? crypto.randomUUID();
  const attempted = await whileHolding('webhook-retries', holder, context.getRemainingTimeInMillis(), () => attemptWhileTimeLeft(context));
  if (attempted === undefined) {
    logger.info('webhook retries skipped: another run holds the lease');
    return { attempted: 0, skipped: true };
  }
  if (attempted > 0) logger.info('webhook retries attempted', { attempted });
  return { attempted, skipped: false };
});
