/** The DynamoDB document client of a container, created once and reused by every invocation. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

export const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: config.region,
    ...(config.dynamodbEndpoint
      ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  }),
  { marshallOptions: { removeUndefinedValues: true } },
);

export const tableName = config.tableName;
