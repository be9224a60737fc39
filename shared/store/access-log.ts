/**
 * The access log: who read a person's data, one entry per read (docs/privacy.md "Privacy"). An entry names the
 * read — when, which API key, which route, what was shown, the request and its source address — and holds
 * no value of what was shown. Entries expire after the configured retention (DynamoDB TTL).
 *
 * Access patterns:
 * - record a request's reads ........ PutItem per entry     PK=ACCESS#<profile id>, SK=READ#<at>#<request id>#<n>
 *                                                            (an unmatched result's patient: PK=ACCESS#UNMATCHED#<its id>)
 * - a profile's access log .......... Query ACCESS#<profile id> / READ#…, newest first
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { accessLogEntryKey, accessLogOf, unmatchedAccessLogEntryKey } from './keys';
import { type Page, type PageRequest, pageOfPartition } from './pages';
import { dynamo, tableName } from './client';
import { TTL_ATTRIBUTE } from './table';

/** A read of a lab report that matched no order (issue #51): named by the unmatched result, no profile being known. */
export type UnmatchedReadEntry = Omit<AccessLogEntry, 'profile_id'> & { unmatched_result_id: string };

export interface AccessLogEntry {
  /** When the read was answered, a UTC instant. */
  at: string;
  /** The public id of the API key that read (never its name or plaintext). */
  key_id: string;
  /** The route's name in the routes table (shared/routes.ts). */
  route: string;
  /** What was shown: `profile`, `appointment <id> results`, `document <id>`, … */
  resource: string;
  profile_id: string;
  /** API Gateway's request id: the same id the request's log line carries. */
  request_id: string;
  source_ip: string | null;
}

const DAY_SECONDS = 86_400;

/**
 * Writes the entries of one request, each with its expiry (`retentionDays` after `at`, in epoch seconds
 * as DynamoDB TTL reads it). A request usually reads one thing: one PutItem; several run in parallel.
 * Each put only adds: an entry that exists is never replaced (IAM lets the recording functions put into
 * ACCESS# partitions, but cannot require this condition; our code always sends it).
 */
export async function recordReads(entries: readonly (AccessLogEntry | UnmatchedReadEntry)[], retentionDays: number): Promise<void> {
  await Promise.all(
    entries.map((entry, n) =>
      dynamo.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...('profile_id' in entry
              ? accessLogEntryKey(entry.profile_id, entry.at, entry.request_id, n)
              : unmatchedAccessLogEntryKey(entry.unmatched_result_id, entry.at, entry.request_id, n)),
            ...entry,
            [TTL_ATTRIBUTE]: Math.floor(Date.parse(entry.at) / 1000) + retentionDays * DAY_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    ),
  );
}

/** A page of a profile's access log, newest first (the items also carry their expiry: answer the fields only). */
export async function pageAccessLog(profileId: string, page: PageRequest): Promise<Page<AccessLogEntry>> {
  return pageOfPartition(accessLogOf(profileId), page, { newestFirst: true });
}
