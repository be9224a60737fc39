/**
 * The critical results check (issue #29): appointments whose critical values no clinician acknowledged
 * within `ackMinutes` of the oldest one, longest waiting first; and (issue #51) the lab reports that matched
 * no order and waited longer than `waitMinutes` for someone to match or discard them, oldest first. Run on a
 * schedule (functions/events/critical-results-check.ts); the clock is a parameter so the rules can be tested
 * at any hour.
 */
import { criticalResultsWaitingSince, type WaitingCritical } from '../store/critical-results';
import { waitingUnmatchedSince } from '../store/unmatched-results';

export function overdueCriticalResults(now: Date, ackMinutes: number): Promise<WaitingCritical[]> {
  return criticalResultsWaitingSince(new Date(now.getTime() - ackMinutes * 60_000).toISOString());
}

export function overdueUnmatchedResults(now: Date, waitMinutes: number): Promise<{ id: string; received_at: string }[]> {
  return waitingUnmatchedSince(new Date(now.getTime() - waitMinutes * 60_000).toISOString(), now);
}
