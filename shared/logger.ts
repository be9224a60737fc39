/**
 * The one Powertools Logger of a container: structured JSON, service name and level from the
 * environment (POWERTOOLS_SERVICE_NAME, POWERTOOLS_LOG_LEVEL). Log ids, routes, statuses and
 * durations; never names, emails, phones, birth dates, results or request bodies.
 */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'lab-api' });

/**
 * What a log line may say of an error: its name and its cause's (a wrapper's, e.g. Powertools
 * Idempotency's or PublishFailed, and what it wraps), never a message — an AWS message can quote a stored
 * item, ours can name a value. Spread into the line's attributes; no `causeName` when there is no cause.
 */
export function errorNames(error: unknown): { errorName: string; causeName?: string } {
  if (!(error instanceof Error)) return { errorName: typeof error };
  return error.cause instanceof Error ? { errorName: error.name, causeName: error.cause.name } : { errorName: error.name };
}
