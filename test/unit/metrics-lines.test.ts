/**
 * The metrics lines of shared/metrics.ts as its environment shapes them, read once when the module loads:
 * each test loads it afresh with its own variables. test/integration/metrics.test.ts reads the lines of
 * real requests with a route class set, as every route function has; these are the other settings.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Metrics from '../../shared/metrics';
import { captureLogs } from '../support/log-capture';

async function linesWritten(environment: Record<string, string | undefined>, write: (metrics: typeof Metrics) => void) {
  vi.resetModules();
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  const metrics = await import('../../shared/metrics');
  const logs = captureLogs();
  try {
    write(metrics);
  } finally {
    logs.stop();
  }
  return logs.lines().map((line) => JSON.parse(line) as Record<string, unknown> & { _aws: { CloudWatchMetrics: { Dimensions: string[][] }[] } });
}

afterEach(() => vi.unstubAllEnvs());

describe('a request line', () => {
  it('has only the route dimension set when the function has no route class', async () => {
    const [line, ...more] = await linesWritten({ POWERTOOLS_METRICS_DISABLED: 'false', LAB_ROUTE_CLASS: undefined }, ({ countRequest }) =>
      countRequest('health', 200, 1),
    );
    expect(more).toEqual([]);
    expect(line!._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service', 'route']]);
    expect(line).not.toHaveProperty('class');
  });

  it('is not written when metrics are turned off, whichever way the variable says yes', async () => {
    for (const yes of ['true', 'TRUE', '1', 'yes', 'y', 'on', 't']) {
      expect(await linesWritten({ POWERTOOLS_METRICS_DISABLED: yes }, ({ countRequest }) => countRequest('health', 200, 1)), yes).toEqual([]);
    }
  });
});

describe('a business line', () => {
  it('is in the namespace the stack sets, with the service as its only dimension', async () => {
    const [line] = await linesWritten(
      { POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_METRICS_NAMESPACE: 'LabApi/LabApi-dev' },
      ({ countBusiness, BUSINESS_METRICS }) => countBusiness(BUSINESS_METRICS.resultsIngested, 2),
    );
    expect(line!._aws.CloudWatchMetrics).toEqual([
      { Namespace: 'LabApi/LabApi-dev', Dimensions: [['service']], Metrics: [{ Name: 'ResultsIngested', Unit: 'Count' }] },
    ]);
    expect(line).toMatchObject({ service: 'lab-api', ResultsIngested: 2 });
  });
});
