/**
 * The key stage's checks (composed by shared/http/handler.ts for routes with scopes): API key (401), then
 * scopes (403). Apart from the other middlewares because the key lookup brings the DynamoDB client, which
 * a public function (shared/http/stack.ts publicHttpHandler) must not bundle.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { assertAllScopes, assertAnyScope } from '../auth/access';
import { authenticate } from '../auth/api-keys';
import { enterRealmOfKey } from '../sandbox';
import type { Route } from '../routes';
import type { LabContext } from './middlewares';

type LabMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;

export function authenticateApiKey(): LabMiddleware {
  return {
    before: async (request) => {
      const access = await authenticate(request.event.headers?.['x-api-key']);
      request.context.access = access;
      // From here on, the request reads and writes the data of its key's realm (docs/sandbox.md).
      enterRealmOfKey(access.sandbox ? 'sandbox' : 'live');
    },
  };
}

export function requireScopes(route: Route): LabMiddleware {
  const assertScopes = route.allScopes ? assertAllScopes : assertAnyScope;
  return {
    before: ({ context }) => {
      if (!context.access) throw new Error('requireScopes runs after authenticateApiKey');
      assertScopes(context.access, route.scopes);
    },
  };
}
