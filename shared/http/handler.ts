/**
 * `httpHandler`: the handler of a route that needs an API key, the one Middy stack of shared/http/stack.ts
 * (order, errors, input) with the key stage in it: API key (401) → scopes (403) → read audit (its `after`
 * records the reads of a succeeded request, shared/http/audit.ts). The key and scope come before the body,
 * so an unauthenticated caller learns nothing about the input rules (the spec's order of checks: 401, 403,
 * then 400).
 *
 * A route without scopes uses `publicHttpHandler` (shared/http/stack.ts) instead: this module imports the key
 * lookup and the access log, and with them the DynamoDB client, which a public function must not bundle.
 */
import type { GenericSchema } from 'valibot';
import type { RouteName } from '../routes';
import type { JsonBody } from './json-body';
import { authenticateApiKey, requireScopes } from './api-key';
import { inRequestRealm } from '../sandbox';
import { auditReads } from './audit';
import { composeHttpHandler, type HttpHandlerDefinition, type PublicRouteName } from './stack';

export type { HandlerContract, HandlerInput, HttpHandlerDefinition, ReplyOf } from './stack';

/** Routes that need a key: every route with scopes. */
export type KeyedRouteName = Exclude<RouteName, PublicRouteName>;

export function httpHandler<
  R extends KeyedRouteName,
  P extends GenericSchema | undefined = undefined,
  Q extends GenericSchema | undefined = undefined,
  B extends JsonBody | undefined = undefined,
>(definition: HttpHandlerDefinition<R, P, Q, B>) {
  const handler = composeHttpHandler(definition, [authenticateApiKey(), requireScopes(definition.route), auditReads(definition.route)]);
  // The whole stack runs in the realm the key check enters (shared/sandbox.ts): its handler, and the
  // middlewares after the check that write (the read audit, the idempotency record).
  const inRealmOfKey: typeof handler = Object.assign(
    (event: Parameters<typeof handler>[0], context: Parameters<typeof handler>[1]) => inRequestRealm(() => handler(event, context)),
    handler,
  );
  return inRealmOfKey;
}
