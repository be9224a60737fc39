/** The lab's side in tests: upload report files to incoming/ and deliver LabResultsReported to the ingest handler. */
import { randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { handler as resultsIngest } from '../../functions/events/results-ingest';
import { now } from '../../shared/config';
import { INCOMING_PREFIX, s3 } from '../../shared/documents/s3';
import { apoeResult } from '../../infra/cli/lab-samples';
import { eventBridgeEnvelope } from './event-bridge';

export async function uploadIncoming(bytes: Buffer, key = `${INCOMING_PREFIX}${randomUUID()}.pdf`): Promise<string> {
  await s3.send(new PutObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: key, Body: bytes, ContentType: 'application/pdf' }));
  return key;
}

export function deliver(detail: Record<string, unknown>) {
  return resultsIngest(eventBridgeEnvelope('lab-partner', 'LabResultsReported', detail));
}

export const clinical = (biomarker_id: number, value: number, tested_at = '2026-11-20') => ({
  biomarker_id,
  value,
  value_operator: 'eq',
  unit_id: 1,
  unit: 'ng/mL',
  reference_range_lab: { normal_min: 1, normal_max: 100, optimal_min: null, optimal_max: null },
  tested_at,
  comment: null,
});

export const apoe = apoeResult('2026-11-20');

/** A report made now by the service's clock (a file with a fixed clock, LAB_CLOCK, reports at that time). */
export const report = (appointmentId: string, extra: Record<string, unknown> = {}) => ({
  event_id: randomUUID(),
  appointment_id: appointmentId,
  reported_at: now().toISOString(),
  ...extra,
});
