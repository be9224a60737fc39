/** The paged lists refuse to start without a usable CURSOR_SECRET: at load (cold start), not at the first page. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => {
  vi.resetModules(); // shared/config.ts reads the environment once per load
  vi.stubEnv('TABLE_NAME', 'unit-test-table');
});
afterEach(() => vi.unstubAllEnvs());

describe('the module that binds pages to a key', () => {
  it('refuses to load without CURSOR_SECRET', async () => {
    vi.stubEnv('CURSOR_SECRET', undefined);
    await expect(import('../../shared/usecases/paging')).rejects.toThrowError('Invalid configuration: CURSOR_SECRET is required');
  });

  it('refuses to load with a CURSOR_SECRET shorter than 32 characters, without quoting it', async () => {
    vi.stubEnv('CURSOR_SECRET', 'short-secret');
    const loading = import('../../shared/usecases/paging');
    await expect(loading).rejects.toThrowError('Invalid configuration: CURSOR_SECRET: must be at least 32 characters');
    await expect(loading).rejects.not.toThrowError('short-secret');
  });
});
