/**
 * CORS in the stack (docs/deploy.md "CORS"), both states: without `corsAllowOrigins` no OPTIONS method and no CORS
 * header anywhere; with it a preflight on every path, CORS headers on the gateway's own answers and
 * CORS_ALLOW_ORIGINS on every route function. The local server, started with the same list, answers as the
 * template says API Gateway will (the templates' origin checks read here as API Gateway runs them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../infra/local/server';
import { readSettings } from '../../infra/settings';
import { routeEntries } from '../../shared/routes';
import { ApiFunction } from '../../infra/api-function';
import { labApiStack, str, Synthesized, testApp } from './synth';

const APP = 'https://app.example';
const ADMIN = 'https://admin.example';
const STRANGER = 'https://evil.example';
const ORIGINS = `${APP},${ADMIN}`;

interface MockIntegration {
  Type: string;
  IntegrationResponses: { StatusCode: string; ResponseParameters?: Record<string, string>; ResponseTemplates: Record<string, string> }[];
}

let off: Synthesized;
let on: Synthesized;
let server: LocalApi;

beforeAll(async () => {
  off = new Synthesized(labApiStack(testApp(), 'prod'));
  on = new Synthesized(labApiStack(testApp({ corsAllowOrigins: ORIGINS }), 'dev'));
  server = await startLocalApi(0, { corsAllowOrigins: ORIGINS });
});

afterAll(async () => {
  await server?.close();
});

const routePaths = [...new Set(routeEntries.map(([, route]) => route.path))];
const methodsOf = (path: string): string[] => routeEntries.filter(([, route]) => route.path === path).map(([, route]) => route.method);
const concrete = (path: string) => path.replace(/\{\w+\}/g, 'x1');
const unquote = (value: string) => value.replace(/^'(.*)'$/, '$1');

/** The mock ANY method of a path: its integration response and the template of it. */
function anyMock(stack: Synthesized, path: string) {
  const found = stack.apiMethods().find((m) => m.method === 'ANY' && m.path === path);
  expect(found, path).toBeDefined();
  const [response] = (found!.properties.Integration as MockIntegration).IntegrationResponses;
  return { properties: found!.properties, response: response!, template: response!.ResponseTemplates['application/json']! };
}

/**
 * What the mock ANY method of a path answers to `method` from `origin`, read from its template as API Gateway
 * runs it: the OPTIONS branch or the other, its status override, and the headers it sets when it lists the
 * origin, beside the fixed ones.
 */
function mockAnswer(stack: Synthesized, path: string, method: string, origin: string): { status: number; headers: Record<string, string> } {
  const { response, template } = anyMock(stack, path);
  const [optionsBranch = '', otherBranch = template] = template.includes('#if($context.httpMethod == "OPTIONS")')
    ? template.split('#if($context.httpMethod == "OPTIONS")')[1]!.split('\n#else\n')
    : [];
  const branch = method === 'OPTIONS' && optionsBranch ? optionsBranch : otherBranch;
  const listed = [...(/^#if\((\$origin == .*)\)$/m.exec(branch)?.[1] ?? '').matchAll(/\$origin == "([^"]+)"/g)].map((match) => match[1]);
  const set = listed.includes(origin)
    ? [...branch.matchAll(/^#set\(\$context\.responseOverride\.header\.([\w-]+) = "(.*)"\)$/gm)].map(([, name, value]) => [
        name!,
        value!.replaceAll('$origin', origin),
      ])
    : [];
  const fixed = Object.entries(response.ResponseParameters ?? {}).map(([name, value]) => [name.replace('method.response.header.', ''), unquote(value)]);
  const status = /#set\(\$context\.responseOverride\.status = (\d+)\)/.exec(branch)?.[1] ?? response.StatusCode;
  return { status: Number(status), headers: Object.fromEntries([...fixed, ...set].map(([name, value]) => [name!.toLowerCase(), value!])) };
}

/** The status and CORS-related headers (Access-Control-*, Vary, Allow) of a local answer, by lower-case name. */
async function localAnswer(method: string, path: string, origin: string): Promise<{ status: number; headers: Record<string, string> }> {
  const response = await fetch(`${server.url}${path}`, { method, headers: { Origin: origin } });
  await response.arrayBuffer();
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary' || name === 'allow'));
  return { status: response.status, headers };
}

describe('the LabApi stack without corsAllowOrigins', () => {
  it('answers OPTIONS 405 like any method a path lacks: no OPTIONS method, no preflight in the mock', () => {
    expect(off.apiMethods().filter((m) => m.method === 'OPTIONS')).toEqual([]);
    expect(mockAnswer(off, '/api/v1/locations', 'OPTIONS', APP)).toEqual({ status: 405, headers: { allow: 'GET' } });
  });

  it('sets no CORS header and gives no function CORS_ALLOW_ORIGINS', () => {
    const template = str(off.template.toJSON());
    expect(template).not.toContain('Access-Control-');
    expect(template).not.toContain('CORS_ALLOW_ORIGINS');
  });
});

describe('the LabApi stack with corsAllowOrigins', () => {
  it("answers the preflight of every path from its mock ANY method (no OPTIONS method: 32 would pass CloudFormation's 500 resources)", () => {
    expect(on.apiMethods().filter((m) => m.method === 'OPTIONS')).toEqual([]);
    for (const path of routePaths) {
      const { properties } = anyMock(on, path);
      expect(properties.AuthorizationType, path).toBe('NONE');
      expect(properties.RequestParameters, path).toBeUndefined();
      expect(mockAnswer(on, path, 'OPTIONS', APP).status, path).toBe(204);
      expect(
        (properties.MethodResponses as { StatusCode: string }[]).map((r) => r.StatusCode),
        path,
      ).toEqual(['405', '204']);
    }
  });

  it("names a listed origin in the preflight with the path's own methods, and an origin not listed nowhere", () => {
    expect(mockAnswer(on, '/api/v1/profiles/{id}', 'OPTIONS', ADMIN).headers).toEqual({
      'access-control-allow-origin': ADMIN,
      'access-control-allow-methods': 'GET, PATCH',
      'access-control-allow-headers': 'content-type, x-api-key, idempotency-key',
      'access-control-max-age': '7200',
      allow: 'GET, PATCH',
      vary: 'Origin',
    });
    expect(mockAnswer(on, '/api/v1/profiles/{id}', 'OPTIONS', STRANGER).headers).toEqual({ allow: 'GET, PATCH', vary: 'Origin' });
  });

  it('names a listed origin on the 405 of every path and exposes its Allow header; an origin not listed gets none', () => {
    for (const path of routePaths) {
      const allow = methodsOf(path).join(', ');
      expect(mockAnswer(on, path, 'DELETE', APP), path).toEqual({
        status: 405,
        headers: {
          'access-control-allow-origin': APP,
          'access-control-expose-headers': 'X-Next-Cursor, Idempotent-Replayed, Location, Content-Disposition, Allow, Retry-After, RateLimit-Policy, RateLimit',
          allow,
          vary: 'Origin',
        },
      });
      expect(mockAnswer(on, path, 'DELETE', STRANGER), path).toEqual({ status: 405, headers: { allow, vary: 'Origin' } });
    }
  });

  it('passes the list to every route function as CORS_ALLOW_ORIGINS, and to no other function', () => {
    for (const { construct, fn } of on.functions) {
      const variables = (on.resources[fn]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.CORS_ALLOW_ORIGINS, construct.node.path).toBe(construct instanceof ApiFunction ? ORIGINS : undefined);
    }
  });

  it('puts fixed CORS headers naming the first listed origin on every gateway response', () => {
    const responses = on.ofType('AWS::ApiGateway::GatewayResponse');
    expect(responses.map(([, r]) => r.Properties.ResponseType).sort()).toEqual([
      'ACCESS_DENIED',
      'AUTHORIZER_CONFIGURATION_ERROR',
      'AUTHORIZER_FAILURE',
      'BAD_REQUEST_PARAMETERS',
      'DEFAULT_4XX',
      'DEFAULT_5XX',
      'INVALID_API_KEY',
      'MISSING_AUTHENTICATION_TOKEN',
      'QUOTA_EXCEEDED',
      'THROTTLED',
      'UNAUTHORIZED',
    ]);
    for (const [, response] of responses) {
      expect(response.Properties.ResponseParameters, String(response.Properties.ResponseType)).toMatchObject({
        'gatewayresponse.header.Access-Control-Allow-Origin': `'${APP}'`,
        'gatewayresponse.header.Access-Control-Expose-Headers':
          "'X-Next-Cursor, Idempotent-Replayed, Location, Content-Disposition, Allow, Retry-After, RateLimit-Policy, RateLimit'",
        'gatewayresponse.header.Vary': "'Origin'",
      });
    }
  });

  it('refuses a value that is not a list of exact origins, naming the context key', () => {
    for (const value of ['*', 'https://app.example/', 'app.example']) {
      expect(() => readSettings(testApp({ corsAllowOrigins: value }), 'dev'), value).toThrow(/^Context corsAllowOrigins: ".*" is not an origin/);
    }
  });

  it('takes the list from cdk.json as an array too', () => {
    expect(readSettings(testApp({ corsAllowOrigins: [APP, ADMIN] }), 'dev').corsAllowOrigins).toEqual([APP, ADMIN]);
  });
});

describe('the local server with CORS_ALLOW_ORIGINS and the stack with the same corsAllowOrigins', () => {
  it('answer a preflight alike on every path, for a listed origin and for one that is not', async () => {
    expect(await localAnswer('OPTIONS', '/api/v1/locations', APP)).toMatchObject({ status: 204, headers: { 'access-control-allow-origin': APP } });
    for (const path of routePaths) {
      for (const origin of [APP, ADMIN, STRANGER]) {
        expect(await localAnswer('OPTIONS', concrete(path), origin), `${path} ${origin}`).toEqual(mockAnswer(on, path, 'OPTIONS', origin));
      }
    }
  });

  it('answer a known path with a method it lacks alike', async () => {
    expect(await localAnswer('DELETE', '/api/v1/locations', ADMIN)).toMatchObject({ status: 405, headers: { 'access-control-allow-origin': ADMIN } });
    for (const path of routePaths) {
      const method = ['PUT', 'DELETE', 'POST', 'GET'].find((candidate) => !methodsOf(path).includes(candidate))!;
      for (const origin of [ADMIN, STRANGER]) {
        expect(await localAnswer(method, concrete(path), origin), `${method} ${path} ${origin}`).toEqual(mockAnswer(on, path, method, origin));
      }
    }
  });

  it("answer an unknown path and a missing key with the gateway responses' fixed headers, whatever the Origin", async () => {
    const fixed = (type: string) => {
      const [, response] = on.ofType('AWS::ApiGateway::GatewayResponse').find(([, r]) => r.Properties.ResponseType === type)!;
      const parameters = response.Properties.ResponseParameters as Record<string, string>;
      const headers = Object.fromEntries(
        Object.entries(parameters).map(([name, value]) => [name.replace('gatewayresponse.header.', '').toLowerCase(), unquote(value)]),
      );
      return { status: Number(response.Properties.StatusCode), headers };
    };
    const [, keyed] = routeEntries.find(([, route]) => route.scopes.length > 0)!;
    for (const origin of [ADMIN, STRANGER]) {
      expect(await localAnswer('GET', '/api/v1/nothing-here', origin), origin).toEqual(fixed('MISSING_AUTHENTICATION_TOKEN'));
      expect(await localAnswer(keyed.method, concrete(keyed.path), origin), origin).toEqual(fixed('BAD_REQUEST_PARAMETERS'));
    }
  });
});
