/**
 * The API key authorizer (issue #31: bad keys stopped at the gateway), run as API Gateway runs it: a
 * REQUEST event with the x-api-key header, against DynamoDB Local. Its policy covers the whole API so
 * that one cached answer serves every route; a denial carries the route's own 401 message.
 */
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/auth/authorizer';
import { issueApiKey } from '../../shared/auth/api-keys';
import { revokeApiKey } from '../../shared/store/api-keys';
import { apiKeyWithId, seedDemoData } from '../support/fixtures';

const METHOD_ARN = 'arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/GET/api/v1/profiles/1';
const WHOLE_API = 'arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/*';

const event = (headers: Record<string, string>): APIGatewayRequestAuthorizerEvent =>
  ({
    type: 'REQUEST',
    methodArn: METHOD_ARN,
    headers,
    httpMethod: 'GET',
    resource: '/api/v1/profiles/{id}',
    path: '/api/v1/profiles/1',
  }) as APIGatewayRequestAuthorizerEvent;
const effectAndMessage = (result: Awaited<ReturnType<typeof handler>>) => [result.policyDocument.Statement[0]!.Effect, result.context?.message];

beforeAll(() => seedDemoData());

describe('the API key authorizer', () => {
  it('allows a valid key on the whole API, naming its key id and the usage identifier its requests are counted under', async () => {
    const { keyId, plaintext } = await apiKeyWithId();
    const result = await handler(event({ 'x-api-key': plaintext }));
    expect(result).toEqual({
      principalId: keyId,
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: WHOLE_API }] },
      context: { key_id: keyId },
      usageIdentifierKey: `lab-usage-${keyId}`,
    });
  });

  it('gives a denied key no usage identifier: nothing is counted for it', async () => {
    const result = await handler(event({ 'x-api-key': 'lab_unknown' }));
    expect(result.usageIdentifierKey).toBeUndefined();
  });

  it('reads the header whatever its case', async () => {
    const { plaintext } = await apiKeyWithId();
    expect(effectAndMessage(await handler(event({ 'X-Api-Key': plaintext })))).toEqual(['Allow', undefined]);
  });

  it("denies an unknown key with the route's message", async () => {
    expect(effectAndMessage(await handler(event({ 'x-api-key': 'lab_unknown' })))).toEqual(['Deny', 'Invalid or revoked API key']);
  });

  it('denies a revoked key', async () => {
    const { keyId, plaintext } = await apiKeyWithId();
    await revokeApiKey(keyId);
    // A key seen before its revocation is cached for up to 60 s, as in a route; this one never was.
    expect(effectAndMessage(await handler(event({ 'x-api-key': plaintext })))).toEqual(['Deny', 'Invalid or revoked API key']);
  });

  it('denies an expired key with "API key expired"', async () => {
    const { plaintext } = await issueApiKey(
      { name: 'old', scopes: ['LOCATIONS_VIEW'], profileGroups: [], locationGroups: [], expiresAt: new Date(Date.now() - 1000) },
      new Date(Date.now() - 86_400_000),
    );
    expect(effectAndMessage(await handler(event({ 'x-api-key': plaintext })))).toEqual(['Deny', 'API key expired']);
  });

  it('denies a request without the header with the missing-key message', async () => {
    expect(effectAndMessage(await handler(event({})))).toEqual(['Deny', 'Missing x-api-key header']);
  });
});
