/** AUDIT_RETENTION_DAYS (docs/privacy.md "Privacy"): how long an access-log entry is kept, read once at cold start. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => {
  vi.resetModules(); // shared/config.ts reads the environment once per load
  vi.stubEnv('TABLE_NAME', 'unit-test-table');
});
afterEach(() => vi.unstubAllEnvs());

const load = async () => (await import('../../shared/config')).config.auditRetentionDays;

describe('the access-log retention', () => {
  it('is 730 days (two years) when AUDIT_RETENTION_DAYS is unset', async () => {
    vi.stubEnv('AUDIT_RETENTION_DAYS', undefined);
    expect(await load()).toBe(730);
  });

  it('is the number of days AUDIT_RETENTION_DAYS says', async () => {
    vi.stubEnv('AUDIT_RETENTION_DAYS', '3653');
    expect(await load()).toBe(3653);
  });

  it('refuses to load with a retention that is not a whole number of days', async () => {
    vi.stubEnv('AUDIT_RETENTION_DAYS', '0');
    await expect(load()).rejects.toThrowError('Invalid configuration: AUDIT_RETENTION_DAYS: must be a whole number of days from 1 to 99999');
  });
});
