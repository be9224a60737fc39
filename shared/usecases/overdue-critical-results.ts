/**
 * The critical results check (issue #29): appointments whose critical values no clinician acknowledged
 * within `ackMinutes` of the oldest one, longest waiting first. Run on a schedule
 * (functions/events/critical-results-check.ts); the clock is a parameter so the rule can be tested at any
 * hour.
 */
import { criticalResultsWaitingSince, type WaitingCritical } from '../store/critical-results';

export function overdueCriticalResults(now: Date, ackMinutes: number): Promise<WaitingCritical[]> {
  return criticalResultsWaitingSince(new Date(now.getTime() - ackMinutes * 60_000).toISOString());
}
