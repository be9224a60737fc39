/**
 * The webhook pipeline of the local stack: what EventBridge, SQS and the two Lambdas do in AWS, run in
 * the `npm start` process with the same code. It follows the events file (every process of the local
 * stack appends there: the API, `npm run lab`; ./events-file.ts) and hands each new event to the
 * dispatcher's use case, and it runs the retry sweep every second instead of every minute. A webhook
 * reaches a receiver on this machine within a few hundred milliseconds of the request that caused it.
 */
import { attemptDueDeliveries, dispatchBusEvent } from '../../shared/usecases/deliver-webhooks';
import { every, followEvents } from './events-file';

const SWEEP_MS = 1000;

export async function startLocalWebhooks(eventsFile: string): Promise<{ stop(): Promise<void> }> {
  const follow = await followEvents(eventsFile, 'webhooks', async (event) => {
    await dispatchBusEvent(event);
  });
  const sweep = every(SWEEP_MS, 'webhooks', async () => {
    await attemptDueDeliveries(new Date());
  });
  return {
    stop: async () => {
      await Promise.all([follow(), sweep()]);
    },
  };
}
