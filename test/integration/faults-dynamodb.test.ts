/**
 * DynamoDB that cannot answer now — throttled, a conflicting transaction, its own fault, a network error or
 * timeout — injected at the SDK's edge (test/support/aws-faults.ts), with the SDK's own retries running as
 * in AWS. When the fault outlasts them, the client gets 503 `{error}` with Retry-After, never a 500 or a
 * wrong 409, and nothing is half-written: the table is as before, or (a use case of several writes) each
 * write complete and a retry finishes the rest.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../shared/auth/api-keys';
import { dynamo, dynamoClient, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { ITEMS_NOT_READ } from '../../shared/store/query';
import { type ApiResponse, useApi } from '../support/api';
import {
  command,
  dynamoError,
  expectTryAgainLater,
  type Fault,
  mentioning,
  networkError,
  tableDigest,
  timeoutError,
  transactionCancelled,
  withFault,
} from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_MITTE, seedDemoData } from '../support/fixtures';
import { confirmDraw, createProfile, drawableAppointment, newBarcode, slotIn, storedAppointment } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;
let courier: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
  courier = await apiKey({ scopes: ['TEST_SESSIONS_OPERATE'] });
  // Both keys' lookups cached and their day of use recorded, so that later requests read only their own items.
  await createProfile(api, key);
  await api.post('/api/v1/appointments/pickup', { appointment_ids: [] }, courier);
});

const dynamoFault = <T>(fault: Fault, when: Parameters<typeof withFault>[2], body: () => Promise<T>) => withFault(dynamoClient, fault, when, body);

/** The status history of an appointment as stored, oldest first. */
async function history(appointmentId: string): Promise<string[]> {
  const { Items } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.historyEntry(keys.appointment(appointmentId), 1).PK },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((item) => item.status as string);
}

describe('GET /api/v1/profiles/{id} while DynamoDB cannot answer', () => {
  // Every kind of "not now" the SDK can surface, by the name DynamoDB (or the SDK) gives it.
  const faults: [string, Fault][] = [
    ['ProvisionedThroughputExceededException', dynamoError(400, 'ProvisionedThroughputExceededException')],
    ['ThrottlingException', dynamoError(400, 'ThrottlingException')],
    ['RequestLimitExceeded', dynamoError(400, 'RequestLimitExceeded')],
    ['TransactionConflictException', dynamoError(400, 'TransactionConflictException')],
    ['InternalServerError', dynamoError(500, 'InternalServerError')],
    ['ServiceUnavailable (HTTP 503)', dynamoError(503, 'ServiceUnavailable')],
    ['a request timeout (TimeoutError)', timeoutError()],
    ['ECONNREFUSED', networkError('ECONNREFUSED')],
    ['ECONNRESET', networkError('ECONNRESET')],
  ];

  it.each(faults)('answers 503 with Retry-After to %s, recording no read', async (_name, fault) => {
    const id = await createProfile(api, key);
    const before = await tableDigest();
    const { result } = await dynamoFault(fault, mentioning(id, 'GetItemCommand'), () => api.get(`/api/v1/profiles/${id}`, key));
    expectTryAgainLater(result);
    expect(await tableDigest()).toBe(before);
  });

  it('lets the SDK retry the read before answering 503', async () => {
    const id = await createProfile(api, key);
    const { faulted } = await dynamoFault(dynamoError(500, 'InternalServerError'), mentioning(id, 'GetItemCommand'), () =>
      api.get(`/api/v1/profiles/${id}`, key),
    );
    expect(faulted).toBeGreaterThan(1);
  });

  it('answers 200 once DynamoDB answers again', async () => {
    const id = await createProfile(api, key);
    await dynamoFault(networkError('ECONNRESET'), mentioning(id), () => api.get(`/api/v1/profiles/${id}`, key));
    expect((await api.get(`/api/v1/profiles/${id}`, key)).status).toBe(200);
  });
});

describe('the API key lookup while DynamoDB cannot answer', () => {
  it('answers 503 with Retry-After, not 401, for a key whose lookup failed', async () => {
    const fresh = await apiKey();
    const { result } = await dynamoFault(networkError('ECONNREFUSED'), mentioning(hashApiKey(fresh)), () => api.get('/api/v1/locations', fresh));
    expectTryAgainLater(result);
  });

  it('does not remember a failed lookup: the key works once DynamoDB answers', async () => {
    const fresh = await apiKey();
    await dynamoFault(timeoutError(), mentioning(hashApiKey(fresh)), () => api.get('/api/v1/locations', fresh));
    expect((await api.get('/api/v1/locations', fresh)).status).toBe(200);
  });
});

describe('POST /api/v1/appointments while DynamoDB cannot answer', () => {
  // One time per profile, fixed at its first booking: a retry must send the same body, and inDays follows the
  // clock by the second (a retry in the next second would be another request: 422).
  const scheduledAt = new Map<string, string>();
  const book = (profileId: string, headers: Record<string, string> = {}) => {
    if (!scheduledAt.has(profileId)) scheduledAt.set(profileId, slotIn(7));
    const body = { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: scheduledAt.get(profileId) };
    return api.request('POST', '/api/v1/appointments', { key, headers, body });
  };

  it('answers 503 with Retry-After and writes nothing when DynamoDB cancels its transaction for throttling', async () => {
    const profileId = await createProfile(api, key);
    const before = await tableDigest();
    const { result } = await dynamoFault(transactionCancelled('ThrottlingError'), command('TransactWriteItemsCommand'), () => book(profileId));
    expectTryAgainLater(result);
    expect(await tableDigest()).toBe(before);
  });

  it('answers 503 when the Idempotency-Key record cannot be written, and the same key then books once', async () => {
    const profileId = await createProfile(api, key);
    const headers = { 'idempotency-key': `faults-${profileId}` };
    const { result } = await dynamoFault(dynamoError(500, 'InternalServerError'), mentioning('IDEMPOTENCY'), () => book(profileId, headers));
    expectTryAgainLater(result);
    const retried = await book(profileId, headers);
    expect(retried.status).toBe(201);
    expect((await api.get(`/api/v1/profiles/${profileId}/appointments`, key)).body).toHaveLength(1);
  });

  it('answers the booking with 201 when its Idempotency-Key record cannot be completed, and a retry while that record is in progress answers 409, booking nothing more', async () => {
    const profileId = await createProfile(api, key);
    const headers = { 'idempotency-key': `faults-done-${profileId}` };
    const { result } = await dynamoFault(dynamoError(500, 'InternalServerError'), mentioning('IDEMPOTENCY', 'UpdateItemCommand'), () =>
      book(profileId, headers),
    );
    expect(result.status).toBe(201);
    expect((await book(profileId, headers)).status).toBe(409);
    expect((await api.get(`/api/v1/profiles/${profileId}/appointments`, key)).body).toHaveLength(1);
  });

  it("answers the booking's own error when its failed booking cannot release its Idempotency-Key record, and a retry before the deadline answers 409", async () => {
    const profileId = await createProfile(api, key);
    const headers = { 'idempotency-key': `faults-release-${profileId}` };
    // The release fails in a way that would answer 500 if it reached the client; the booking's own failure answers 503.
    const { result } = await dynamoFault(dynamoError(400, 'ValidationException'), mentioning('IDEMPOTENCY#', 'DeleteItemCommand'), () =>
      dynamoFault(dynamoError(500, 'InternalServerError'), command('TransactWriteItemsCommand'), () => book(profileId, headers)),
    );
    expectTryAgainLater(result.result);
    expect((await book(profileId, headers)).status).toBe(409);
    expect((await api.get(`/api/v1/profiles/${profileId}/appointments`, key)).body).toHaveLength(0);
  });

  it('books exactly once when retried with its Idempotency-Key after its transaction failed', async () => {
    const profileId = await createProfile(api, key);
    const headers = { 'idempotency-key': `faults-tx-${profileId}` };
    const { result } = await dynamoFault(dynamoError(500, 'InternalServerError'), command('TransactWriteItemsCommand'), () => book(profileId, headers));
    expectTryAgainLater(result);
    expect((await book(profileId, headers)).status).toBe(201);
    expect((await book(profileId, headers)).headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get(`/api/v1/profiles/${profileId}/appointments`, key)).body).toHaveLength(1);
  });
});

describe('transitions while DynamoDB cannot answer', () => {
  const confirm = (id: string, barcode = newBarcode()) => api.post(`/api/v1/appointments/${id}/confirm`, { barcode }, key);

  it.each([['TransactionConflict'], ['ThrottlingError']])(
    'answers a confirm whose transaction DynamoDB cancels for %s with 503, writing and publishing nothing',
    async (code) => {
      const id = await drawableAppointment(api, key);
      const before = await tableDigest();
      eventBridge.client.resetHistory();
      const { result } = await dynamoFault(transactionCancelled(code), command('TransactWriteItemsCommand'), () => confirm(id));
      expectTryAgainLater(result);
      expect(await tableDigest()).toBe(before);
      expect(eventBridge.entries()).toEqual([]);
    },
  );

  it('still answers 409 when the cancellation reason is a failed condition', async () => {
    const id = await drawableAppointment(api, key);
    const { result } = await dynamoFault(transactionCancelled('ConditionalCheckFailed'), command('TransactWriteItemsCommand'), () => confirm(id));
    expect(result.status).toBe(409);
  });

  it('confirms once the conflict is over, with one history entry for the draw', async () => {
    const id = await drawableAppointment(api, key);
    const barcode = newBarcode();
    await dynamoFault(transactionCancelled('TransactionConflict'), command('TransactWriteItemsCommand'), () => confirm(id, barcode));
    expect((await confirm(id, barcode)).status).toBe(200);
    expect(await history(id)).toEqual(['scheduled', 'blood_drawn']);
  });

  it('answers a cancel whose transaction DynamoDB cancels for ProvisionedThroughputExceeded with 503, leaving it scheduled', async () => {
    const id = await drawableAppointment(api, key);
    const before = await tableDigest();
    const { result } = await dynamoFault(transactionCancelled('ProvisionedThroughputExceeded'), command('TransactWriteItemsCommand'), () =>
      api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'fault test' }, key),
    );
    expectTryAgainLater(result);
    expect(await tableDigest()).toBe(before);
  });

  it('answers a PATCH that meets a TransactionConflictException with 503 and changes nothing', async () => {
    const id = await createProfile(api, key);
    const before = await tableDigest();
    const { result } = await dynamoFault(dynamoError(400, 'TransactionConflictException'), command('UpdateItemCommand'), () =>
      api.patch(`/api/v1/profiles/${id}`, { first_name: 'Changed' }, key),
    );
    expectTryAgainLater(result);
    expect(await tableDigest()).toBe(before);
  });
});

describe('use cases of several writes while DynamoDB cannot answer', () => {
  const pickup = (ids: string[]) => api.post('/api/v1/appointments/pickup', { appointment_ids: ids }, courier);

  async function drawn(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const id = await drawableAppointment(api, key);
      await confirmDraw(api, key, id);
      ids.push(id);
    }
    return ids;
  }

  it('answers a pickup of several appointments whose transaction is throttled with 503, moving none', async () => {
    const ids = await drawn(3);
    const before = await tableDigest();
    const { result } = await dynamoFault(transactionCancelled('ThrottlingError'), command('TransactWriteItemsCommand'), () => pickup(ids));
    expectTryAgainLater(result);
    expect(await tableDigest()).toBe(before);
  });

  it('finishes that pickup when retried: every appointment in transit, one history entry each', async () => {
    const ids = await drawn(3);
    await dynamoFault(networkError('ECONNRESET'), command('TransactWriteItemsCommand'), () => pickup(ids));
    expect((await pickup(ids)).status).toBe(200);
    for (const id of ids) expect(await history(id)).toEqual(['scheduled', 'blood_drawn', 'in_transit']);
  });

  it('answers 503, not a hang, when DynamoDB keeps returning the keys of a pickup unprocessed', async () => {
    const ids = await drawn(2);
    const unprocessed: Fault = (call) => ({
      statusCode: 200,
      headers: { 'content-type': 'application/x-amz-json-1.0' },
      body: JSON.stringify({ Responses: {}, UnprocessedKeys: call.input.RequestItems }),
    });
    const { result } = await dynamoFault(unprocessed, command('BatchGetItemCommand'), () => pickup(ids));
    expect({ status: result.status, body: result.body, retryAfter: result.headers.get('retry-after') }).toEqual({
      status: 503,
      body: { error: ITEMS_NOT_READ },
      retryAfter: '1',
    });
    for (const id of ids) expect((await storedAppointment(id)).status).toBe('blood_drawn');
  });

  describe('an erasure that fails midway', () => {
    let profileId: string;
    let appointments: string[];
    let stuck: string;
    let first: ApiResponse;

    beforeAll(async () => {
      profileId = await createProfile(api, key);
      appointments = [];
      for (let i = 0; i < 3; i += 1) appointments.push(await drawableAppointment(api, key, { profileId, scheduledAt: slotIn(7 + i) }));
      stuck = appointments[1] as string;
      // Only the cancellation of one appointment fails: whatever the order, the sweep stops there.
      ({ result: first } = await dynamoFault(dynamoError(500, 'InternalServerError'), mentioning(stuck, 'TransactWriteItemsCommand'), () =>
        api.request('POST', `/api/v1/profiles/${profileId}/erase`, { key }),
      ));
    });

    it('answers 503 with Retry-After', () => {
      expectTryAgainLater(first);
    });

    it('leaves the profile erased and each appointment either untouched or cancelled with its history entry', async () => {
      expect((await api.get(`/api/v1/profiles/${profileId}`, key)).body.erased_at).toEqual(expect.any(String));
      expect((await storedAppointment(stuck)).status).toBe('scheduled');
      for (const id of appointments) {
        const status = (await storedAppointment(id)).status;
        expect(await history(id)).toEqual(status === 'cancelled' ? ['scheduled', 'cancelled'] : ['scheduled']);
      }
    });

    it('is finished by a retry: every appointment cancelled once', async () => {
      const retried = await api.request('POST', `/api/v1/profiles/${profileId}/erase`, { key });
      expect(retried.status).toBe(200);
      expect(retried.body.cancelled_appointment_ids).toContain(stuck);
      for (const id of appointments) expect(await history(id)).toEqual(['scheduled', 'cancelled']);
    });
  });
});
