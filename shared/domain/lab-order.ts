/**
 * The lab order's delivery over MLLP (issue #51): its status on the sample, the control id every attempt
 * sends, and the retry schedule. Pure: the sender (shared/usecases/send-lab-order.ts) passes the attempt.
 *
 * - pending: the first attempt started; the lab has not acknowledged it yet.
 * - accepted: the lab's engine answered AA (or CA): the order is in its system.
 * - refused: it answered AE/AR (or CE/CR), with its reason in `error`; retrying would be refused again.
 * - failed: no answer after every attempt of the schedule; the message waits in the dead-letter queue, and a
 *   redrive that the lab then accepts (or refuses) moves it on.
 */

export const LAB_ORDER_STATUSES = ['pending', 'accepted', 'refused', 'failed'] as const;
export type LabOrderStatus = (typeof LAB_ORDER_STATUSES)[number];

/** What the appointment (and its home kit) shows of its order's delivery; absent where no lab interface sends it. */
export interface LabOrderState {
  status: LabOrderStatus;
  /** MSH-10 of every attempt: the lab's engine drops a message whose control id it has already taken. */
  message_control_id: string;
  /** When the lab answered (accepted or refused); null before. */
  acknowledged_at: string | null;
  /** The lab's reason for a refusal, or why the last attempt got no answer; null when accepted. */
  error: string | null;
  /**
   * Stored only, never in the API (shared/schemas/fields.ts toLabOrderSummary): the instant until which an
   * attempt holds the order's sending lease, so that a concurrent attempt sends nothing. Gone once an
   * attempt ends (an answer replaces the state; no answer removes it); an attempt that crashed lets it expire.
   */
  sending_until?: string;
}

/**
 * The control id of a requisition's order: its number without the hyphens (14 characters, within MSH-10's
 * 20). Derived, never drawn, so every retry and a redrive send the same id; a recollection has a
 * requisition of its own, and so an id of its own.
 */
export const controlIdOf = (requisitionNumber: string) => requisitionNumber.replaceAll('-', '');

/** The statuses a change to `status` may start from: an answer is final, and only a redrive moves a failed order on. */
export const LAB_ORDER_CHANGES_FROM: Readonly<Record<Exclude<LabOrderStatus, 'pending'>, readonly LabOrderStatus[]>> = {
  accepted: ['pending', 'failed'],
  refused: ['pending', 'failed'],
  failed: ['pending'],
};

export interface RetrySchedule {
  /** The wait after the first attempt without an answer; it doubles after each one… */
  firstDelayMs: number;
  /** …up to this. */
  maxDelayMs: number;
  /** Attempts in all, the first included; after the last without an answer the order is failed. */
  attempts: number;
}

/**
 * 30 s doubling to 15 minutes, 20 attempts: the last one 3¾ hours after the first (30 + 60 + 120 + 240 +
 * 480 s, then 14 × 15 minutes). An interface engine restarted or a VPN renegotiated is back within the first
 * minutes; a lab's maintenance window of a few hours is ridden out; beyond that, someone should look.
 */
export const LAB_ORDER_RETRY: RetrySchedule = { firstDelayMs: 30_000, maxDelayMs: 15 * 60_000, attempts: 20 };

/** The schedule with every wait multiplied by `scale` (the local stack's and the tests' compressed time); 1: unchanged. */
export function scaledSchedule(schedule: RetrySchedule, scale: number): RetrySchedule {
  return { ...schedule, firstDelayMs: Math.round(schedule.firstDelayMs * scale), maxDelayMs: Math.round(schedule.maxDelayMs * scale) };
}

/** How long to wait after attempt `attempt` (1 is the first) got no answer; undefined after the last: the order is failed. */
export function retryDelayMs(attempt: number, schedule: RetrySchedule = LAB_ORDER_RETRY): number | undefined {
  if (attempt >= schedule.attempts) return undefined;
  return Math.min(schedule.firstDelayMs * 2 ** (Math.max(1, attempt) - 1), schedule.maxDelayMs);
}

/** From the first attempt to the last, when none is answered. */
export function scheduleSpanMs(schedule: RetrySchedule = LAB_ORDER_RETRY): number {
  let total = 0;
  for (let attempt = 1; attempt < schedule.attempts; attempt++) total += retryDelayMs(attempt, schedule) ?? 0;
  return total;
}
