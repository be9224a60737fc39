/**
 * EventBridge target for the lab's results, in either form:
 * - `LabResultsReported` (source lab-partner): our JSON report;
 * - `Object Created` (source aws.s3) of an HL7 v2 ORU^R01 message under `incoming/hl7/` (docs/hl7.md).
 * Both are stored by the same use case. A report whose barcode no drawn order holds is kept as an unmatched
 * result (outcome `unmatched`, issue #51), never sent to the dead-letter queue. A report that can never be
 * stored is logged with its reason (ids and rules, never values) and thrown, so that EventBridge's retries
 * end in the dead-letter queue; a duplicate (the same event_id, the same HL7 message control id) is
 * acknowledged and ignored.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import * as v from 'valibot';
import { now } from '../../shared/config';
import { LabResultsReportedDetail, reportIssues } from '../../shared/events/lab-results-reported';
import { inInvocation, logger } from '../../shared/logger';
import { type Hl7Outcome, ingestHl7Message } from '../../shared/usecases/ingest-hl7-message';
import { ingestLabReport, ReportRejected } from '../../shared/usecases/ingest-lab-report';

/** What S3 puts on EventBridge for a new object (only the fields read here). */
const ObjectCreated = v.object({
  object: v.object({ key: v.pipe(v.string(), v.maxLength(1024)), 'version-id': v.optional(v.pipe(v.string(), v.maxLength(1024))) }),
});

export const handler = inInvocation(async (event: EventBridgeEvent<string, unknown>): Promise<{ outcome: Hl7Outcome }> => {
  if (event.source === 'aws.s3') return hl7Message(event);
  const parsed = v.safeParse(LabResultsReportedDetail, event.detail);
  if (!parsed.success) {
    const reason = `invalid payload: ${reportIssues(parsed.issues, 'detail')}`;
    logger.error('lab report rejected', { eventbridge_id: event.id, reason });
    // The same reason in the error, which the dead-letter queue keeps beside the event (paths and rules, no value).
    throw new ReportRejected(`invalid LabResultsReported payload (${reason})`);
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
});

async function hl7Message(event: EventBridgeEvent<string, unknown>): Promise<{ outcome: Hl7Outcome }> {
  const parsed = v.safeParse(ObjectCreated, event.detail);
  try {
    if (event['detail-type'] !== 'Object Created' || !parsed.success) throw new ReportRejected('not an S3 Object Created event');
    const { key, 'version-id': versionId } = parsed.output.object;
    const { outcome, event_id } = await ingestHl7Message(key, now(), versionId);
    // The EventBridge id, not the key: the lab names its files, and a name may say whose message it is.
    logger.info('lab HL7 message ingested', { eventbridge_id: event.id, event_id, outcome });
    return { outcome };
  } catch (error) {
    if (error instanceof ReportRejected) logger.error('lab report rejected', { eventbridge_id: event.id, format: 'hl7', reason: error.message });
    throw error;
  }
}
