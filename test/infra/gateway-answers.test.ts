/**
 * What API Gateway answers by itself (unknown path, known path with another method, keyed route without
 * a key), read from the synthesized template, against what the local server answers over real HTTP on
 * loopback: the same status, Allow header and body. None of these requests reaches a handler,
 * so the server runs here without DynamoDB or S3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../infra/local/server';
import { API_KEY_HEADER } from '../../shared/http/gateway-responses';
import { routeEntries } from '../../shared/routes';
import { Synthesized, labApiStack, testApp } from './synth';

interface Answer {
  status: number;
  allow: string | null;
  body: unknown;
}

interface GatewayResponseProperties {
  ResponseType: string;
  StatusCode: string;
  ResponseTemplates: Record<string, string>;
  ResponseParameters?: Record<string, string>;
}

interface MockIntegration {
  Type: string;
  IntegrationResponses: {
    StatusCode: string;
    ResponseParameters?: Record<string, string>;
    ResponseTemplates: Record<string, string>;
  }[];
}

let prod: Synthesized;
let server: LocalApi;

beforeAll(async () => {
  prod = new Synthesized(labApiStack(testApp(), 'prod'));
  server = await startLocalApi(0);
});

afterAll(async () => {
  await server?.close();
});

async function local(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, { method, headers });
  return { status: response.status, allow: response.headers.get('allow'), body: await response.json() };
}

/** A concrete path of a route path: every {param} filled in. */
const concrete = (path: string) => path.replace(/\{\w+\}/g, 'x1');

/** The gateway response of a type, as the answer a client gets (no header of these sets Allow). */
function gatewayResponse(type: string): Answer {
  const found = prod
    .ofType('AWS::ApiGateway::GatewayResponse')
    .map(([, resource]) => resource.Properties as unknown as GatewayResponseProperties)
    .filter((properties) => properties.ResponseType === type);
  expect(found, type).toHaveLength(1);
  const { StatusCode, ResponseTemplates, ResponseParameters } = found[0]!;
  expect(ResponseParameters?.['gatewayresponse.header.Allow'], type).toBeUndefined();
  return { status: Number(StatusCode), allow: null, body: JSON.parse(ResponseTemplates['application/json']!) };
}

/** What the mock ANY method of a path answers to `method`: API Gateway fills in $context.httpMethod. */
function wrongMethodAtGateway(path: string, method: string): Answer {
  const any = prod.apiMethods().find((m) => m.method === 'ANY' && m.path === path);
  expect(any, path).toBeDefined();
  const integration = any!.properties.Integration as MockIntegration;
  expect(integration.Type).toBe('MOCK');
  expect(integration.IntegrationResponses, path).toHaveLength(1);
  const { StatusCode, ResponseParameters, ResponseTemplates } = integration.IntegrationResponses[0]!;
  const allow = ResponseParameters?.['method.response.header.Allow'];
  return {
    status: Number(StatusCode),
    // A static response parameter is a quoted literal: 'GET, PATCH'.
    allow: allow === undefined ? null : allow.replace(/^'(.*)'$/, '$1'),
    body: JSON.parse(ResponseTemplates['application/json']!.replaceAll('$context.httpMethod', method)),
  };
}

const routePaths = [...new Set(routeEntries.map(([, route]) => route.path))];
const keyedRoutes = routeEntries.filter(([, route]) => route.scopes.length > 0);

describe('the local server and API Gateway', () => {
  it('answer an unknown path alike', async () => {
    const gateway = gatewayResponse('MISSING_AUTHENTICATION_TOKEN');
    expect(gateway).toEqual({ status: 404, allow: null, body: { error: 'Not found' } });
    // A path below no route, and /api/v1 itself: a resource of the gateway without a method.
    for (const path of ['/api/v1/nothing-here', '/api/v1', '/']) {
      expect(await local('GET', path), path).toEqual(gateway);
    }
  });

  it('answer a known path with a method it has no route for alike, Allow header included', async () => {
    for (const path of routePaths) {
      const allowed: string[] = routeEntries.filter(([, route]) => route.path === path).map(([, route]) => route.method);
      const method = ['PUT', 'DELETE', 'POST', 'GET'].find((candidate) => !allowed.includes(candidate))!;
      const gateway = wrongMethodAtGateway(path, method);
      expect(gateway, path).toEqual({
        status: 405,
        allow: allowed.join(', '),
        body: { error: `Method ${method} not allowed; allowed: ${allowed.join(', ')}` },
      });
      expect(await local(method, concrete(path)), `${method} ${path}`).toEqual(gateway);
    }
  });

  it('answer a keyed route called without an x-api-key header alike, before any function runs', async () => {
    const gateway = gatewayResponse('BAD_REQUEST_PARAMETERS');
    expect(gateway).toEqual({ status: 401, allow: null, body: { error: 'Missing x-api-key header' } });
    const methods = prod.apiMethods();
    for (const [name, route] of keyedRoutes) {
      // The gateway answers BAD_REQUEST_PARAMETERS because the method requires the header.
      const { properties } = methods.find((m) => m.method === route.method && m.path === route.path)!;
      expect(properties.RequestParameters, name).toEqual({ [`method.request.header.${API_KEY_HEADER}`]: true });
      expect(await local(route.method, concrete(route.path)), name).toEqual(gateway);
    }
  });

  it('answer an empty x-api-key header like a missing one, since the gateway requires it not blank', async () => {
    const [name, route] = keyedRoutes[0]!;
    expect(await local(route.method, concrete(route.path), { [API_KEY_HEADER]: '' }), name).toEqual(gatewayResponse('BAD_REQUEST_PARAMETERS'));
  });

  it('answer a stage over its throttle with 429, the service error shape and Retry-After (API Gateway only: the local server has no stage-wide throttle)', () => {
    expect(gatewayResponse('THROTTLED')).toEqual({
      status: 429,
      allow: null,
      body: { error: 'Too many requests for this API key or for the API as a whole; retry after 1 s' },
    });
    const [, throttled] = prod
      .ofType('AWS::ApiGateway::GatewayResponse')
      .find(([, r]) => (r.Properties as { ResponseType: string }).ResponseType === 'THROTTLED')!;
    expect((throttled.Properties as unknown as GatewayResponseProperties).ResponseParameters?.['gatewayresponse.header.Retry-After']).toBe("'1'");
  });
});
