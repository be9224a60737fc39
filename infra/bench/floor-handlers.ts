/**
 * The floors of GET /api/v1/profiles/{id}: handlers that make only its DynamoDB calls, through the app's
 * own client (shared/store/client.ts), and answer the item as JSON. No Middy, no key, no validation, no log
 * line, no metrics. `bareGetPut` makes both calls the route makes (the GetItem and the access-log PutItem,
 * docs/privacy.md "Privacy"); `handler` is it, as the module the bench's local server serves as a route
 * (FLOOR_ROUTE, bench/floor-route.ts), so that the throughput floor crosses the same local HTTP hop as the route.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { accessLogPut } from './access-log-put';

const profileIdOf = (event: APIGatewayProxyEvent): string => event.pathParameters?.id ?? '';

export async function bareGet(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.profile(profileIdOf(event)), ConsistentRead: true }));
  return Item
    ? { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(Item) }
    : { statusCode: 404, headers: { 'Content-Type': 'application/json' }, body: '{"error":"Profile not found"}' };
}

export async function bareGetPut(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const answer = await bareGet(event);
  await dynamo.send(accessLogPut(tableName, profileIdOf(event), event.requestContext.requestId));
  return answer;
}

export const handler = bareGetPut;
