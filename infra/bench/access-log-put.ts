/**
 * A module of its own, without the bench's other helpers (bench/api-client.ts loads the seed data): the
 * floor handlers import it, and the handler CPU measure bundles them (bench/handler-cpu-subjects.ts).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { accessLogEntryKey } from '../../shared/store/keys';
import { TTL_ATTRIBUTE } from '../../shared/store/table';

/**
 * The floor's form of the access-log entry GET /profiles/{id} writes (shared/store/access-log.ts): the same
 * key, size and condition, put by the bare handler and by the raw client beside the route.
 */
export function accessLogPut(table: string, profileId: string, requestId: string) {
  const at = new Date().toISOString();
  return new PutCommand({
    TableName: table,
    Item: {
      ...accessLogEntryKey(profileId, at, requestId, 0),
      at,
      key_id: 'key_0123456789abcdef',
      route: 'getProfile',
      resource: 'profile',
      profile_id: profileId,
      request_id: requestId,
      source_ip: '127.0.0.1',
      [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + 730 * 86_400,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
}
