/**
 * The API key authorizer (issue #31: bad keys stopped at the gateway), run as API Gateway runs it: a
 * REQUEST event with the x-api-key header, against DynamoDB Local. Its policy covers the whole API so
 * that one cached answer serves every route; a denial carries the route's own 401 message.
 */
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/auth/authorizer';
import { issueApiKey } from '../../shared/auth/api-keys';
import { revokeApiKey } from '../../shared/store/api-keys/lifecycle';
import { dynamoClient } from '../../shared/store/client';
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

describe('a flood of bad keys (docs/api-keys.md "Bad keys stopped at the gateway": the measured cost)', () => {
  it('costs 1,000 invocations, 1,000 consistent GetItems and no write for 1,000 different unknown keys', async () => {
    // Every DynamoDB call the authorizer makes, counted at the SDK's edge by command and consistency.
    const calls: string[] = [];
    dynamoClient.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { ConsistentRead?: boolean };
        calls.push(`${context.commandName}${input.ConsistentRead ? ' (consistent)' : ''}`);
        return next(args);
      },
      { step: 'initialize', name: 'countCalls' },
    );
    try {
      const keys = Array.from({ length: 1000 }, (_, i) => `lab_flood${String(i).padStart(4, '0')}${'x'.repeat(30)}`);
      const effects: string[] = [];
      // 20 at a time, as a flood would arrive.
      for (let i = 0; i < keys.length; i += 20) {
        const batch = await Promise.all(keys.slice(i, i + 20).map((key) => handler(event({ 'x-api-key': key }))));
        effects.push(...batch.map((result) => result.policyDocument.Statement[0]!.Effect));
      }
      expect(new Set(effects)).toEqual(new Set(['Deny']));
      expect(calls.length).toBe(1000);
      expect(new Set(calls)).toEqual(new Set(['GetItemCommand (consistent)']));
    } finally {
      dynamoClient.middlewareStack.remove('countCalls');
    }
  });
});
