/**
 * The access log's edge (docs/privacy.md "Privacy"): every keyed request gets its own read collector in its access
 * context; the handler or use case says what it showed (`access.audit?.read(profileId, resource)`) once its
 * access check passed (a change: once it is made, with its answer); once the handler has succeeded, and
 * before the answer leaves, this middleware writes one entry per read and waits for DynamoDB to take it.
 * Which routes may read is one list (shared/http/audited-routes.ts).
 *
 * - A request that fails (404, 403, 400, 500) records nothing: `after` runs only on success.
 * - An answer that shows a person is never sent without its entry: when the write fails, the request
 *   answers 503 and shows nothing (a record of a read nobody received is the lesser harm than a read nobody
 *   can see). A read is simply retried; a change (PATCH, cancel, a create…) is made by then and stays made,
 *   so its 503 says to read the resource rather than repeat the change.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../config';
import { Unavailable } from '../errors';
import { logger } from '../logger';
import type { Route, RouteName } from '../routes';
import { type AccessLogEntry, recordReads, type UnmatchedReadEntry } from '../store/access-log';
import { ReadCollector } from './audited-routes';
import type { LabContext } from './middlewares';

export const READ_NOT_RECORDED = 'This read could not be recorded in the access log, so nothing is shown; retry the request';
export const CHANGE_NOT_SHOWN =
  'The change was made, but its answer could not be recorded in the access log, so nothing is shown; read the resource rather than repeat the change';

/**
 * Registered after the key and scope checks (shared/http/handler.ts): `before` gives the request an access
 * context of its own with a fresh collector (the authenticated one is cached across requests and never
 * changed); `after` writes what the collector holds when the answer is a success (2xx, or a 303 to a file).
 */
export function auditReads(route: Route & { name: RouteName }): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext> {
  const notRecorded = route.method === 'GET' ? READ_NOT_RECORDED : CHANGE_NOT_SHOWN;
  return {
    before: ({ context }) => {
      if (!context.access) throw new Error('auditReads runs after authenticateApiKey');
      context.access = { ...context.access, audit: new ReadCollector(route.name) };
    },
    after: async ({ event, context, response }) => {
      const audit = context.access?.audit;
      const reads = audit instanceof ReadCollector ? audit.reads : [];
      if (reads.length === 0 || !context.access || !response || response.statusCode >= 400) return;
      // Real time, never LAB_CLOCK (as key expiry): under a fixed clock every entry would tie, in order and expiry.
      const at = new Date().toISOString();
      const common = {
        at,
        key_id: context.access.keyId,
        route: route.name,
        request_id: event.requestContext?.requestId ?? context.awsRequestId,
        source_ip: event.requestContext?.identity?.sourceIp ?? null,
      };
      const entries: (AccessLogEntry | UnmatchedReadEntry)[] = reads.map((read) =>
        'profileId' in read
          ? { ...common, resource: read.resource, profile_id: read.profileId }
          : { ...common, resource: read.resource, unmatched_result_id: read.unmatchedResultId },
      );
      try {
        await recordReads(entries, config.auditRetentionDays);
      } catch (error) {
        // By name only: an AWS message may quote the item, and the answer below tells the client what happened.
        logger.error('Access log entry not written; the answer is refused', { errorName: (error as Error | undefined)?.name ?? typeof error });
        throw new Unavailable(notRecorded);
      }
    },
  };
}
