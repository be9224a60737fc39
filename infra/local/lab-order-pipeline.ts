/**
 * The lab order sender of the local stack (issue #51): what the EventBridge rule, the sender's SQS queue
 * and its Lambda do in AWS (infra/lab-order-sender.ts), run in the `npm start` process with the same use
 * case. It follows the events file (./events-file.ts) and makes the first attempt of each live
 * LabOrderRequested at once; an attempt without an answer is tried again after the schedule's wait (a
 * timer here, the message's visibility in AWS), LAB_ORDER_RETRY_SCALE compressing it for tests. After the
 * last attempt the order is failed and a line says so; there is no dead-letter queue to redrive here: an
 * order in flight when the stack stops is not tried again by the next start.
 */
import { now } from '../../shared/config';
import { LAB_ORDER_REQUESTED } from '../../shared/events/lab-order-requested';
import { errorNames } from '../../shared/logger';
import { configuredLabInterface, type OrderToSend, sendLabOrder } from '../../shared/usecases/send-lab-order';
import { followEvents } from './events-file';

export async function startLocalLabOrders(eventsFile: string): Promise<{ stop(): Promise<void> }> {
  const lab = configuredLabInterface();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const later = (ms: number, run: () => Promise<void>) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      track(run());
    }, ms);
    timers.add(timer);
  };
  const track = (work: Promise<void>) => {
    running.add(work);
    void work.finally(() => running.delete(work));
  };

  const attempt = async (order: OrderToSend, number: number): Promise<void> => {
    try {
      const outcome = await sendLabOrder(order, number, lab, now);
      if (outcome.kind === 'retry') later(outcome.afterMs, () => attempt(order, number + 1));
      // Another attempt is sending it: the same attempt again once its lease has ended (answered by then, or retried by it).
      if (outcome.kind === 'in-flight') later(outcome.afterMs, () => attempt(order, number));
      if (outcome.kind === 'failed') console.error(`lab orders: appointment ${order.appointment_id} failed after ${number} attempts (${outcome.reason})`);
    } catch (error) {
      // Our own failure (DynamoDB Local unavailable): the same attempt again after the first wait, as SQS would.
      console.error(`lab orders: attempt ${number} for appointment ${order.appointment_id} failed (${errorNames(error).errorName})`);
      later(lab.schedule.firstDelayMs, () => attempt(order, number));
    }
  };

  const stopFollowing = await followEvents(eventsFile, 'lab orders', async ({ event, realm }) => {
    const { appointment_id, requisition_number } = event.detail;
    // Live orders only, as the AWS rule: a sandbox key's orders never reach a lab.
    if (event.detail_type !== LAB_ORDER_REQUESTED || realm !== 'live') return;
    if (typeof appointment_id !== 'string' || typeof requisition_number !== 'string') return;
    await attempt({ appointment_id, requisition_number }, 1);
  });
  return {
    stop: async () => {
      stopped = true;
      await stopFollowing();
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(running);
    },
  };
}
