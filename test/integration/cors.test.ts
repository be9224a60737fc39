/**
 * CORS switched on (docs/deploy.md "CORS"): the local server started with CORS_ALLOW_ORIGINS, as `npm start` runs
 * with it. The variable is set before anything imports shared/config.ts (read once, at import), hence
 * vi.hoisted; cors-off.test.ts runs the same requests without it.
 *
 * Preflights are sent with fetch directly: an OPTIONS answer is the gateway's, no operation of
 * docs/openapi.json, so the contract check (test/support/api.ts) has nothing to hold it to.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useApi } from '../support/api';
import { slotIn } from '../support/slots';
import { apiKey, BERLIN_MITTE, seedDemoData } from '../support/fixtures';

const APP = 'https://app.example';
const ADMIN = 'https://admin.example';
const STRANGER = 'https://evil.example';

vi.hoisted(() => {
  process.env.CORS_ALLOW_ORIGINS = 'https://app.example, https://admin.example';
});

const api = useApi();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

afterAll(() => {
  delete process.env.CORS_ALLOW_ORIGINS;
});

/** The Access-Control-* headers of an answer, by lower-case name. */
const corsHeadersOf = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => name.startsWith('access-control-')));

const exposed = (headers: Headers) => (headers.get('access-control-expose-headers') ?? '').split(',').map((name) => name.trim().toLowerCase());

function preflight(path: string, origin: string, method = 'GET') {
  return fetch(`${api.url()}${path}`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type,x-api-key' },
  });
}

const profile = { profile_group_slug: 'demo-clinic', first_name: 'Cora', last_name: 'Origin', date_of_birth: '1984-08-12' };

describe('the CORS preflight (OPTIONS)', () => {
  it('answers 204 with the allowed origin, the methods of the path, the request headers and a max age', async () => {
    const res = await preflight('/api/v1/profiles/x1', APP, 'PATCH');
    expect(res.status).toBe(204);
    expect(corsHeadersOf(res.headers)).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET, PATCH',
      'access-control-allow-headers': 'content-type, x-api-key, idempotency-key',
      'access-control-max-age': '7200',
    });
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('names each allowed origin itself: the second of the list gets its own', async () => {
    const res = await preflight('/api/v1/locations', ADMIN);
    expect(res.headers.get('access-control-allow-origin')).toBe(ADMIN);
  });

  it("lists a literal path's own methods, not those of the {param} path beside it", async () => {
    const res = await preflight('/api/v1/appointments/pickup', APP, 'POST');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
  });

  it('answers an origin that is not listed without any CORS header', async () => {
    const res = await preflight('/api/v1/locations', STRANGER);
    expect(res.status).toBe(204);
    expect(corsHeadersOf(res.headers)).toEqual({});
  });

  it("answers the preflight of an unknown path 404, with the gateway's fixed CORS headers", async () => {
    const res = await preflight('/api/v1/nothing-here', ADMIN);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found' });
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
  });
});

describe('CORS headers on the answers', () => {
  it('names the allowed origin on a success and exposes the headers a browser client reads', async () => {
    const res = await api.request('GET', '/api/v1/locations', { key, headers: { Origin: ADMIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ADMIN);
    expect(res.headers.get('vary')).toContain('Origin');
    expect(exposed(res.headers)).toEqual(expect.arrayContaining(['x-next-cursor', 'location', 'content-disposition']));
  });

  it('lets a browser read X-Next-Cursor on a page of a list', async () => {
    const created = await api.request('POST', '/api/v1/profiles', { key, body: profile });
    for (const days of [3, 4]) {
      const booked = await api.post('/api/v1/appointments', { profile_id: created.body.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(days) }, key);
      expect(booked.status).toBe(201);
    }
    const page = await api.request('GET', `/api/v1/profiles/${created.body.id}/appointments?limit=1`, { key, headers: { Origin: APP } });
    expect(page.headers.get('x-next-cursor')).toBeTruthy();
    expect(page.headers.get('access-control-allow-origin')).toBe(APP);
    expect(exposed(page.headers)).toContain('x-next-cursor');
  });

  it("names the allowed origin on a function's error", async () => {
    const res = await api.request('GET', '/api/v1/locations/not-a-uuid', { key, headers: { Origin: APP } });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('names the allowed origin on the 401 of a key that was never issued', async () => {
    const res = await api.request('GET', '/api/v1/locations', { key: 'lab_not-a-real-key', headers: { Origin: APP } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('names the allowed origin on a replayed create (Idempotency-Key), which no later middleware sees', async () => {
    const headers = { Origin: APP, 'Idempotency-Key': randomUUID() };
    const first = await api.request('POST', '/api/v1/profiles', { key, body: profile, headers });
    const replay = await api.request('POST', '/api/v1/profiles', { key, body: profile, headers: { ...headers, Origin: ADMIN } });
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.headers.get('access-control-allow-origin')).toBe(ADMIN);
    expect(exposed(replay.headers)).toContain('idempotent-replayed');
  });

  it('names the allowed origin on the 405 of a known path and exposes its Allow header', async () => {
    const res = await api.request('DELETE', '/api/v1/locations', { headers: { Origin: ADMIN } });
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBe(ADMIN);
    expect(exposed(res.headers)).toContain('allow');
  });

  it('names a listed origin only: an origin not listed, or a request without one (not a browser), gets no CORS header', async () => {
    const listed = await api.request('GET', '/api/v1/locations', { key, headers: { Origin: APP } });
    const stranger = await api.request('GET', '/api/v1/locations', { key, headers: { Origin: STRANGER } });
    const noOrigin = await api.get('/api/v1/locations', key);
    expect([listed.status, stranger.status, noOrigin.status]).toEqual([200, 200, 200]);
    expect(listed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(corsHeadersOf(stranger.headers)).toEqual({});
    expect(corsHeadersOf(noOrigin.headers)).toEqual({});
  });

  it('marks an answer without CORS headers Vary: Origin too, so that no cache serves it to a listed origin', async () => {
    const res = await api.request('GET', '/api/v1/openapi.json', { headers: { Origin: STRANGER } });
    expect(res.headers.get('cache-control')).toContain('public');
    expect(res.headers.get('vary')).toContain('Origin');
  });
});

describe("CORS headers on the gateway's own answers (fixed: the first listed origin)", () => {
  it('names the first listed origin on the 401 of a request without a key', async () => {
    const res = await api.request('GET', '/api/v1/locations', { headers: { Origin: APP } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('names the first listed origin on an unknown path, never the origin of the request', async () => {
    const res = await api.request('GET', '/api/v1/nothing-here', { headers: { Origin: STRANGER } });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
  });
});
