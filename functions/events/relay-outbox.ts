// Scheduled every minute (EventBridge rule): publishes outbox entries a request could not publish itself.
import { now } from '../../shared/config';
import { relayOutbox } from '../../shared/events/outbox';
import { logger } from '../../shared/logger';

export const handler = async (): Promise<{ published: number }> => {
  const published = await relayOutbox(now());
  if (published > 0) logger.info('outbox relayed', { published });
  return { published };
};
