// Scheduled every minute (EventBridge rule): publishes outbox entries a request could not publish itself.
// One run at a time (a lease): an overlapping run would put the same entries on the bus again.
import type { Context } from 'aws-lambda';
import { now } from '../../shared/config';
import { relayOutbox } from '../../shared/usecases/publish-events';
import { inInvocation, logger } from '../../shared/logger';
import { whileHolding } from '../../shared/store/leases';

/** Without a Lambda context (the local stack's timer), a run is given a minute, its schedule's period. */
const DEFAULT_RUN_MS = 60_000;

export const handler = inInvocation(async (_event?: unknown, context?: Partial<Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>>) => {
  const published = await whileHolding(
    'outbox-relay',
    context?.awsRequestId ?? crypto.randomUUID(),
    context?.getRemainingTimeInMillis?.() ?? DEFAULT_RUN_MS,
    () => relayOutbox(now()),
  );
  if (published === undefined) {
    logger.info('outbox relay skipped: another run holds the lease');
    return { published: 0, skipped: true };
  }
  if (published > 0) logger.info('outbox relayed', { published });
  return { published, skipped: false };
});
