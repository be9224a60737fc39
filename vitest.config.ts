import { defineConfig } from 'vitest/config';

// Four suites, one command (`npm test` runs them all). Integration tests share one DynamoDB Local and one
// S3 emulator (started and stopped by the global setup) and get a fresh table per test file.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/emulators.global.ts', 'test/support/contract-summary.global.ts'],
          setupFiles: ['test/support/fresh-table.setup.ts', 'test/support/cdk-outdir.setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          setupFiles: ['test/support/cdk-outdir.setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/contract-summary.global.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
