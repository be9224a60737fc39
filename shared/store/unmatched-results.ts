/**
 * Lab reports whose barcode matched no drawn order (issue #51): kept UNMATCHED_RETENTION_DAYS for the service's
 * lab-operations staff, who match each to its appointment or discard it (docs/hl7.md "Results that match no
 * order"). An item holds the report as the ingest would store it (its files copied under `unmatched/`) and
 * the patient the lab named; both are removed when it is matched or discarded, and the whole item expires
 * (DynamoDB TTL) with them.
 *
 * Access patterns:
 * - keep a report (once per event_id) ........ PutItem  UNMATCHED#<id>, attribute_not_exists
 * - read one ................................. GetItem  UNMATCHED#<id> (consistent)
 * - the waiting ones, newest first, paged .... Query GSI1 UNMATCHED_RESULTS, GSI1SK UNMATCHED#<received_at>#<id>, descending
 * - the waiting ones older than an instant ... Query GSI1 UNMATCHED_RESULTS, GSI1SK below UNMATCHED#<instant> (the check)
 * - close one (matched, discarded) ........... Update: waiting → matched|discarded, patient, report and GSI1 entry removed
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { UNMATCHED_RETENTION_DAYS, type UnmatchedStatus } from '../domain/unmatched-results';
import type { LabResultsReportedDetail } from '../events/lab-results-reported';
import { dynamo, tableName } from './client';
import { writtenIf } from './conditions';
import { GSI1 } from './keys';
import * as index from './keys/index-entries';
import * as keys from './keys/items';
import { type Page, type PageRequest, pageByIndexPrefix } from './pages';
import { queryAll } from './query';
import { TTL_ATTRIBUTE } from './table';
import { type NamedItem, named } from './transactions';

export type UnmatchedSource = 'hl7' | 'json';

/** A test the report carries, as the list names it: its LOINC code (our id where it has none) and name. */
export interface UnmatchedBiomarker {
  code: string;
  name: string;
}

export interface UnmatchedPatient {
  name: string | null;
  date_of_birth: string | null;
}

export interface UnmatchedResultRecord {
  id: string;
  /** When the ingest kept it: a UTC instant. */
  received_at: string;
  barcode: string;
  source: UnmatchedSource;
  biomarkers: UnmatchedBiomarker[];
  status: UnmatchedStatus;
  /** As the lab sent it; only while it waits. */
  patient?: UnmatchedPatient;
  /** The report to apply on a match, its documents under `unmatched/`; only while it waits. */
  report?: LabResultsReportedDetail;
  /** Matched or discarded: when, and by which API key. */
  closed_at?: string;
  closed_by?: string;
  /** Matched: the appointment now holding its results. */
  appointment_id?: string;
  /** Discarded: why. */
  discard_reason?: string;
  /** Epoch seconds: DynamoDB TTL deletes the item after this. */
  [TTL_ATTRIBUTE]: number;
}

const DAY_SECONDS = 86_400;

/** When an unmatched result received at `receivedAt` expires, as DynamoDB TTL reads it (epoch seconds). */
export const unmatchedExpiry = (receivedAt: string): number => Math.floor(Date.parse(receivedAt) / 1000) + UNMATCHED_RETENTION_DAYS * DAY_SECONDS;

/** TTL deletes an item some time after it expired (up to days): past its expiry it is gone to every reader. */
const expired = (record: UnmatchedResultRecord, now: Date) => record[TTL_ATTRIBUTE] * 1000 <= now.getTime();

/**
 * Keeps a report: the item and its list entry. Returns false when it was kept before (the same report
 * delivered again: its id is derived from the report's event_id).
 */
export async function keepUnmatchedResult(record: UnmatchedResultRecord): Promise<boolean> {
  return writtenIf(
    dynamo.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.unmatchedResult(record.id), ...index.waitingUnmatchedResult(record.received_at, record.id), ...record },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    ),
  );
}

/** An unmatched result, unless there is none or it expired. */
export async function getUnmatchedResult(id: string, now: Date): Promise<UnmatchedResultRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.unmatchedResult(id), ConsistentRead: true }));
  if (!Item) return undefined;
  const { PK: _pk, SK: _sk, GSI1PK: _gpk, GSI1SK: _gsk, ...record } = Item;
  return expired(record as UnmatchedResultRecord, now) ? undefined : (record as UnmatchedResultRecord);
}

/**
 * A page of the waiting ones, newest first. An item past its expiry that TTL has not deleted yet is left out
 * (the page is then shorter than `limit`; its cursor still leads on).
 */
export async function pageWaitingUnmatchedResults(page: PageRequest, now: Date): Promise<Page<UnmatchedResultRecord>> {
  const found = await pageByIndexPrefix<UnmatchedResultRecord>([index.waitingUnmatchedResults()], page);
  return { ...found, items: found.items.filter((record) => !expired(record, now)) };
}

/** When each waiting one arrived, of those that arrived before `instant` (and have not expired), oldest first. */
export async function waitingUnmatchedSince(instant: string, now: Date): Promise<{ id: string; received_at: string }[]> {
  const { GSI1PK, from, below } = index.waitingUnmatchedBefore(instant);
  const items = await queryAll({
    TableName: tableName,
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :below',
    ExpressionAttributeValues: { ':pk': GSI1PK, ':from': from, ':below': below },
    ProjectionExpression: 'id, received_at, #expires',
    ExpressionAttributeNames: { '#expires': TTL_ATTRIBUTE },
  });
  return items
    .filter((item) => (item[TTL_ATTRIBUTE] as number) * 1000 > now.getTime())
    .map((item) => ({ id: item.id as string, received_at: item.received_at as string }));
}

/** What closing a waiting one sets: matched to an appointment, or discarded with a reason. */
export type Closing = { status: 'matched'; appointment_id: string } | { status: 'discarded'; discard_reason: string };

/**
 * The update that closes a waiting unmatched result: its status, when and by whom, and the patient, the report
 * and the list entry removed. Conditional on its still waiting (named `unmatched` in a transaction).
 */
export function closeUnmatchedUpdate(id: string, closing: Closing, by: { at: string; keyId: string }): NamedItem {
  const { status, ...detail } = closing;
  const [field, value] = Object.entries(detail)[0] as [string, string];
  return named('unmatched', {
    Update: {
      TableName: tableName,
      Key: keys.unmatchedResult(id),
      UpdateExpression: `SET #status = :status, closed_at = :at, closed_by = :by, #detail = :detail REMOVE patient, report, GSI1PK, GSI1SK`,
      ConditionExpression: '#status = :waiting',
      ExpressionAttributeNames: { '#status': 'status', '#detail': field },
      ExpressionAttributeValues: { ':status': status, ':at': by.at, ':by': by.keyId, ':detail': value, ':waiting': 'waiting' },
    },
  });
}

/** Closes one on its own (a discard). Returns false when it no longer waits (closed meanwhile). */
export async function closeUnmatchedResult(id: string, closing: Closing, by: { at: string; keyId: string }): Promise<boolean> {
  const { Update } = closeUnmatchedUpdate(id, closing, by);
  return writtenIf(dynamo.send(new UpdateCommand(Update!)));
}
