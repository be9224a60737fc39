/**
 * What a lab report leaves in the table: results, genetic results and document links in the
 * appointment's partition, and a marker per stored report so the same event_id is stored once. The
 * ingest itself (one transaction per report) is shared/usecases/ingest-lab-report.ts.
 *
 * Access patterns:
 * - was this report stored already ...... GetItem  INGESTED#<event_id> (and for which appointment)
 * - the appointment of a barcode ......... GetItem  BARCODE#<barcode>
 * - store a result ....................... Put (optimistic: the result it replaces is still the one stored)
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentKind, Interpretation, RejectedTest, ReportOrder, ResultStatus, ValueOperator } from '../domain/results';
import type { Variant } from '../events/result-shapes';
import type { ReferenceRange } from './catalog';
import { dynamo, tableName } from './client';
import { type ItemKey } from './keys';
import * as keys from './keys/items';
import { type NamedItem, named } from './transactions';

export interface ClinicalResultRecord {
  biomarker_id: number;
  value: number;
  value_operator: ValueOperator;
  unit_id: number | null;
  unit: string | null;
  reference_range_lab: ReferenceRange | null;
  tested_at: string;
  comment: string | null;
  reported_at: string;
  /** Absent on results stored before statuses: final. */
  result_status?: ResultStatus;
  /** The lab's flag, or derived at ingest; absent on results stored before interpretations. */
  interpretation?: Interpretation | null;
  /** The values this one replaced, newest first (at most MAX_SUPERSEDED), each as it was stored. */
  superseded?: SupersededVersion<ClinicalResultRecord>[];
  event_id?: string;
}

/** A replaced version of a result, kept in the result's own item: what it was, and the report that sent it. */
export type SupersededVersion<R> = Omit<R, 'superseded'>;

/** How many replaced versions a result keeps: a lab corrects a value a few times, not a hundred. */
export const MAX_SUPERSEDED = 20;

/** The stored result's versions before the new one, newest first: the one replaced, then its own history. */
export function supersededBy<R extends { superseded?: SupersededVersion<R>[] }>(existing: R | undefined): SupersededVersion<R>[] | undefined {
  if (!existing) return undefined;
  const { superseded = [], ...replaced } = existing;
  return [replaced as SupersededVersion<R>, ...superseded].slice(0, MAX_SUPERSEDED);
}

export interface GeneticResultRecord {
  biomarker_id: number;
  gene: string;
  genotype: string;
  clinical_significance: string;
  risk_description: string;
  tested_at: string;
  comment: string | null;
  variants: Variant[];
  reported_at: string;
  result_status?: ResultStatus;
  superseded?: SupersededVersion<GeneticResultRecord>[];
  event_id?: string;
}

/** A test the lab could not perform on the specimen (issue #29): shown not_performed while no result came. */
export interface RejectedTestRecord extends RejectedTest {
  reported_at: string;
  event_id: string;
}

export const rejectionPut = (appointmentId: string, rejected: RejectedTestRecord): NamedItem =>
  named('rejection', { Put: { TableName: tableName, Item: { ...keys.rejectedTest(appointmentId, rejected.biomarker_id), ...rejected } } });

/** A report document as the appointment lists it; the document itself is shared/store/documents.ts. */
export interface DocumentLink {
  id: string;
  file_name: string;
  added_at: string;
  kind: DocumentKind;
  result_status: ResultStatus;
}

/** A link as read: one stored before issue #48 has no kind or status, and is a lab report, final. */
export const documentLink = (item: Omit<DocumentLink, 'kind' | 'result_status'> & Partial<DocumentLink>): DocumentLink => ({
  ...item,
  kind: item.kind ?? 'lab_report',
  result_status: item.result_status ?? 'final',
});

const INGESTED_TTL_DAYS = 90;

async function getItem(key: ItemKey): Promise<Record<string, unknown> | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item;
}

export async function reportStored(eventId: string): Promise<boolean> {
  return (await getItem(keys.ingestedReport(eventId))) !== undefined;
}

/** The appointment a stored report was stored for (its marker names it), or undefined when it is not stored. */
export async function appointmentOfStoredReport(eventId: string): Promise<string | undefined> {
  return (await getItem(keys.ingestedReport(eventId)))?.appointment_id as string | undefined;
}

export async function appointmentIdOfBarcode(barcode: string): Promise<string | undefined> {
  return (await getItem(keys.barcode(barcode)))?.appointment_id as string | undefined;
}

/** The marker of a stored report, written last in its transaction; it expires after 90 days. */
export const reportMarkerPut = (eventId: string, appointmentId: string, now: Date): NamedItem =>
  named('marker', {
    Put: {
      TableName: tableName,
      Item: {
        ...keys.ingestedReport(eventId),
        event_id: eventId,
        appointment_id: appointmentId,
        stored_at: now.toISOString(),
        expires_at: Math.floor(now.getTime() / 1000) + INGESTED_TTL_DAYS * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  });

/**
 * The Put of a reported result. Optimistic: the result it was compared with (`replacing`) is still the
 * one stored, or there still is none.
 */
export function resultPut(
  key: ItemKey,
  result: { biomarker_id: number; tested_at: string; superseded?: unknown[] },
  report: { event_id: string; reported_at: string },
  replacing: ReportOrder | undefined,
): NamedItem {
  return named('result', {
    Put: {
      TableName: tableName,
      Item: { ...key, ...result, reported_at: report.reported_at, event_id: report.event_id },
      ...(replacing
        ? { ConditionExpression: 'reported_at = :r AND tested_at = :t', ExpressionAttributeValues: { ':r': replacing.reported_at, ':t': replacing.tested_at } }
        : { ConditionExpression: 'attribute_not_exists(PK)' }),
    },
  });
}
