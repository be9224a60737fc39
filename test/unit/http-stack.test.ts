/**
 * The key stage of the Middy stack (shared/http/stack.ts) follows the routes table: a route with scopes
 * cannot be built without it, and a public route cannot be built with it (its bundle would carry the key
 * lookup and the DynamoDB client for nothing). Loaded with a dummy configuration: nothing here reaches AWS.
 */
import { describe, expect, it, vi } from 'vitest';

vi.stubEnv('TABLE_NAME', 'unit-test-table');
vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'SILENT');
vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');

const { composeHttpHandler } = await import('../../shared/http/stack');
const { getProfile } = await import('../../shared/routes/profiles');
const { health } = await import('../../shared/routes/service');
const { ok } = await import('../../shared/http/responses');

const run = async () => ok({ status: 'ok' });
const aKeyCheck = { before: () => undefined };

describe('the stack of a route', () => {
  it('with scopes is refused without a key stage', () => {
    expect(() => composeHttpHandler({ route: getProfile, run: run as never }, [])).toThrow('Route getProfile needs a key: use httpHandler');
  });

  it('without scopes is refused with a key stage', () => {
    expect(() => composeHttpHandler({ route: health, run }, [aKeyCheck])).toThrow('Route health needs no key: use publicHttpHandler');
  });

  it('without scopes and without a key stage answers', async () => {
    const handler = composeHttpHandler({ route: health, run }, []);
    const event = { httpMethod: 'GET', path: '/health', headers: {}, requestContext: { requestId: 'unit' } };
    const answer = await handler(event as never, { awsRequestId: 'unit' } as never);
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
  });
});

describe('a run that outlasts its invocation', () => {
  it('answers 503 with Retry-After, not 500, once the invocation has nearly no time left', async () => {
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      return ok({ status: 'late' });
    };
    const handler = composeHttpHandler({ route: health, run: slow }, []);
    const event = { httpMethod: 'GET', path: '/health', headers: {}, requestContext: { requestId: 'unit' } };
    const answer = await handler(event as never, { awsRequestId: 'unit', getRemainingTimeInMillis: () => 50 } as never);
    expect(answer.statusCode).toBe(503);
    expect(answer.headers?.['Retry-After'] ?? answer.headers?.['retry-after']).toBeDefined();
    expect(JSON.parse(answer.body)).toEqual({ error: 'The request ran out of time; retry it in a moment' });
  });
});

describe('the headers a route reads', () => {
  const echoBaseUrl = async ({ baseUrl }: { baseUrl: string }) => ok({ status: baseUrl }) as never;
  const request = (headers: Record<string, string>) =>
    ({ httpMethod: 'GET', path: '/health', headers, multiValueHeaders: {}, requestContext: { requestId: 'unit', path: '/v1/health' } }) as never;

  it('are found by their lower-case names whatever case the client wrote them in', async () => {
    const handler = composeHttpHandler({ route: health, run: echoBaseUrl }, []);
    const answer = await handler(request({ HOST: 'api.example.org', 'X-Forwarded-Proto': 'https' }), { awsRequestId: 'unit' } as never);
    expect(JSON.parse(answer.body)).toEqual({ status: 'https://api.example.org/v1' });
  });

  it('hold a header named __proto__ as a header, not as their prototype', async () => {
    const handler = composeHttpHandler({ route: health, run: echoBaseUrl }, []);
    const headers = JSON.parse('{"__proto__": {"host": "evil.example.org"}}') as Record<string, string>;
    const answer = await handler(request(headers), { awsRequestId: 'unit' } as never);
    expect(JSON.parse(answer.body)).toEqual({ status: '/v1' });
  });
});
