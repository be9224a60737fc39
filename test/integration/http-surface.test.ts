/**
 * The HTTP surface every route shares: API-key authentication, scope checks, body parsing, unknown
 * routes and methods, and the `{ "error": … }` shape of every failure.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, beforeAll } from 'vitest';
import { issueApiKey } from '../../shared/auth/api-keys';
import { revokeApiKey } from '../../shared/store/api-keys/lifecycle';
import { useApi } from '../support/api';
import { requestAsWritten } from '../support/request-as-written';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';

const api = useApi();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const validProfile = {
  profile_group_slug: 'demo-clinic',
  first_name: 'Test',
  last_name: 'Person',
  date_of_birth: '1980-05-17',
};

describe('authentication', () => {
  it('answers 401 with an error body when the x-api-key header is missing', async () => {
    const res = await api.get('/api/v1/locations');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Missing x-api-key header' });
  });

  it('answers an empty x-api-key header as a missing one', async () => {
    const res = await api.get('/api/v1/locations', '');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Missing x-api-key header' });
  });

  it('answers a wrong method 405 before asking for a key, as API Gateway does', async () => {
    const res = await api.request('DELETE', '/api/v1/locations');
    expect(res.status).toBe(405);
  });

  it('answers 401 for a key that was never issued', async () => {
    const res = await api.get('/api/v1/locations', 'lab_not-a-real-key');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid or revoked API key' });
  });

  it('answers 401 for a revoked key', async () => {
    const issued = await issueApiKey({ name: 'to revoke', scopes: ['LOCATIONS_VIEW'], profileGroups: [], locationGroups: ['berlin'] }, new Date());
    await revokeApiKey(issued.keyId);
    const res = await api.get('/api/v1/locations', issued.plaintext);
    expect(res.status).toBe(401);
  });

  it('checks the key before the body, so a bad body without a key is still 401', async () => {
    const res = await api.request('POST', '/api/v1/profiles', { body: { nonsense: true } });
    expect(res.status).toBe(401);
  });

  it('answers 401, not 400, to malformed JSON without a key', async () => {
    const res = await api.request('POST', '/api/v1/profiles', { rawBody: '{"first_name": ' });
    expect(res.status).toBe(401);
  });

  it('answers 401, not 415, to a non-JSON body without a key', async () => {
    const res = await api.request('POST', '/api/v1/profiles', { rawBody: 'x=1', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(401);
  });

  it('serves GET /health without a key', async () => {
    const res = await api.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('scopes', () => {
  it('answers 403 naming the required scopes when the key holds none of them', async () => {
    const viewer = await apiKey({ scopes: ['RESULTS_VIEW'] });
    const res = await api.post('/api/v1/profiles', validProfile, viewer);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This API key lacks the required scope (one of: CREATE_USER)' });
  });

  it('checks the scope before the body, so an invalid body with the wrong scope is 403', async () => {
    const viewer = await apiKey({ scopes: ['RESULTS_VIEW'] });
    const res = await api.post('/api/v1/profiles', { nonsense: true }, viewer);
    expect(res.status).toBe(403);
  });

  it('accepts either scope where the spec lists two', async () => {
    const impersonator = await apiKey({ scopes: ['IMPERSONATE'] });
    const created = await api.post('/api/v1/profiles', validProfile, key);
    const res = await api.get(`/api/v1/profiles/${created.body.id}`, impersonator);
    expect(res.status).toBe(200);
  });
});

describe('request bodies', () => {
  it.each([
    ['an array', '[]'],
    ['a string', '"profile"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('answers 400 when the body is %s', async (_, rawBody) => {
    const res = await api.request('POST', '/api/v1/profiles', { key, rawBody });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Request body must be a JSON object' });
  });

  it('answers 400 when a body is required and none is sent', async () => {
    const res = await api.request('POST', '/api/v1/profiles', { key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Request body must be a JSON object' });
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await api.request('POST', '/api/v1/profiles', { key, rawBody: '{"first_name": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Request body must be valid JSON' });
  });

  it('answers 415 for a body that is not declared as JSON', async () => {
    const res = await api.request('POST', '/api/v1/profiles', {
      key,
      rawBody: 'first_name=Test',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'Content-Type must be application/json' });
  });

  it('accepts a JSON content type with spaces before its parameters', async () => {
    const res = await api.request('POST', '/api/v1/profiles', {
      key,
      body: validProfile,
      headers: { 'Content-Type': 'application/json ; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  it('accepts a JSON content type with a charset', async () => {
    const res = await api.request('POST', '/api/v1/profiles', {
      key,
      body: validProfile,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('answers 400 saying the property name "%s" is not allowed', async (name) => {
    const res = await api.request('POST', '/api/v1/profiles', {
      key,
      rawBody: `{"profile_group_slug":"demo-clinic","first_name":"A","last_name":"B","date_of_birth":"1980-01-01","${name}":{"admin":true}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `Property name "${name}" is not allowed` });
  });

  it('refuses "__proto__" however deep it is nested and however it is escaped', async () => {
    const res = await api.request('POST', '/api/v1/webhooks', {
      key,
      rawBody: '{"url":"https://example.org/hook","event_types":["ShipmentStatusChanged"],"description":{"a":[{"\\u005f_proto__":{}}]}}',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Property name "__proto__" is not allowed' });
  });

  it('answers 400 to an array longer than 1,000 items before validating its items', async () => {
    const res = await api.post(`/api/v1/appointments/${UNKNOWN_ID}/panels`, { panel_ids: Array(1001).fill('x') }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'panel_ids must list at most 1000 items' });
  });

  it('answers 400 to valid JSON nested deeper than the parser follows', async () => {
    const rawBody = `{"cancellation_reason":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    const res = await api.request('POST', `/api/v1/appointments/${UNKNOWN_ID}/cancel`, { key, rawBody });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Request body is nested too deeply' });
  });

  it('answers 400 to a body that is not UTF-8 instead of storing replacement characters', async () => {
    const latin1 = Buffer.from(JSON.stringify({ ...validProfile, first_name: 'J\u00fcrgen' }), 'latin1');
    const res = await api.request('POST', '/api/v1/profiles', { key, rawBody: latin1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Request body must be UTF-8 encoded text' });
  });

  it('answers 400 to a body that starts with a byte order mark, which JSON senders must not add', async () => {
    const rawBody = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(validProfile), 'utf8')]);
    const res = await api.request('POST', '/api/v1/profiles', { key, rawBody });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Request body must be valid JSON' });
  });

  it('stores a UTF-8 name byte for byte', async () => {
    const res = await api.request('POST', '/api/v1/profiles', { key, rawBody: Buffer.from(JSON.stringify({ ...validProfile, first_name: 'Jürgen' }), 'utf8') });
    expect(res.status).toBe(201);
    expect(res.body.first_name).toBe('Jürgen');
  });

  it('answers 413 to a body over 64 KiB before parsing it', async () => {
    const res = await api.request('POST', '/api/v1/profiles', { key, body: { ...validProfile, last_name: 'x'.repeat(64 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body must be at most 64 KiB' });
  });

  it('takes a body of exactly 64 KiB as far as validation', async () => {
    const bare = JSON.stringify({ ...validProfile, last_name: '' });
    const rawBody = JSON.stringify({ ...validProfile, last_name: 'x'.repeat(64 * 1024 - Buffer.byteLength(bare)) });
    const res = await api.request('POST', '/api/v1/profiles', { key, rawBody });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'last_name must be at most 100 characters' });
  });

  it.each(['application/vnd.api+json', 'application/merge-patch+json', 'application/json; charset=iso-8859-1', 'text/json'])(
    'answers 415 to the content type %s',
    async (contentType) => {
      const res = await api.request('POST', '/api/v1/profiles', { key, body: validProfile, headers: { 'content-type': contentType } });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: 'Content-Type must be application/json' });
    },
  );
});

describe('query parameters', () => {
  it('answers 400 to a query parameter on a route that takes none', async () => {
    const res = await api.get('/api/v1/locations/00000000-0000-4000-8000-000000000000?expand=all', key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'expand is not an allowed query parameter' });
  });

  it('answers 400 to a query parameter on a create', async () => {
    const res = await api.request('POST', '/api/v1/profiles?dry_run=true', { key, body: validProfile });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'dry_run is not an allowed query parameter' });
  });

  it('answers 400 to a query parameter on GET /health', async () => {
    const res = await api.get('/health?verbose=1');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'verbose is not an allowed query parameter' });
  });

  it("answers 400 to an unknown query parameter beside a list's own", async () => {
    const res = await api.get('/api/v1/shipments?limit=5&sort=name', key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'sort is not an allowed query parameter' });
  });
});

describe('routing', () => {
  it('answers 404 with an error body for an unknown path', async () => {
    const res = await api.get('/api/v1/nothing-here', key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });

  it('answers 405 with the allowed methods for a known path and a wrong method', async () => {
    const res = await api.request('DELETE', '/api/v1/locations', { key });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.body).toEqual({ error: 'Method DELETE not allowed; allowed: GET' });
  });

  it('lists every method of a path with several in the 405 answer', async () => {
    const res = await api.request('POST', '/api/v1/shipments/x1', { key });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect(res.body).toEqual({ error: 'Method POST not allowed; allowed: GET, PATCH, DELETE' });
  });

  it('matches the path as sent, resolving no dot segment: /appointments/%2e%2e/panels is not /panels', async () => {
    // Sent as written (a URL string, in fetch or node:http, has its dot segments resolved first).
    const { status } = await requestAsWritten(api.url(), '/api/v1/appointments/%2e%2e/panels', 'GET', new Headers({ 'x-api-key': key }));
    // GET is no method of /appointments/{id}/panels.
    expect(status).toBe(405);
  });

  it('answers 400 for a path parameter that is not percent-encoded correctly', async () => {
    const res = await api.get('/api/v1/profiles/%E0%A4%A', key);
    expect(res.status).toBe(400);
  });

  it('marks every answer as not cacheable, since they carry patient data', async () => {
    const res = await api.get('/api/v1/locations', key);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('API Gateway with binaryMediaTypes */*', () => {
  it('parses a JSON body that arrives base64-encoded, as API Gateway sends it', async () => {
    const { handler } = await import('../../functions/profiles/create');
    const body = Buffer.from(JSON.stringify(validProfile)).toString('base64');
    const event = {
      resource: '/api/v1/profiles',
      path: '/api/v1/profiles',
      httpMethod: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': key },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      stageVariables: null,
      body,
      isBase64Encoded: true,
      requestContext: { requestId: 'test' },
    } as unknown as Parameters<typeof handler>[0];
    const context = { awsRequestId: 'test', functionName: 'createProfile', getRemainingTimeInMillis: () => 10_000 } as unknown as Parameters<typeof handler>[1];
    const result = await handler(event, context);
    expect(result.statusCode).toBe(201);
    expect(JSON.parse(result.body)).toMatchObject({ first_name: 'Test', last_name: 'Person' });
  });
});

describe('connections', () => {
  /** One raw TCP connection: what a client's pooled keep-alive socket is. */
  async function openConnection() {
    const { hostname, port } = new URL(api.url());
    const socket = connect(Number(port), hostname);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let closed = false;
    socket.on('close', () => (closed = true));
    const get = (path: string) =>
      new Promise<string>((resolve, reject) => {
        let text = '';
        const onData = (chunk: Buffer) => {
          text += chunk.toString();
          const end = text.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = text.slice(0, end);
          const body = text.slice(end + 4);
          const length = /content-length: (\d+)/i.exec(head)?.[1];
          // A body of a known length, or chunked until its last (empty) chunk.
          if (length !== undefined ? body.length >= Number(length) : body.endsWith('0\r\n\r\n')) {
            socket.off('data', onData);
            resolve(head);
          }
        };
        socket
          .on('data', onData)
          .once('error', reject)
          .once('close', () => reject(new Error('the server closed the connection')));
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
      });
    return { get, isClosed: () => closed, end: () => socket.destroy() };
  }

  it("keeps an idle connection open past Node's default 5 s, so a request after a pause on a reused connection is answered", { timeout: 20_000 }, async () => {
    const connection = await openConnection();
    const first = await connection.get('/health');
    await sleep(6_000);
    const closedMeanwhile = connection.isClosed();
    const second = closedMeanwhile ? '' : await connection.get('/health');
    connection.end();
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    expect(closedMeanwhile).toBe(false);
    expect(second).toMatch(/^HTTP\/1\.1 200/);
  });

  it('tells clients how long it keeps an idle connection: 65 s, beyond what a pool that honours it waits', async () => {
    const connection = await openConnection();
    const head = await connection.get('/health');
    connection.end();
    expect(head).toMatch(/\r\nkeep-alive: timeout=65\r\n/i);
  });
});
