/**
 * A LabResultsReported as EventBridge hands it to results-ingest (the lab's source, a local account and
 * region): what `npm run lab` (./lab-cli.ts) and the load run (infra/load/server-process.ts) deliver to the
 * local stack's ingest, one shape for both.
 */
import { randomUUID } from 'node:crypto';
import { LAB_PARTNER_SOURCE, LAB_RESULTS_REPORTED } from '../../shared/events/lab-results-reported';

export const labResultsReportedEvent = <D extends Record<string, unknown>>(detail: D, time: string) => ({
  version: '0',
  id: randomUUID(),
  'detail-type': LAB_RESULTS_REPORTED,
  source: LAB_PARTNER_SOURCE,
  account: '000000000000',
  time,
  region: 'local',
  resources: [] as string[],
  detail,
});
