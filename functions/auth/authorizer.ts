/**
 * The gateway's Lambda authorizer (REQUEST, identity source the x-api-key header, results cached 60 s per
 * header value): a missing, unknown, revoked or expired key is answered before any route's function runs,
 * with the route's own 401 message (the ACCESS_DENIED gateway response reads it from the context). A key
 * that may be used is allowed on the whole API, so one cached answer serves every route; the route still
 * authenticates it (scopes, groups, the day's use) from its own cached lookup. A lookup that fails (the
 * table cannot answer) throws: API Gateway reports it as AUTHORIZER_CONFIGURATION_ERROR (or
 * AUTHORIZER_FAILURE), both answered 503 with Retry-After, and nothing is cached.
 *
 * An allowed key comes with its usage identifier (shared/auth/usage-identifier.ts): API Gateway counts the
 * request against that key's usage plan, and answers 429 itself once the key is over its rate or its day.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { API_KEY_HEADER } from '../../shared/auth/api-key-header';
import { verifyApiKey } from '../../shared/auth/api-keys';
import { usageIdentifierOf } from '../../shared/auth/usage-identifier';
import { NotAuthenticated } from '../../shared/errors';

/** The whole API on this stage: `arn:aws:execute-api:<region>:<account>:<api id>/<stage>/*`. */
const wholeApi = (methodArn: string) => `${methodArn.split('/').slice(0, 2).join('/')}/*`;

function headerOf(event: APIGatewayRequestAuthorizerEvent): string | undefined {
  const found = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === API_KEY_HEADER);
  return found?.[1] ?? undefined;
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const policy = (effect: 'Allow' | 'Deny', principalId: string, context: Record<string, string>): APIGatewayAuthorizerResult => ({
    principalId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: wholeApi(event.methodArn) }] },
    context,
  });
  try {
    // Consistent: API Gateway caches a denial 60 s, so a key issued a second ago must not be missed.
    const record = await verifyApiKey(headerOf(event), Date.now(), { consistent: true });
    return { ...policy('Allow', record.key_id, { key_id: record.key_id }), usageIdentifierKey: usageIdentifierOf(record.key_id) };
  } catch (error) {
    if (error instanceof NotAuthenticated) return policy('Deny', 'anonymous', { message: error.message });
    throw error;
  }
};
