/**
 * One logging context per invocation on the local stack. In AWS each Lambda container runs one invocation
 * at a time, so Powertools Logger's one context (function name, request id) always belongs to the
 * request being logged. The local stack runs every route's handler in one process, many at once: with one
 * shared context, a results-ingest refusal was logged with another route's `function_name`.
 *
 * Powertools keeps its state per invocation where Lambda itself runs invocations concurrently (Lambda
 * Managed Instances): when `AWS_LAMBDA_MAX_CONCURRENCY` is set, it reads and writes that state in the
 * runtime's InvokeStore (AsyncLocalStorage), and every invocation runs inside `InvokeStore.run`. The
 * local stack does what that runtime does: `npm start` sets the variable and runs its startup, each
 * request and each background task inside a context of its own. Elsewhere (tests, CLIs) the variable is
 * unset and `runInvocation` only runs the function.
 */
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';

/** What `npm start` sets before any handler loads; the value is Lambda's, the limit it does not enforce here. */
export const CONCURRENT_INVOCATIONS = { AWS_LAMBDA_MAX_CONCURRENCY: '64' };

/** Runs `invocation` in a logging context of its own, with this request id. */
export async function runInvocation<T>(requestId: string, invocation: () => Promise<T>): Promise<T> {
  const store = await InvokeStore.getInstanceAsync();
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: requestId }, invocation);
}
