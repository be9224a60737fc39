/**
 * `Idempotency-Key` on creates (POST /profiles, /appointments, /shipments, /home-kit-orders): a client that
 * retries a create after a timeout gets the first answer again instead of a second patient record or
 * booking. Records live one hour (TTL expires_at), in our table (shared/store/idempotency.ts).
 *
 * The key is scoped to the route and to the API key that sent it (two clinics may pick the same
 * Idempotency-Key; one client may send the same one to two creates), and the body must be the same:
 * reusing a key for another request of the same route answers 422; one whose first request still runs, 409.
 * Requests without the header (or with an empty one, which must not become one key shared by every client)
 * are not affected. Imported only by the create handlers.
 *
 * Written here, not with Powertools Idempotency (issue #33): it names the key with a JMESPath expression,
 * and its JMESPath interpreter and persistence layer added 45 KB to each create's bundle, for a put, an
 * update and a delete. Its behaviour is kept, and two of its faults we guarded against are gone by design:
 * only the request that took the record releases it (a refused reuse never drops the first request's
 * record), and a record that cannot be completed after the create succeeded does not turn the answer into
 * an error.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { errorNames, logger } from '../logger';
import { isConditionFailure } from '../store/conditions';
import { completeIdempotencyRecord, releaseIdempotencyRecord, takeIdempotencyRecord } from '../store/idempotency';
import { HttpError } from './errors';
import type { LabContext } from './middlewares';
import { REPLAYED_HEADER } from './responses';

const RECORD_SECONDS = 3600;
/** How long a request holds its record when Lambda's context cannot say (a test's bare context): the local server's timeout. */
const DEFAULT_REMAINING_MS = 30_000;

const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress; retry it shortly';
const KEY_REUSED = 'This Idempotency-Key was already used for a different request';

type LabMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LabContext>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The record's key: the route, the API key (its id, not its secret) and the Idempotency-Key, hashed. */
function keyHashOf(event: APIGatewayProxyEvent, context: LabContext): string | undefined {
  const idempotencyKey = event.headers?.['idempotency-key'];
  if (!idempotencyKey) return undefined;
  return sha256(JSON.stringify([event.requestContext?.httpMethod, event.requestContext?.resourcePath, context.access?.keyId, idempotencyKey]));
}

export function idempotentCreate(): LabMiddleware {
  /** The record each request took (its key hash and the token it took it under): only that request completes or releases it. */
  const held = new WeakMap<object, { keyHash: string; holder: string }>();
  return {
    before: async (request) => {
      const keyHash = keyHashOf(request.event, request.context);
      if (keyHash === undefined) return undefined;
      // The body as the JSON parser left it (shared/http/json-body.ts): the same JSON, the same hash.
      const body: unknown = request.event.body;
      const payloadHash = sha256(typeof body === 'string' ? body : JSON.stringify(body ?? null));
      const nowMs = Date.now();
      const remainingMs = request.context.getRemainingTimeInMillis?.() ?? DEFAULT_REMAINING_MS;
      const holder = randomUUID();
      const outcome = await takeIdempotencyRecord(keyHash, payloadHash, holder, {
        nowMs,
        // Until the function must have answered: past that, the request that holds the record is gone.
        inProgressUntilMs: nowMs + remainingMs,
        expiresAtSeconds: Math.floor(nowMs / 1000) + RECORD_SECONDS,
      });
      if (outcome.taken) {
        held.set(request, { keyHash, holder });
        return undefined;
      }
      const { record } = outcome;
      if (record.payloadHash !== payloadHash) throw new HttpError(422, KEY_REUSED);
      if (record.status !== 'COMPLETED' || record.answer === undefined) throw new HttpError(409, IN_PROGRESS);
      // The first answer again, marked so that a client (and its logs) can tell a replay from a new create,
      // as Stripe's header of the same name does.
      const first = JSON.parse(record.answer) as APIGatewayProxyResult;
      request.response = { ...first, headers: { ...first.headers, [REPLAYED_HEADER]: 'true' } };
      return request.response;
    },
    after: async (request) => {
      const record = held.get(request);
      if (record === undefined || !request.response) return;
      try {
        await completeIdempotencyRecord(record.keyHash, record.holder, JSON.stringify(request.response));
      } catch (error) {
        if (isConditionFailure(error)) {
          // This request outlived its deadline and a retry took the record over: the retry's answer is the record's.
          logger.warn('Idempotency record taken over by a retry; the create is answered anyway');
          return;
        }
        // The create is written and its answer ready; only its record could not be completed (the SDK has
        // retried already). Answering an error now would make the client retry and create a second time. So
        // the answer goes out, and the record stays "in progress" until the function's deadline: a retry
        // before it gets 409; one after it would create again — but the client has its 201.
        logger.warn('Idempotency record not completed; the create is answered anyway', errorNames(error));
      }
    },
    // Also after `after` completed the record: a later stage (the read audit) may still fail the request, whose
    // answer then was never shown; docs/privacy.md: a create retried then is made again, never replayed unrecorded.
    onError: async (request) => {
      const record = held.get(request);
      if (record === undefined) return;
      held.delete(request);
      try {
        await releaseIdempotencyRecord(record.keyHash, record.holder);
      } catch (error) {
        // The request's own error is what the client must see; the record frees itself at the deadline.
        logger.warn('Idempotency record not released; it frees itself when the request would have timed out', errorNames(error));
      }
    },
  };
}
