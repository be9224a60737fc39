/**
 * Following the local stack's events file (LOCAL_EVENTS_FILE: every process of the local stack appends the
 * events it publishes there, one PutEvents entry per line) as EventBridge rules follow the bus in AWS: each
 * new line, parsed, to a consumer that runs in the `npm start` process. Used by the webhook pipeline and the
 * lab order pipeline.
 */
import { open, stat } from 'node:fs/promises';
import { errorNames } from '../../shared/logger';
import { type BusEvent, fromPutEventsEntry } from '../../shared/webhooks/bus-event';

/** Runs `task` every `ms`, never two runs at once; a failure is reported (as `name: …`) and the next run goes on. */
export function every(ms: number, name: string, task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= task()
      .catch((error: unknown) => console.error(`${name}: ${errorNames(error).errorName}`))
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

/**
 * Hands each event appended to `eventsFile` from now on to `consume`, all of a poll at once (as parallel
 * consumers would: one slow event does not hold back the others). Answers the function that stops it.
 */
export async function followEvents(eventsFile: string, name: string, consume: (event: BusEvent) => Promise<void>, pollMs = 100): Promise<() => Promise<void>> {
  // Events written before this start were the previous run's.
  let offset = await sizeOf(eventsFile);
  let partial = '';
  return every(pollMs, name, async () => {
    const size = await sizeOf(eventsFile);
    if (size < offset) offset = 0; // the file was deleted or truncated: start over with the new one
    if (size === offset) return;
    const handle = await open(eventsFile, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(size - offset), 0, size - offset, offset);
      offset += bytesRead;
      const lines = (partial + buffer.subarray(0, bytesRead).toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      await Promise.all(
        lines
          .filter((line) => line.trim() !== '')
          .map(async (line) =>
            consume(fromPutEventsEntry(line)).catch((error: unknown) =>
              console.error(`${name}: an event could not be handled (${errorNames(error).errorName})`),
            ),
          ),
      );
    } finally {
      await handle.close();
    }
  });
}

/**
 * Follows the events file like followEvents, handing an event again after a doubling wait when `consume`
 * fails (DynamoDB Local or an emulator down), as SQS redelivers a message whose Lambda failed: `attempts` in
 * all, the first wait `firstWaitMs`, then a line says it was given up. The consumers it serves are safe to run
 * twice on one event (deterministic ids, claims). Answers the function that stops following and retrying.
 */
export async function followEventsRedelivering(
  eventsFile: string,
  name: string,
  consume: (event: BusEvent) => Promise<void>,
  { attempts, firstWaitMs }: { attempts: number; firstWaitMs: number },
): Promise<() => Promise<void>> {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const attempt = async (event: BusEvent, number: number): Promise<void> => {
    try {
      await consume(event);
    } catch (error) {
      const reason = errorNames(error).errorName;
      if (number >= attempts || stopped) return void console.error(`${name}: event ${event.event.event_id} given up after ${number} attempts (${reason})`);
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          void attempt(event, number + 1);
        },
        firstWaitMs * 2 ** (number - 1),
      );
      timers.add(timer);
    }
  };
  const stopFollowing = await followEvents(eventsFile, name, (event) => attempt(event, 1));
  return async () => {
    stopped = true;
    await stopFollowing();
    for (const timer of timers) clearTimeout(timer);
  };
}
