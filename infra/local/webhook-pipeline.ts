/**
 * The webhook pipeline of the local stack: what EventBridge, SQS and the two Lambdas do in AWS, run in
 * the `npm start` process with the same code. It follows the events file (every process of the local
 * stack appends there: the API, `npm run lab`) and hands each new event to the dispatcher's use case,
 * and it runs the retry sweep every second instead of every minute. A webhook reaches a receiver on
 * this machine within a few hundred milliseconds of the request that caused it.
 */
import { open, stat } from 'node:fs/promises';
import { errorNames } from '../../shared/logger';
import { attemptDueDeliveries, dispatchBusEvent } from '../../shared/usecases/deliver-webhooks';
import { fromPutEventsEntry } from '../../shared/webhooks/bus-event';

const POLL_MS = 100;
const SWEEP_MS = 1000;

/** Runs `task` every `ms`, never two runs at once; a failure is reported and the next run goes on. */
function every(ms: number, task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= task()
      .catch((error: unknown) => console.error(`webhooks: ${errorNames(error).errorName}`))
      .finally(() => (running = undefined));
  }, ms);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

async function sizeOf(file: string): Promise<number> {
  return stat(file).then(
    (stats) => stats.size,
    () => 0,
  );
}

export async function startLocalWebhooks(eventsFile: string): Promise<{ stop(): Promise<void> }> {
  // Events written before this start were the previous run's to deliver.
  let offset = await sizeOf(eventsFile);
  let partial = '';

  const follow = every(POLL_MS, async () => {
    const size = await sizeOf(eventsFile);
    if (size < offset) offset = 0; // the file was deleted or truncated: start over with the new one
    if (size === offset) return;
    const handle = await open(eventsFile, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(size - offset), 0, size - offset, offset);
      offset += bytesRead;
      const lines = (partial + buffer.subarray(0, bytesRead).toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      // All at once, as parallel dispatchers would: one slow receiver does not hold back the others' events.
      await Promise.all(
        lines
          .filter((l) => l.trim() !== '')
          .map(async (line) =>
            dispatchBusEvent(fromPutEventsEntry(line)).catch((error: unknown) =>
              console.error(`webhooks: an event could not be dispatched (${errorNames(error).errorName})`),
            ),
          ),
      );
    } finally {
      await handle.close();
    }
  });
  const sweep = every(SWEEP_MS, async () => {
    await attemptDueDeliveries(new Date());
  });
  return {
    stop: async () => {
      await Promise.all([follow(), sweep()]);
    },
  };
}
