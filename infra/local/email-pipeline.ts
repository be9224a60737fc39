/**
 * The patient email pipeline of the local stack (issue #52): what the message queue, its consumer and the
 * reminder schedule do in AWS (infra/patient-email.ts), run in the `npm start` process with the same use
 * case. It follows the events file (./events-file.ts) and hands each event to it; an event whose messages
 * failed (the SES emulator or DynamoDB Local down) is tried again after a wait, as SQS would redeliver it.
 * The reminder sweep runs every REMINDER_SWEEP_MS (default 10 s; the issue asks for at least every 30 s).
 * Every email lands in the SES emulator (aws-ses-v2-local), whose page lists them.
 */
import { now } from '../../shared/config';
import { errorNames } from '../../shared/logger';
import { messagesForEvent, sendDueReminders } from '../../shared/usecases/patient-messages';
import type { BusEvent } from '../../shared/webhooks/bus-event';
import { every, followEvents } from './events-file';

/**
 * Receives of an event before it is given up, and the first wait, doubling (2 s … 64 s, 2 minutes in all):
 * SQS's redrive policy, compressed, and past a message's claim (60 s), so that a send that failed after its
 * claim is taken over by a later attempt, as a redelivery in AWS takes it over.
 */
const ATTEMPTS = 7;
const RETRY_MS = 2_000;

export async function startLocalEmail(eventsFile: string, sweepMs = Number(process.env.REMINDER_SWEEP_MS || 10_000)): Promise<{ stop(): Promise<void> }> {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const attempt = async (event: BusEvent, number: number): Promise<void> => {
    try {
      await messagesForEvent(event, now());
    } catch (error) {
      const reason = errorNames(error).errorName;
      if (number >= ATTEMPTS || stopped) return void console.error(`email: event ${event.event.event_id} given up after ${number} attempts (${reason})`);
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          void attempt(event, number + 1);
        },
        RETRY_MS * 2 ** (number - 1),
      );
      timers.add(timer);
    }
  };

  const stopFollowing = await followEvents(eventsFile, 'email', (event) => attempt(event, 1));
  const stopSweep = every(sweepMs, 'email reminders', async () => {
    await sendDueReminders(now());
  });
  return {
    stop: async () => {
      stopped = true;
      await Promise.all([stopFollowing(), stopSweep()]);
      for (const timer of timers) clearTimeout(timer);
    },
  };
}
