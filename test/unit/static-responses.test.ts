import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, requestBaseUrl } from '../../shared/http/static-responses';

const event = (path: string, requested: string, headers: Record<string, string>) =>
  ({ path, headers, requestContext: { path: requested } }) as unknown as APIGatewayProxyEvent;

describe('requestBaseUrl', () => {
  it('keeps the stage API Gateway prefixed to the route path', () => {
    const url = requestBaseUrl(
      event('/api/v1/openapi.json', '/prod/api/v1/openapi.json', { host: 'abc.execute-api.eu-central-1.amazonaws.com', 'x-forwarded-proto': 'https' }),
    );
    expect(url).toBe('https://abc.execute-api.eu-central-1.amazonaws.com/prod');
  });

  it('answers http://host:port for the local server, which has no stage', () => {
    expect(requestBaseUrl(event('/api/v1/openapi.json', '/api/v1/openapi.json', { host: '127.0.0.1:3000' }))).toBe('http://127.0.0.1:3000');
  });

  it('answers a relative URL instead of reflecting a Host that is not a host name', () => {
    expect(requestBaseUrl(event('/api/v1/openapi.json', '/prod/api/v1/openapi.json', { host: 'evil"><script>' }))).toBe('/prod');
  });
});

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1, gzip;q=0.5', true],
    ['*', true],
    ['gzip;q=0', false],
    ['*;q=1, gzip;q=0', false],
    ['identity', false],
    [undefined, false],
  ])('reads Accept-Encoding %s as gzip allowed: %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
