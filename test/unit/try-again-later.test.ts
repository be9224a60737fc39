/**
 * Which failures answer 503 "try again later" (shared/http/errors.ts isTryAgainLater): only errors of an
 * AWS SDK call that may pass. The SDK's errors are its real classes, or — for network errors and the
 * request timeout, which the SDK passes on as Node threw them — the shape the SDK's retry middleware gives
 * them (`$metadata` added). One case goes through a real SDK client against a closed loopback port, to show
 * that the SDK does set `$metadata` on a network error.
 */
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  GetItemCommand,
  InternalServerError,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { isTryAgainLater } from '../../shared/http/errors';

const $metadata = { httpStatusCode: 400, attempts: 3, totalRetryDelay: 100 };

/** What the SDK throws for a failed connection: Node's error, with the `$metadata` its retry middleware adds. */
const sdkNetworkError = (code: string) => Object.assign(new Error(`connect ${code}`), { code, $metadata: { attempts: 3, totalRetryDelay: 100 } });

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({ message: 'Transaction cancelled', $metadata, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('an error of an AWS SDK call', () => {
  it.each([
    ['ProvisionedThroughputExceededException', new ProvisionedThroughputExceededException({ message: 'throttled', $metadata })],
    ['InternalServerError', new InternalServerError({ message: 'internal', $metadata: { ...$metadata, httpStatusCode: 500 } })],
    ['a cancelled transaction with reasons [None, TransactionConflict]', cancelled(['None', 'TransactionConflict'])],
    ['ECONNREFUSED', sdkNetworkError('ECONNREFUSED')],
    ['ECONNRESET', sdkNetworkError('ECONNRESET')],
    ["the SDK's request timeout", Object.assign(new Error('timed out'), { name: 'TimeoutError', $metadata: { attempts: 3 } })],
  ])('is try-again-later for %s', (_name, error) => {
    expect(isTryAgainLater(error)).toBe(true);
  });

  it.each([
    ['ConditionalCheckFailedException', new ConditionalCheckFailedException({ message: 'condition', $metadata })],
    ['ValidationException', Object.assign(new Error('invalid'), { name: 'ValidationException', $fault: 'client', $metadata })],
    ['a cancelled transaction with reasons [None, ConditionalCheckFailed]', cancelled(['None', 'ConditionalCheckFailed'])],
    ['a cancelled transaction with reasons all None', cancelled(['None', 'None'])],
    ['ENOTFOUND (an endpoint that does not resolve)', sdkNetworkError('ENOTFOUND')],
    ['EAI_AGAIN (an endpoint that does not resolve)', sdkNetworkError('EAI_AGAIN')],
  ])('is not try-again-later for %s', (_name, error) => {
    expect(isTryAgainLater(error)).toBe(false);
  });

  it('is try-again-later when wrapped, as a library may wrap the SDK error it met', () => {
    const wrapped = new Error('Failed to put record', { cause: new InternalServerError({ message: 'internal', $metadata }) });
    wrapped.name = 'IdempotencyPersistenceLayerError';
    expect(isTryAgainLater(wrapped)).toBe(true);
  });
});

describe('an error that did not come from an AWS SDK call', () => {
  it('is not try-again-later for a plain TimeoutError (AbortSignal.timeout)', () => {
    expect(isTryAgainLater(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe(false);
  });

  it('is not try-again-later for a fetch error whose cause is ECONNREFUSED', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(isTryAgainLater(new TypeError('fetch failed', { cause }))).toBe(false);
  });

  it('is not try-again-later for an error named like an AWS fault', () => {
    expect(isTryAgainLater(Object.assign(new Error('ours'), { name: 'InternalServerError', $fault: 'server' }))).toBe(false);
  });

  it('is not try-again-later for a value that is not an object', () => {
    expect(isTryAgainLater('InternalServerError')).toBe(false);
  });
});

describe('a real SDK call on loopback', () => {
  it('is try-again-later for a refused connection, which the SDK marks with $metadata', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once (one attempt, no backoff).
    const client = new DynamoDBClient({
      endpoint: 'http://127.0.0.1:1',
      region: 'eu-central-1',
      credentials: { accessKeyId: 'unit', secretAccessKey: 'unit' },
      maxAttempts: 1,
    });
    const error: unknown = await client.send(new GetItemCommand({ TableName: 'none', Key: { PK: { S: 'x' } } })).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    client.destroy();
    expect(error).toMatchObject({ code: 'ECONNREFUSED', $metadata: expect.any(Object) });
    expect(isTryAgainLater(error)).toBe(true);
  });
});
