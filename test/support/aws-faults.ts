/**
 * Faults of AWS, injected at the SDK's edge: a middleware on a real client's stack (DynamoDB, S3) answers
 * chosen calls instead of the emulator, below the SDK's deserializer and inside its retry loop. So the
 * SDK parses a fault as it would AWS's answer (the modeled exception class, `$fault`, `$metadata`), and its
 * own retries and backoff run as deployed; nothing of our code is replaced.
 */
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { TRY_AGAIN_LATER } from '../../shared/http/errors';
import { dynamo } from '../../shared/store/client';
import type { ApiResponse } from './api';

/** What a fault sees of a call: the command's name and its input as sent (DynamoDB: marshalled). */
export interface AwsCall {
  commandName: string;
  input: Record<string, unknown>;
}

interface RawAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** An HTTP answer of the service for the SDK to parse, or an error its HTTP handler would throw. */
export type Fault = (call: AwsCall) => RawAnswer | Error;

/** DynamoDB's JSON error answer of `type` (the service sends `__type` and `message`). */
export const dynamoError =
  (statusCode: number, type: string, fields: Record<string, unknown> = {}): Fault =>
  () => ({
    statusCode,
    headers: { 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: `injected ${type}`, ...fields }),
  });

/** A cancelled TransactWriteItems: the first item fails with `code`, the others 'None' (as DynamoDB answers). */
export const transactionCancelled =
  (code: string): Fault =>
  (call) => {
    const items = (call.input.TransactItems as unknown[] | undefined) ?? [];
    const reasons = items.map((_, i) => (i === 0 ? { Code: code, Message: `injected ${code}` } : { Code: 'None' }));
    return dynamoError(400, 'TransactionCanceledException', { Message: `Transaction cancelled [${code}]`, CancellationReasons: reasons })(call);
  };

/** S3's XML error answer (a HEAD's has no body: S3 sends the status alone). */
export const s3Error =
  (statusCode: number, code: string): Fault =>
  (call) => ({
    statusCode,
    headers: { 'content-type': 'application/xml' },
    body:
      call.commandName === 'HeadObjectCommand' ? '' : `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>injected</Message></Error>`,
  });

/** A connection that failed (what Node's http module throws: ECONNREFUSED, ECONNRESET, …). */
export const networkError =
  (code: string): Fault =>
  () =>
    Object.assign(new Error(`injected ${code}`), { code });

/** The SDK's request timeout (NodeHttpHandler's requestTimeout): a TimeoutError, no answer of the service. */
export const timeoutError = (): Fault => () => Object.assign(new Error('injected request timeout'), { name: 'TimeoutError' });

interface Stack {
  middlewareStack: { add(middleware: never, options: object): void; remove(name: string): boolean };
}

/** Which calls a fault answers. */
export type CallFilter = (call: AwsCall) => boolean;

/** Calls whose input names `text` anywhere (an id, a key hash, an S3 key). */
export const mentioning =
  (text: string, commandName?: string): CallFilter =>
  (call) =>
    (commandName === undefined || call.commandName === commandName) && JSON.stringify(call.input).includes(text);

export const command =
  (commandName: string): CallFilter =>
  (call) =>
    call.commandName === commandName;

let installed = 0;

/**
 * Runs `body` with every call `when` selects answered by `fault` — every attempt of it, the SDK's retries
 * included — and answers what `body` answered and how many attempts the fault took.
 */
export async function withFault<T>(client: Stack, fault: Fault, when: CallFilter, body: () => Promise<T>): Promise<{ result: T; faulted: number }> {
  const name = `injectedFault${(installed += 1)}`;
  let faulted = 0;
  const middleware = (next: (args: unknown) => Promise<unknown>, context: { commandName: string }) => async (args: { input: Record<string, unknown> }) => {
    const call = { commandName: context.commandName, input: args.input };
    if (!when(call)) return next(args);
    faulted += 1;
    const answer = fault(call);
    if (answer instanceof Error) throw answer;
    return { response: { ...answer, body: Readable.from([Buffer.from(answer.body)]) } };
  };
  // Below the deserializer (priority low in its step), so the SDK parses the answer; inside the retry loop.
  client.middlewareStack.add(middleware as never, { step: 'deserialize', priority: 'low', name });
  try {
    return { result: await body(), faulted };
  } finally {
    client.middlewareStack.remove(name);
  }
}

/**
 * Runs `body` with `middleware` on the service's DynamoDB client (its `initialize` step: before the SDK's
 * retries, seeing each call once): a fault, a pause to interleave two requests, a rewritten answer.
 */
export async function withMiddleware<T>(middleware: Middleware, body: () => Promise<T>): Promise<T> {
  const name = `testMiddleware${(installed += 1)}`;
  dynamo.middlewareStack.add(middleware as never, { step: 'initialize', name });
  try {
    return await body();
  } finally {
    dynamo.middlewareStack.remove(name);
  }
}

export type Handler = (args: unknown) => Promise<unknown>;
export type Middleware = (next: Handler) => Handler;

/** The answer to a request AWS could not serve now: 503 {error} with Retry-After (docs/endpoints.md "Errors"). */
export function expectTryAgainLater(res: ApiResponse): void {
  expect({ status: res.status, body: res.body, retryAfter: res.headers.get('retry-after') }).toEqual({
    status: 503,
    body: { error: TRY_AGAIN_LATER },
    retryAfter: '1',
  });
}

/** Kept here for the fault suites: the one scanner is test/support/table.ts. */
export { tableDigest } from './table';
