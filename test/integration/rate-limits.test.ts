/**
 * Per-key limits at the gateway (issue #31): a key created with its own limits gets 429s with Retry-After
 * and the RateLimit headers under a burst, while another key is unaffected; a refused request runs no
 * function and changes nothing. This file starts its own local API with the gate on (as `npm start` runs
 * it); the shared test server runs without it, so other files' request counts and faults stay their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../infra/local/server';
import { issueApiKey } from '../../shared/auth/api-keys';
import { SCOPES } from '../../shared/domain/scopes';
import type { KeyLimits } from '../../shared/domain/rate-limits';
import { assertDocumented } from '../support/contract';
import { seedDemoData } from '../support/fixtures';

let server: LocalApi;
let unlimited: LocalApi;
const STAGE_DEFAULT: KeyLimits = { rate_limit: 1000, burst: 1000, daily_quota: null };

beforeAll(async () => {
  await seedDemoData();
  server = await startLocalApi(0, { keyLimits: { stageDefault: STAGE_DEFAULT } });
  unlimited = await startLocalApi(0, { keyLimits: { stageDefault: null } });
});
afterAll(() => Promise.all([server.close(), unlimited.close()]));

/**
 * A new key with these limits, its lookup already cached by the gate (one request to a gate without
 * limits): a burst is then counted within milliseconds, not spread over its DynamoDB lookups.
 */
async function keyWith(limits: KeyLimits | null): Promise<string> {
  const { plaintext } = await issueApiKey(
    { name: 'limited', scopes: [...SCOPES], profileGroups: ['demo-clinic'], locationGroups: ['berlin'], limits },
    new Date(),
  );
  expect((await fetch(`${unlimited.url}/api/v1/locations`, { headers: { 'x-api-key': plaintext } })).status).toBe(200);
  return plaintext;
}

async function get(key: string, path = '/api/v1/locations') {
  const res = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as unknown;
  assertDocumented('GET', path, { status: res.status, headers: res.headers, body });
  return { status: res.status, headers: res.headers, body };
}
const burst = (key: string, n: number) => Promise.all(Array.from({ length: n }, () => get(key)));

describe('a key with its own limits (--rate-limit 2)', () => {
  it('gets 429 beyond its burst while a key on the stage default gets only 200s', async () => {
    const [limited, other] = [await keyWith({ rate_limit: 2, burst: 2, daily_quota: null }), await keyWith(null)];
    const [limitedAnswers, otherAnswers] = await Promise.all([burst(limited, 8), burst(other, 8)]);
    expect(limitedAnswers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(4);
    expect(otherAnswers.map((a) => a.status)).toEqual(Array(8).fill(200));
  });

  it('says in the 429 when to retry, which limits apply and what is left', async () => {
    const limited = await keyWith({ rate_limit: 2, burst: 2, daily_quota: 1000 });
    const refused = (await burst(limited, 4)).find((a) => a.status === 429)!;
    expect(refused.body).toEqual({ error: 'Too many requests for this API key: at most 2 per second (burst 2); retry after 1 s' });
    expect([refused.headers.get('retry-after'), refused.headers.get('ratelimit-policy'), refused.headers.get('ratelimit')]).toEqual([
      '1',
      '"burst";q=2;w=1, "daily";q=1000;w=86400',
      expect.stringMatching(/^"burst";r=0;t=[12], "daily";r=99[0-8];t=\d+$/),
    ]);
  });

  it('runs no function for a refused request: a refused POST creates nothing', async () => {
    const limited = await keyWith({ rate_limit: 1, burst: 1, daily_quota: null });
    const create = () =>
      fetch(`${server.url}/api/v1/profiles`, {
        method: 'POST',
        headers: { 'x-api-key': limited, 'content-type': 'application/json' },
        body: JSON.stringify({ profile_group_slug: 'demo-clinic', first_name: 'Rate', last_name: 'Limited', date_of_birth: '1990-01-01' }),
      });
    const statuses = (await Promise.all([create(), create(), create()])).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 429, 429]);
  });

  it('is answered again once its bucket refills', async () => {
    const limited = await keyWith({ rate_limit: 2, burst: 1, daily_quota: null });
    await burst(limited, 2);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await get(limited)).status).toBe(200);
  });

  it('gets 429 until 00:00 UTC once its daily quota is used', async () => {
    const limited = await keyWith({ rate_limit: 100, burst: 100, daily_quota: 2 });
    await get(limited);
    await get(limited);
    const refused = await get(limited);
    expect([refused.status, (refused.body as { error: string }).error]).toEqual([
      429,
      expect.stringMatching(/^This API key used its daily quota of 2 requests; it renews at 00:00 UTC, in \d+ s$/),
    ]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the stage default', () => {
  it('limits a key without limits of its own', async () => {
    const tight = await startLocalApi(0, { keyLimits: { stageDefault: { rate_limit: 1, burst: 1, daily_quota: null } } });
    try {
      const key = await keyWith(null);
      const statuses = await Promise.all([1, 2, 3].map(() => fetch(`${tight.url}/api/v1/locations`, { headers: { 'x-api-key': key } }).then((r) => r.status)));
      expect(statuses.sort()).toEqual([200, 429, 429]);
    } finally {
      await tight.close();
    }
  });

  it("answers a bad key 401 at the gate with the route's own message, as the authorizer does", async () => {
    const answer = await get('lab_not-a-key');
    expect([answer.status, answer.body]).toEqual([401, { error: 'Invalid or revoked API key' }]);
  });
});
