/**
 * The patient email pipeline of the local stack (issue #52): what the message queue, its consumer and the
 * reminder schedule do in AWS (infra/patient-email.ts), run in the `npm start` process with the same use
 * case. It follows the events file (./events-file.ts) and hands each event to it; an event whose messages
 * failed (the SES emulator or DynamoDB Local down) is tried again after a wait, as SQS would redeliver it.
 * The reminder sweep runs every REMINDER_SWEEP_MS (default 10 s; the issue asks for at least every 30 s).
 * Every email lands in the SES emulator (aws-ses-v2-local), whose page lists them.
 */
import { now } from '../../shared/config';
import { messagesForEvent, sendDueReminders } from '../../shared/usecases/patient-messages';
import { every, followEventsRedelivering } from './events-file';

/**
 * Receives of an event before it is given up, and the first wait, doubling (2 s … 64 s, 2 minutes in all):
 * SQS's redrive policy, compressed, and past a message's claim (60 s), so that a send that failed after its
 * claim is taken over by a later attempt, as a redelivery in AWS takes it over.
 */
const ATTEMPTS = 7;
const RETRY_MS = 2_000;

export async function startLocalEmail(eventsFile: string, sweepMs = Number(process.env.REMINDER_SWEEP_MS || 10_000)): Promise<{ stop(): Promise<void> }> {
  const stopFollowing = await followEventsRedelivering(eventsFile, 'email', (event) => messagesForEvent(event, now()), {
    attempts: ATTEMPTS,
    firstWaitMs: RETRY_MS,
  });
  const stopSweep = every(sweepMs, 'email reminders', async () => {
    await sendDueReminders(now());
  });
  return {
    stop: async () => {
      await Promise.all([stopFollowing(), stopSweep()]);
    },
  };
}
