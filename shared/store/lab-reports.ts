/**
 * Storing a LabResultsReported report: results, genetic results and documents of one appointment, and
 * its completion when every planned result is in — one TransactWriteItems per report (the event schema
 * bounds a report to fit in one), so nothing is half-stored and a retry is harmless.
 *
 * Access patterns:
 * - was this report stored already ...... GetItem  INGESTED#<event_id>
 * - the appointment of a barcode ......... GetItem  BARCODE#<barcode>
 * - the appointment with its results ..... Query    APPT#<id>
 * - store the report ..................... TransactWrite (results with optimistic conditions, documents,
 *                                          completion + LabResultsAvailable outbox, INGESTED marker)
 */
import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { missingResults, type ReportOrder, supersedes } from '../domain/results';
import { copyObject, deleteObject, objectSize } from '../documents/s3';
import { labResultsAvailable } from '../events/lab-results-available';
import type { LabResultsReportedDetail } from '../events/lab-results-reported';
import { outboxPut, publishCommitted } from '../events/outbox';
import type { DomainEvent } from '../events/publisher';
import { type AppointmentAggregate, getAppointmentAggregate } from './appointments';
import { type Catalog, loadCatalog, plannedBiomarkers } from './catalog';
import { dynamo, tableName } from './client';
import { type DocumentRecord, documentPuts } from './documents';
import { type ItemKey, keys } from './keys';
import { TransactionCancelled, transactWrite } from './transactions';

/** A report that can never be stored as sent. The message is logged: ids and rules only, never values. */
export class ReportRejected extends Error {
  override name = 'ReportRejected';
}

const INGESTED_TTL_DAYS = 90;

async function itemExists(key: { PK: string; SK: string }): Promise<Record<string, unknown> | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item;
}

async function appointmentIdOf(detail: LabResultsReportedDetail): Promise<string> {
  if (detail.appointment_id) return detail.appointment_id;
  const barcode = await itemExists(keys.barcode(detail.barcode as string));
  if (!barcode?.appointment_id) throw new ReportRejected(`no appointment has barcode ${detail.barcode}`);
  return barcode.appointment_id as string;
}

/** A document id derived from the report and file, so a retried report writes the same document. */
function documentId(eventId: string, s3Key: string): string {
  const hex = createHash('sha256').update(`${eventId}\n${s3Key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function assertKnownBiomarkers(detail: LabResultsReportedDetail): Promise<void> {
  const check = (catalog: Catalog) => [
    ...detail.clinical_results.filter((r) => catalog.biomarkers.get(r.biomarker_id)?.kind !== 'clinical').map((r) => r.biomarker_id),
    ...detail.genetic_results.filter((r) => catalog.biomarkers.get(r.biomarker_id)?.kind !== 'genetic').map((r) => r.biomarker_id),
  ];
  // A biomarker added in the last minutes may not be in the container's cached catalog yet.
  let unknown = check(await loadCatalog());
  if (unknown.length > 0) unknown = check(await loadCatalog({ fresh: true }));
  if (unknown.length > 0) throw new ReportRejected(`unknown biomarker(s) or wrong kind: ${unknown.join(', ')}`);
}


/**
 * The Puts of the reported results that supersede what is stored (and `stored` updated to match). Each is
 * optimistic: the result it was compared with is still the one stored, or there still is none.
 */
function supersedingPuts<R extends { biomarker_id: number; tested_at: string }>(
  results: R[],
  stored: Map<number, ReportOrder>,
  itemKey: (biomarkerId: number) => ItemKey,
  detail: LabResultsReportedDetail,
) {
  return results.flatMap((result) => {
    const incoming = { tested_at: result.tested_at, reported_at: detail.reported_at };
    const existing = stored.get(result.biomarker_id);
    if (!supersedes(incoming, existing)) return [];
    stored.set(result.biomarker_id, incoming);
    return [
      {
        Put: {
          TableName: tableName,
          Item: { ...itemKey(result.biomarker_id), ...result, reported_at: detail.reported_at, event_id: detail.event_id },
          ...(existing
            ? { ConditionExpression: 'reported_at = :r AND tested_at = :t', ExpressionAttributeValues: { ':r': existing.reported_at, ':t': existing.tested_at } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      },
    ];
  });
}

interface Prepared {
  items: Parameters<typeof transactWrite>[0];
  events: DomainEvent[];
  incomingKeys: string[];
}

async function prepare(detail: LabResultsReportedDetail, aggregate: AppointmentAggregate, now: Date): Promise<Prepared> {
  const { appointment } = aggregate;
  const at = now.toISOString();

  const clinical = new Map<number, ReportOrder>(aggregate.clinicalResults.map((r) => [r.biomarker_id, r]));
  const genetic = new Map<number, ReportOrder>(aggregate.geneticResults.map((r) => [r.biomarker_id, r]));
  const items: Prepared['items'] = [
    ...supersedingPuts(detail.clinical_results, clinical, (id) => keys.clinicalResult(appointment.id, id), detail),
    ...supersedingPuts(detail.genetic_results, genetic, (id) => keys.geneticResult(appointment.id, id), detail),
  ];

  const incomingKeys: string[] = [];
  for (const document of detail.documents) {
    const id = documentId(detail.event_id, document.s3_key);
    const finalKey = `documents/${appointment.id}/${id}.pdf`;
    const size = (await objectSize(document.s3_key)) ?? (await objectSize(finalKey));
    if (size === undefined) throw new ReportRejected(`document ${document.s3_key} was not uploaded`);
    if (!(await objectSize(finalKey))) await copyObject(document.s3_key, finalKey, document.content_type);
    incomingKeys.push(document.s3_key);
    const record: DocumentRecord = {
      id,
      appointment_id: appointment.id,
      profile_id: appointment.profile_id,
      profile_group_slug: appointment.profile_group_slug,
      s3_key: finalKey,
      file_name: document.file_name,
      content_type: document.content_type,
      size,
      created_at: at,
    };
    items.push(...documentPuts(record));
  }

  const events: DomainEvent[] = [];
  const catalog = await loadCatalog();
  const received = [...clinical.keys(), ...genetic.keys()];
  const canComplete = appointment.status === 'blood_drawn' || appointment.status === 'in_transit';
  if (canComplete && missingResults(plannedBiomarkers(aggregate, catalog), received).length === 0) {
    const event = labResultsAvailable(appointment.id, appointment.profile_id, at);
    events.push(event);
    items.push(
      {
        Update: {
          TableName: tableName,
          Key: keys.appointment(appointment.id),
          UpdateExpression: 'SET #status = :completed, completed_at = :at, updated_at = :at',
          ConditionExpression: '#status = :seen',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':completed': 'completed', ':seen': appointment.status, ':at': at },
        },
      },
      outboxPut(event, at),
    );
  }
  return { items, events, incomingKeys };
}

/**
 * Stores a report. Returns 'duplicate' for an event_id stored before. Throws ReportRejected for what
 * can never be stored (unknown appointment or biomarker, no sample drawn, missing file).
 */
export async function ingestLabReport(detail: LabResultsReportedDetail, now: Date): Promise<'stored' | 'duplicate'> {
  const marker = keys.ingestedReport(detail.event_id);
  if (await itemExists(marker)) return 'duplicate';
  const appointmentId = await appointmentIdOf(detail);
  await assertKnownBiomarkers(detail);

  for (let attempt = 1; ; attempt += 1) {
    const aggregate = await getAppointmentAggregate(appointmentId);
    if (!aggregate) throw new ReportRejected(`unknown appointment ${appointmentId}`);
    const { status } = aggregate.appointment;
    if (status === 'scheduled' || status === 'cancelled') {
      throw new ReportRejected(`appointment ${appointmentId} is ${status}: no sample was drawn`);
    }
    const { items, events, incomingKeys } = await prepare(detail, aggregate, now);
    const markerPut = {
      Put: {
        TableName: tableName,
        Item: {
          ...marker,
          event_id: detail.event_id,
          appointment_id: appointmentId,
          stored_at: now.toISOString(),
          expires_at: Math.floor(now.getTime() / 1000) + INGESTED_TTL_DAYS * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    };
    try {
      // At most 60 + 20 results, 2 × 5 documents, completion (2) and the marker: one transaction of ≤ 93 items.
      await transactWrite([...items, markerPut]);
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      if (error.codes.at(-1) === 'ConditionalCheckFailed' && (await itemExists(marker))) return 'duplicate';
      if (attempt >= 3) throw error;
      continue; // a concurrent report changed the results we compared with: read again
    }
    await Promise.all(incomingKeys.map((key) => deleteObject(key)));
    await publishCommitted(events);
    return 'stored';
  }
}
