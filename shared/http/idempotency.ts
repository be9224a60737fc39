/**
 * `Idempotency-Key` on creates (POST /profiles, /appointments, /shipments, /home-kit-orders), with
 * Powertools Idempotency on our table: a client that retries a create after a timeout gets the first
 * answer again instead of a second patient record or booking. Records live one hour (TTL expires_at).
 *
 * The key is scoped to the route and to the API key that sent it (two clinics may pick the same
 * Idempotency-Key; one client may send the same one to two creates), and the body must be the same:
 * reusing a key for another request of the same route answers 422. Requests without the header are not
 * affected. Imported only by the create handlers, so other bundles stay small.
 */
import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { errorNames, logger } from '../logger';
import { TTL_ATTRIBUTE } from '../store/table';
import type { LabContext } from './middlewares';
import { REPLAYED_HEADER } from './responses';
import { dynamoClient, tableName } from '../store/client';

const persistenceStore = new DynamoDBPersistenceLayer({
  tableName,
  awsSdkV3Client: dynamoClient,
  keyAttr: 'PK',
  sortKeyAttr: 'SK',
  staticPkValue: 'IDEMPOTENCY',
  expiryAttr: TTL_ATTRIBUTE,
});

const idempotencyConfig = new IdempotencyConfig({
  // Only for a non-empty header; then the route, the API key and the Idempotency-Key together (headers are
  // lower-cased). The route is in the key itself: Powertools prefixes records with the function name, which
  // is one per route in AWS but one for every handler of the local server's process.
  // `|| null`: an empty header must not become one shared key for every client.
  eventKeyJmesPath:
    '(headers."idempotency-key" && [requestContext.httpMethod, requestContext.resourcePath, headers."x-api-key", headers."idempotency-key"]) || `null`',
  payloadValidationJmesPath: 'body',
  throwOnNoIdempotencyKey: false,
  expiresAfterSeconds: 3600,
});

type LabMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;

/**
 * Powertools' middleware, with two guards. Its onError deletes the idempotency record, also when its own
 * `before` refused the request (key reused with another body, or still in progress) — which would drop
 * the FIRST request's record and let a retry create twice: only a request that took the record may
 * release it. And a record that cannot be completed after the create succeeded does not turn the
 * create's answer into an error (see `after`: the guard against a second create then holds only while
 * the record is "in progress").
 */
export function idempotentCreate(): LabMiddleware {
  const inner = makeHandlerIdempotent({ persistenceStore, config: idempotencyConfig }) as LabMiddleware;
  const holdsRecord = new WeakSet<object>();
  return {
    before: async (request) => {
      const replay = (await inner.before?.(request)) as APIGatewayProxyResult | undefined;
      if (replay === undefined) {
        holdsRecord.add(request);
        return undefined;
      }
      // The first answer again, marked so that a client (and its logs) can tell a replay from a new create,
      // as Stripe's header of the same name does.
      request.response = { ...replay, headers: { ...replay.headers, [REPLAYED_HEADER]: 'true' } };
      return request.response;
    },
    after: async (request) => {
      try {
        await inner.after?.(request);
      } catch (error) {
        // The create is written and its answer ready; only its record could not be completed (the SDK has
        // retried already). Answering an error now would make the client retry, and (the record then
        // released) create a second time. So the answer goes out. The record stays "in progress" only until
        // Powertools lets it expire: after the function's remaining time (the Lambda timeout in AWS, 30 s in
        // the local server). A retry within that window gets 409; one after it would create again — but the
        // client has its 201 and no reason to retry.
        logger.warn('Idempotency record not completed; the create is answered anyway', errorNames(error));
      }
    },
    onError: async (request) => {
      if (holdsRecord.has(request)) await inner.onError?.(request);
    },
  };
}
