/**
 * The records behind Idempotency-Key (shared/store/idempotency.ts) against DynamoDB Local: who may take one,
 * and that only the request that took it completes or releases it. test/integration/idempotency.test.ts
 * proves the same through the API.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import { completeIdempotencyRecord, releaseIdempotencyRecord, takeIdempotencyRecord } from '../../shared/store/idempotency';
import * as keys from '../../shared/store/keys/items';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const times = (nowMs: number, deadlineMs = 30_000) => ({ nowMs, inProgressUntilMs: nowMs + deadlineMs, expiresAtSeconds: Math.floor(nowMs / 1000) + 3600 });
const stored = async (keyHash: string) =>
  (await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.idempotencyRecord(keyHash), ConsistentRead: true }))).Item;

describe('an Idempotency-Key record', () => {
  it('is refused to a second request while the first holds it, which is told what stands', async () => {
    const keyHash = randomUUID();
    expect(await takeIdempotencyRecord(keyHash, 'body-1', 'first', times(NOW))).toEqual({ taken: true });
    expect(await takeIdempotencyRecord(keyHash, 'body-1', 'second', times(NOW + 1000))).toEqual({
      taken: false,
      record: { status: 'INPROGRESS', payloadHash: 'body-1', answer: undefined },
    });
  });

  it('is taken over by a retry once the request that held it is past its deadline', async () => {
    const keyHash = randomUUID();
    await takeIdempotencyRecord(keyHash, 'body-1', 'first', times(NOW, 30_000));
    expect(await takeIdempotencyRecord(keyHash, 'body-1', 'retry', times(NOW + 31_000))).toEqual({ taken: true });
    expect(await stored(keyHash)).toMatchObject({ holder: 'retry', status: 'INPROGRESS' });
  });

  it('is neither completed nor released by a request whose record a retry took over', async () => {
    const keyHash = randomUUID();
    await takeIdempotencyRecord(keyHash, 'body-1', 'first', times(NOW, 30_000));
    await takeIdempotencyRecord(keyHash, 'body-1', 'retry', times(NOW + 31_000));
    await expect(completeIdempotencyRecord(keyHash, 'first', '{"statusCode":201}')).rejects.toThrow(
      expect.objectContaining({ name: 'ConditionalCheckFailedException' }),
    );
    await releaseIdempotencyRecord(keyHash, 'first');
    expect(await stored(keyHash)).toMatchObject({ holder: 'retry', status: 'INPROGRESS' });
  });

  it('holds the answer once completed by the request that took it', async () => {
    const keyHash = randomUUID();
    await takeIdempotencyRecord(keyHash, 'body-1', 'first', times(NOW));
    await completeIdempotencyRecord(keyHash, 'first', '{"statusCode":201}');
    expect(await takeIdempotencyRecord(keyHash, 'body-1', 'retry', times(NOW + 1000))).toEqual({
      taken: false,
      record: { status: 'COMPLETED', payloadHash: 'body-1', answer: '{"statusCode":201}' },
    });
  });

  it('is not made again by completing it once it is gone (released, or deleted at its expiry)', async () => {
    const keyHash = randomUUID();
    await takeIdempotencyRecord(keyHash, 'body-1', 'first', times(NOW));
    await releaseIdempotencyRecord(keyHash, 'first');
    await expect(completeIdempotencyRecord(keyHash, 'first', '{"statusCode":201}')).rejects.toThrow(
      expect.objectContaining({ name: 'ConditionalCheckFailedException' }),
    );
    expect(await stored(keyHash)).toBeUndefined();
  });

  it('is gone once released by the request that took it', async () => {
    const keyHash = randomUUID();
    await takeIdempotencyRecord(keyHash, 'body-1', 'first', times(NOW));
    await releaseIdempotencyRecord(keyHash, 'first');
    expect(await stored(keyHash)).toBeUndefined();
  });
});
