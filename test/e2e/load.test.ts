/**
 * The load run with its faults (issue #54), short: 30 s of partners' mixed traffic at 10 requests/s (300
 * requests) against a stack of its own whose DynamoDB Local keeps a data folder, with DynamoDB Local stopped
 * for 10 s and started again on the same folder, the S3 emulator stopped for 10 s and the webhook receivers
 * answering 503 for 30 s. It checks the invariants, not the throughput: no 500, 503s only in an outage and
 * with Retry-After, every 201 readable, histories, seats, one LabOrderRequested per confirmed draw, the outbox
 * empty, every event delivered to each webhook exactly once (infra/load/README.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runLoad } from '../../infra/load/run';

const dataDir = mkdtempSync(join(tmpdir(), 'load-e2e-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('holds every invariant through 30 s of load with DynamoDB Local, the S3 emulator and the webhook receivers taken away', { timeout: 240_000 }, async () => {
  const result = await runLoad({ durationMs: 30_000, rate: 10, partners: 3, faults: true, dataDir });

  expect(result.invariants).toEqual({ answers: [], readable: [], histories: [], table: [], webhooks: [] });
  expect(result.outages.map((outage) => outage.part).sort()).toEqual(['DynamoDB Local', 'S3 emulator', 'webhook receivers']);
  // The faults were met, and survived: 503s during the outages, refused webhooks delivered again afterwards.
  expect(result.duringOutage.unavailable).toBeGreaterThan(0);
  expect(result.duringOutage.maxMs).toBeLessThanOrEqual(5_000);
  expect(result.counts.webhookEventsRedelivered).toBeGreaterThan(0);
  // The data written before DynamoDB Local stopped was there after it started again: appointments, seats and draws were checked.
  expect(result.counts.appointments).toBeGreaterThan(10);
  expect(result.counts.confirmedDraws).toBeGreaterThan(0);
  expect(result.counts.labOrdersRequested).toBe(result.counts.confirmedDraws);
  expect(result.generator.dropped).toBe(0);
  expect(result.ok).toBe(true);
});
