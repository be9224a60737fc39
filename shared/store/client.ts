/**
 * The DynamoDB document client of a container, created once and reused by every invocation.
 * Reads of the base table on request paths are strongly consistent (ConsistentRead): a nurse who has
 * just confirmed a draw, or a retry right after a 201, must see what was written.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { expireSandboxItems } from './sandbox-expiry';

// Sandbox items are given their expiry (shared/store/sandbox-expiry.ts): the document client below sends
// through this client's middleware.
export const dynamoClient = expireSandboxItems(
  new DynamoDBClient({
    region: config.region,
    ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  }),
);

export const dynamo = DynamoDBDocumentClient.from(dynamoClient, { marshallOptions: { removeUndefinedValues: true } });

export const tableName = config.tableName;
