import { describe, expect, it } from 'vitest';
import { SANDBOX_RETENTION_DAYS } from '../../shared/sandbox';
import { withSandboxExpiry } from '../../shared/store/sandbox-expiry';

const NOW = Date.UTC(2026, 10, 26);
const EXPIRY = NOW / 1000 + SANDBOX_RETENTION_DAYS * 86_400;

describe('withSandboxExpiry', () => {
  it('gives a Put into a sandbox partition the expiry', () => {
    const input = withSandboxExpiry('PutItemCommand', { Item: { PK: 'SANDBOX#PROFILE#1', SK: 'PROFILE' } }, NOW);
    expect(input.Item).toEqual({ PK: 'SANDBOX#PROFILE#1', SK: 'PROFILE', expires_at: EXPIRY });
  });

  it('leaves a live Put as it is', () => {
    const input = withSandboxExpiry('PutItemCommand', { Item: { PK: 'PROFILE#1', SK: 'PROFILE' } }, NOW);
    expect(input.Item).toEqual({ PK: 'PROFILE#1', SK: 'PROFILE' });
  });

  it('keeps an earlier expiry the item carries, and replaces a later one', () => {
    const earlier = withSandboxExpiry('PutItemCommand', { Item: { PK: 'SANDBOX#EVENT#1', expires_at: EXPIRY - 5 } }, NOW);
    const later = withSandboxExpiry('PutItemCommand', { Item: { PK: 'SANDBOX#ACCESS#1', expires_at: EXPIRY + 5 } }, NOW);
    expect([earlier.Item?.expires_at, later.Item?.expires_at]).toEqual([EXPIRY - 5, EXPIRY]);
  });

  it('joins an Update of a sandbox item to its SET clause with if_not_exists', () => {
    const input = withSandboxExpiry('UpdateItemCommand', { Key: { PK: 'SANDBOX#APPT#1', SK: 'APPT' }, UpdateExpression: 'REMOVE a SET b = :b' }, NOW);
    expect(input.UpdateExpression).toBe('REMOVE a SET #sandbox_expiry = if_not_exists(#sandbox_expiry, :sandbox_expiry), b = :b');
    expect(input.ExpressionAttributeNames).toEqual({ '#sandbox_expiry': 'expires_at' });
    expect(input.ExpressionAttributeValues).toEqual({ ':sandbox_expiry': EXPIRY });
  });

  it('gives an Update without a SET clause one of its own', () => {
    const input = withSandboxExpiry('UpdateItemCommand', { Key: { PK: 'SANDBOX#APPT#1' }, UpdateExpression: 'ADD tests_version :one' }, NOW);
    expect(input.UpdateExpression).toBe('SET #sandbox_expiry = if_not_exists(#sandbox_expiry, :sandbox_expiry) ADD tests_version :one');
  });

  it('caps the expiry an Update of a sandbox item sets itself at the retention', () => {
    const update = {
      Key: { PK: 'SANDBOX#SEATS#1' },
      UpdateExpression: 'ADD ids :ids SET #expires = if_not_exists(#expires, :expires)',
      ExpressionAttributeNames: { '#expires': 'expires_at' },
      ExpressionAttributeValues: { ':ids': new Set(['a']), ':expires': EXPIRY + 86_400 },
    };
    expect(withSandboxExpiry('UpdateItemCommand', update, NOW)).toEqual({
      ...update,
      ExpressionAttributeValues: { ':ids': new Set(['a']), ':expires': EXPIRY },
    });
  });

  it('keeps an earlier expiry an Update of a sandbox item sets itself', () => {
    const update = {
      Key: { PK: 'SANDBOX#WEBHOOK#1' },
      UpdateExpression: 'SET expires_at = :soon, attempts = :n',
      ExpressionAttributeValues: { ':soon': EXPIRY - 60, ':n': 2 },
    };
    expect(withSandboxExpiry('UpdateItemCommand', update, NOW)).toEqual(update);
  });

  it('reads a transaction item by item, and AttributeValues as well as plain values', () => {
    const input = withSandboxExpiry(
      'TransactWriteItemsCommand',
      { TransactItems: [{ Put: { Item: { PK: { S: 'SANDBOX#KIT#1' } } } }, { Put: { Item: { PK: 'GROUP#a' } } }] },
      NOW,
    );
    expect(input.TransactItems?.map((entry) => entry.Put?.Item)).toEqual([
      { PK: { S: 'SANDBOX#KIT#1' }, expires_at: { N: String(EXPIRY) } },
      { PK: 'GROUP#a' },
    ]);
  });
});
