/**
 * `Idempotency-Key` on creates (POST /profiles, /appointments, /shipments, /home-kit-orders), with
 * Powertools Idempotency on our table: a client that retries a create after a timeout gets the first
 * answer again instead of a second patient record or booking. Records live one hour (TTL expires_at).
 *
 * The key is scoped to the API key that sent it (two clinics may pick the same Idempotency-Key), and
 * the body must be the same: reusing a key for another request answers 422. Requests without the
 * header are not affected. Imported only by the create handlers, so other bundles stay small.
 */
import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import { TTL_ATTRIBUTE } from '../store/table';
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
  // Only when the header is there; then the API key and the Idempotency-Key together (headers are lower-cased).
  eventKeyJmesPath: 'headers."idempotency-key" && [headers."x-api-key", headers."idempotency-key"]',
  payloadValidationJmesPath: 'body',
  throwOnNoIdempotencyKey: false,
  expiresAfterSeconds: 3600,
});

export const idempotentCreate = () => makeHandlerIdempotent({ persistenceStore, config: idempotencyConfig });
