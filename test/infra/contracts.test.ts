/**
 * What infra/ assumes about the code it deploys, checked against that code: names of routes, the
 * bucket's prefixes, the 401 message, the relay's log line the outbox metric counts. If one side changes,
 * these fail instead of a deployed alarm or permission silently missing its target.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DOCUMENTS_PREFIX, INCOMING_PREFIX } from '../../infra/bucket-layout';
import { MISSING_KEY_MESSAGE } from '../../infra/lab-api-stack';
import { OUTBOX_RELAYED_LOG } from '../../infra/monitoring';
import {
  DOCUMENT_READERS,
  FUNCTION_SIZES,
  LINK_REQUEST_COUNTERS,
  PACKAGE_FILES,
  REPORT_RENDERERS,
  STATIC_ROUTES,
  WEBHOOK_SENDERS,
} from '../../infra/route-classes';
import { ATTEMPT_LEASE_MS, ATTEMPT_TIMEOUT_MS } from '../../shared/domain/webhook';
import { routes } from '../../shared/routes';

vi.mock('../../shared/usecases/publish-events', () => ({ relayOutbox: async () => 3 }));
// No table here: the run holds its lease (test/integration/leases.test.ts proves the lease itself).
vi.mock('../../shared/store/leases', () => ({ whileHolding: (_name: string, _holder: string, _ms: number, work: () => unknown) => work() }));

beforeAll(() => {
  // What shared/config.ts needs to load; nothing here talks to AWS.
  process.env.TABLE_NAME ??= 'infra-contract-test';
  process.env.DOCUMENTS_BUCKET ??= 'infra-contract-test';
  process.env.EVENT_BUS_NAME ??= 'infra-contract-test';
});

describe('per-route lists of infra/', () => {
  it('name only routes of the routes table', () => {
    for (const list of [DOCUMENT_READERS, STATIC_ROUTES, WEBHOOK_SENDERS, REPORT_RENDERERS, LINK_REQUEST_COUNTERS, Object.keys(PACKAGE_FILES)]) {
      expect(list.filter((name) => !(name in routes))).toEqual([]);
      expect(list.length).toBeGreaterThan(0);
    }
  });
});

describe('what the stack assumes about the code', () => {
  it('grants S3 rights on the prefixes shared/documents and the report schema use', async () => {
    const s3 = await import('../../shared/documents/s3');
    expect(INCOMING_PREFIX).toBe(s3.INCOMING_PREFIX);
    const { ReportedDocument } = await import('../../shared/events/lab-results-reported');
    const { safeParse } = await import('valibot');
    const document = { file_name: 'r.pdf', content_type: 'application/pdf' };
    expect(safeParse(ReportedDocument, { ...document, s3_key: `${INCOMING_PREFIX}r.pdf` }).success).toBe(true);
    expect(safeParse(ReportedDocument, { ...document, s3_key: `${DOCUMENTS_PREFIX}r.pdf` }).success).toBe(false);
  });

  it('copies beside the docs asset function every swagger-ui-dist file it serves', async () => {
    const { SWAGGER_UI_FILES } = await import('../../functions/docs/asset');
    expect(PACKAGE_FILES.getDocsAsset?.['swagger-ui-dist']).toEqual(expect.arrayContaining([...SWAGGER_UI_FILES, 'package.json']));
  });

  it('answers a missing key at the gateway with the message the functions use', async () => {
    const { authenticate } = await import('../../shared/auth/api-keys');
    await expect(authenticate(undefined)).rejects.toThrow(MISSING_KEY_MESSAGE);
  });

  it('counts relayed outbox events from the log line the relay writes', async () => {
    const { logger } = await import('../../shared/logger');
    const info = vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    const { handler } = await import('../../functions/events/relay-outbox');
    await handler();
    expect(info).toHaveBeenCalledWith(OUTBOX_RELAYED_LOG.message, { [OUTBOX_RELAYED_LOG.field]: 3 });
  });

  it("gives the webhook senders and the dispatcher time for a whole attempt, within API Gateway's 29 s for the senders", () => {
    for (const cls of ['webhook-sender', 'webhook-dispatch'] as const) {
      expect(FUNCTION_SIZES[cls].timeout.toMilliseconds(), cls).toBeGreaterThanOrEqual(2 * ATTEMPT_TIMEOUT_MS);
    }
    expect(FUNCTION_SIZES['webhook-sender'].timeout.toSeconds()).toBeLessThan(29);
  });

  it('gives the webhook retry sweep time for a batch of attempts before its loop stops, and ends each run within its minute', () => {
    // The loop starts a batch only while more than ATTEMPT_LEASE_MS remain; a batch takes up to an attempt's timeout.
    const timeout = FUNCTION_SIZES['webhook-retries'].timeout.toMilliseconds();
    expect(timeout).toBeGreaterThanOrEqual(ATTEMPT_LEASE_MS + ATTEMPT_TIMEOUT_MS);
    expect(timeout).toBeLessThan(60_000);
  });
});
