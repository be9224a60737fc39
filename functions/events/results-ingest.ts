/**
 * EventBridge target for `LabResultsReported` (source lab-partner): stores the lab's report. A report
 * that can never be stored is logged with its reason (ids and rules, never values) and thrown, so that
 * EventBridge's retries end in the dead-letter queue; a duplicate event_id is acknowledged and ignored.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import * as v from 'valibot';
import { now } from '../../shared/config';
import { LabResultsReportedDetail } from '../../shared/events/lab-results-reported';
import { logger } from '../../shared/logger';
import { ingestLabReport, ReportRejected } from '../../shared/usecases/ingest-lab-report';

export const handler = async (event: EventBridgeEvent<string, unknown>): Promise<{ outcome: 'stored' | 'duplicate' }> => {
  const parsed = v.safeParse(LabResultsReportedDetail, event.detail);
  if (!parsed.success) {
    // Paths, expected types and our own rule texts only: the received values are patient results.
    const reason = parsed.issues.map((issue) =>
      issue.type === 'check'
        ? `${v.getDotPath(issue) ?? 'detail'}: ${issue.message}`
        : `${v.getDotPath(issue) ?? 'detail'}: expected ${issue.expected ?? 'a valid value'}`,
    );
    logger.error('lab report rejected', { eventbridge_id: event.id, reason: `invalid payload: ${reason.slice(0, 10).join('; ')}` });
    throw new ReportRejected('invalid LabResultsReported payload');
  }
  const eventId = parsed.output.event_id;
  try {
    const outcome = await ingestLabReport(parsed.output, now());
    logger.info('lab report ingested', { event_id: eventId, outcome });
    return { outcome };
  } catch (error) {
    if (error instanceof ReportRejected) logger.error('lab report rejected', { event_id: eventId, reason: error.message });
    throw error;
  }
};
