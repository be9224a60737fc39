// Scheduled every 5 minutes (EventBridge rule, every stage): counts the appointments whose critical
// results no clinician acknowledged within CRITICAL_ACK_MINUTES, and the lab reports that matched no order
// and waited longer than UNMATCHED_WAIT_MINUTES to be matched or discarded (issue #51); logs both counts every
// run, 0 included. In stages with alarms a metric filter turns each line into the metric an alarm watches
// (infra/log-alarms.ts); the ids it logs (at most MAX_LOGGED_IDS, never a value) are where on-call starts.
// A run that cannot read fails: the Lambda errors alarm covers a check that stopped checking.
import { config, now } from '../../shared/config';
import { CRITICAL_UNACKNOWLEDGED_LOG, UNMATCHED_WAITING_LOG } from '../../shared/domain/results';
import { inInvocation, logger } from '../../shared/logger';
import { overdueCriticalResults, overdueUnmatchedResults } from '../../shared/usecases/overdue-critical-results';

const MAX_LOGGED_IDS = 20;

export const handler = inInvocation(async () => {
  const at = now();
  const [overdue, unmatched] = await Promise.all([
    overdueCriticalResults(at, config.criticalAckMinutes),
    overdueUnmatchedResults(at, config.unmatchedWaitMinutes),
  ]);
  logger.info(CRITICAL_UNACKNOWLEDGED_LOG, {
    count: overdue.length,
    ack_minutes: config.criticalAckMinutes,
    oldest_waiting_since: overdue[0]?.waiting_since ?? null,
    appointment_ids: overdue.slice(0, MAX_LOGGED_IDS).map((waiting) => waiting.appointment_id),
  });
  logger.info(UNMATCHED_WAITING_LOG, {
    count: unmatched.length,
    wait_minutes: config.unmatchedWaitMinutes,
    oldest_received_at: unmatched[0]?.received_at ?? null,
    unmatched_result_ids: unmatched.slice(0, MAX_LOGGED_IDS).map((waiting) => waiting.id),
  });
  return { unacknowledged: overdue.length, unmatched: unmatched.length };
});
