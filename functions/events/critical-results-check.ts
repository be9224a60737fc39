// Scheduled every 5 minutes (EventBridge rule, every stage): counts the appointments whose critical
// results no clinician acknowledged within CRITICAL_ACK_MINUTES, and logs the count every run, 0 included.
// In prod a metric filter turns that line into the metric an alarm watches (infra/monitoring.ts); the ids
// it logs (at most MAX_LOGGED_IDS, never a value) are where on-call starts. A run that cannot read fails:
// the Lambda errors alarm covers a check that stopped checking.
import { config, now } from '../../shared/config';
import { CRITICAL_UNACKNOWLEDGED_LOG } from '../../shared/domain/results';
import { inInvocation, logger } from '../../shared/logger';
import { overdueCriticalResults } from '../../shared/usecases/overdue-critical-results';

const MAX_LOGGED_IDS = 20;

export const handler = inInvocation(async () => {
  const overdue = await overdueCriticalResults(now(), config.criticalAckMinutes);
  logger.info(CRITICAL_UNACKNOWLEDGED_LOG, {
    count: overdue.length,
    ack_minutes: config.criticalAckMinutes,
    oldest_waiting_since: overdue[0]?.waiting_since ?? null,
    appointment_ids: overdue.slice(0, MAX_LOGGED_IDS).map((waiting) => waiting.appointment_id),
  });
  return { unacknowledged: overdue.length };
});
