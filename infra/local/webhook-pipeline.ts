/**
 * The webhook pipeline of the local stack: what EventBridge, SQS and the two Lambdas do in AWS, run in
 * the `npm start` process with the same code. It follows the events file (every process of the local
 * stack appends there: the API, `npm run lab`; ./events-file.ts) and hands each new event to the
 * dispatcher's use case, and it runs the retry sweep every second instead of every minute. A webhook
 * reaches a receiver on this machine within a few hundred milliseconds of the request that caused it.
 *
 * An event the dispatcher could not handle (DynamoDB Local down: issue #54's faults) is handed again after a
 * wait, doubling, as SQS redelivers a message whose Lambda failed: before, it was logged and lost. Handing it
 * again is safe: a delivery's id is derived from the subscription and the event, and only its first insert counts.
 */
import { attemptDueDeliveries, dispatchBusEvent } from '../../shared/usecases/deliver-webhooks';
import { every, followEventsRedelivering } from './events-file';

const SWEEP_MS = 1000;
/** Receives of an event before it is given up, the first wait doubling (1 s … 64 s, about 2 minutes in all). */
const ATTEMPTS = 8;
const RETRY_MS = 1_000;

export async function startLocalWebhooks(eventsFile: string): Promise<{ stop(): Promise<void> }> {
  const follow = await followEventsRedelivering(eventsFile, 'webhooks', async (event) => void (await dispatchBusEvent(event)), {
    attempts: ATTEMPTS,
    firstWaitMs: RETRY_MS,
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
