/**
 * The one Powertools Logger of a container: structured JSON, service name and level from the
 * environment (POWERTOOLS_SERVICE_NAME, POWERTOOLS_LOG_LEVEL). Log ids, routes, statuses and
 * durations; never names, emails, phones, birth dates, results or request bodies.
 */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'lab-api' });
