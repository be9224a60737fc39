/**
 * Scheduled every minute (infra/patient-email.ts): sends the appointment reminders that are due (issue #52,
 * docs/messages.md "Reminders"), batch after batch while the run has time left. One run at a time (a lease):
 * each message is claimed anyway, so an overlapping run would only contend.
 */
import type { Context } from 'aws-lambda';
import { now } from '../../shared/config';
import { inInvocation, logger } from '../../shared/logger';
import { whileHolding } from '../../shared/store/leases';
import { CLAIM_MS, sendDueReminders } from '../../shared/usecases/patient-messages';

type SweepContext = Pick<Context, 'getRemainingTimeInMillis'> & Partial<Pick<Context, 'awsRequestId'>>;

async function sendWhileTimeLeft(context: SweepContext): Promise<number> {
  let handled = 0;
  while (context.getRemainingTimeInMillis() > CLAIM_MS / 2) {
    const batch = await sendDueReminders(now());
    handled += batch;
    if (batch === 0) break;
  }
  return handled;
}

export const handler = inInvocation(async (_event: unknown, context: SweepContext): Promise<{ handled: number; skipped: boolean }> => {
  const holder = context.awsRequestId ?? crypto.randomUUID();
  const handled = await whileHolding('message-reminders', holder, context.getRemainingTimeInMillis(), () => sendWhileTimeLeft(context));
  if (handled === undefined) {
    logger.info('message reminders skipped: another run holds the lease');
    return { handled: 0, skipped: true };
  }
  if (handled > 0) logger.info('message reminders handled', { handled });
  return { handled, skipped: false };
});
