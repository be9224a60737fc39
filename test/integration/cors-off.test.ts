/**
 * CORS switched off, the default (docs/deploy.md "CORS"): without CORS_ALLOW_ORIGINS there is no preflight and no
 * CORS header anywhere, as in a stack deployed without `corsAllowOrigins`. cors.test.ts switches it on.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useApi } from '../support/api';
import { apiKey, seedDemoData } from '../support/fixtures';

const APP = 'https://app.example';

vi.hoisted(() => {
  delete process.env.CORS_ALLOW_ORIGINS;
});

const api = useApi();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const corsHeadersOf = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => name.startsWith('access-control-')));

describe('without CORS_ALLOW_ORIGINS', () => {
  it('answers OPTIONS as any other method a path lacks: 405 with Allow, no CORS header', async () => {
    const res = await api.request('OPTIONS', '/api/v1/locations', { headers: { Origin: APP, 'Access-Control-Request-Method': 'GET' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(corsHeadersOf(res.headers)).toEqual({});
  });

  it("puts no CORS header on a function's answer to a request with an Origin", async () => {
    const res = await api.request('GET', '/api/v1/locations', { key, headers: { Origin: APP } });
    expect(res.status).toBe(200);
    expect(corsHeadersOf(res.headers)).toEqual({});
  });

  it("puts no CORS header on the gateway's own answers", async () => {
    const missingKey = await api.request('GET', '/api/v1/locations', { headers: { Origin: APP } });
    const unknownPath = await api.request('GET', '/api/v1/nothing-here', { headers: { Origin: APP } });
    expect([missingKey.status, unknownPath.status]).toEqual([401, 404]);
    expect([corsHeadersOf(missingKey.headers), corsHeadersOf(unknownPath.headers)]).toEqual([{}, {}]);
  });
});
