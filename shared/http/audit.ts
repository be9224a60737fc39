/**
 * The access log's edge (README "Privacy"): every keyed request gets its own read collector in its access
 * context; the handler or use case says what it showed (`access.audit?.read(profileId, resource)`) right after
 * its access check passed; once the handler has succeeded, and before the answer leaves, this middleware
 * writes one entry per read and waits for DynamoDB to take it.
 *
 * - A read whose request fails (404, 403, 400, 500) records nothing: `after` runs only on success.
 * - A read that succeeded is never answered without its entry: when the write fails, the request answers
 *   503 and shows nothing (the client retries; a record of a read nobody received is the lesser harm than
 *   a read nobody can see).
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { ReadAudit } from '../auth/access';
import { config, now } from '../config';
import { Unavailable } from '../errors';
import { logger } from '../logger';
import type { RouteName } from '../routes';
import { type AccessLogEntry, recordReads } from '../store/access-log';
import type { LabContext } from './middlewares';

interface Read {
  profileId: string;
  resource: string;
}

/** One request's reads, each once, in the order they were said. Pure: it only remembers. */
export class ReadCollector implements ReadAudit {
  readonly #reads: Read[] = [];

  read(profileId: string, resource: string): void {
    if (!this.#reads.some((seen) => seen.profileId === profileId && seen.resource === resource)) this.#reads.push({ profileId, resource });
  }

  get reads(): readonly Read[] {
    return this.#reads;
  }
}

export const READ_NOT_RECORDED = 'This read could not be recorded in the access log, so nothing is shown; retry the request';

/**
 * Registered after the key and scope checks (shared/http/handler.ts): `before` gives the request an access
 * context of its own with a fresh collector (the authenticated one is cached across requests and never
 * changed); `after` writes what the collector holds when the answer is a success (2xx, or a 303 to a file).
 */
export function auditReads(route: RouteName): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext> {
  return {
    before: ({ context }) => {
      if (!context.access) throw new Error('auditReads runs after authenticateApiKey');
      context.access = { ...context.access, audit: new ReadCollector() };
    },
    after: async ({ event, context, response }) => {
      const audit = context.access?.audit;
      const reads = audit instanceof ReadCollector ? audit.reads : [];
      if (reads.length === 0 || !context.access || !response || response.statusCode >= 400) return;
      const at = now().toISOString();
      const common = {
        at,
        key_id: context.access.keyId,
        route,
        request_id: event.requestContext?.requestId ?? context.awsRequestId,
        source_ip: event.requestContext?.identity?.sourceIp ?? null,
      };
      const entries: AccessLogEntry[] = reads.map((read) => ({ ...common, resource: read.resource, profile_id: read.profileId }));
      try {
        await recordReads(entries, config.auditRetentionDays);
      } catch (error) {
        // By name only: an AWS message may quote the item, and the answer below tells the client what happened.
        logger.error('Access log entry not written; the read is refused', { errorName: (error as Error | undefined)?.name ?? typeof error });
        throw new Unavailable(READ_NOT_RECORDED);
      }
    },
  };
}
