/**
 * The access log (docs/privacy.md "Privacy"): every successful answer that shows a person's data — a read, or a
 * change that answers the person — writes one entry before the answer leaves, a refused or failed request
 * writes none, an answer whose entry cannot be written is a 503 that shows nothing, and
 * GET /profiles/{id}/access-log lists the entries newest first. Entries are asserted as stored.
 *
 * The whole file runs with a fixed clock (LAB_CLOCK, an hour behind), the worst case for the log: every
 * entry would tie if `at` followed it. Entries must carry the real time of the read.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.LAB_CLOCK = new Date(Date.now() - 3_600_000).toISOString();
});

import { deleteObject, s3 } from '../../shared/documents/s3';
import { AUDITED_ROUTES } from '../../shared/http/audited-routes';
import type { RouteName } from '../../shared/routes';
import { recordReads } from '../../shared/store/access-log';
import { dynamo, tableName } from '../../shared/store/client';
import { getDocument } from '../../shared/store/documents';
import { accessLogOf, unmatchedAccessLogOf } from '../../shared/store/keys';
import { unmatchedIdOf } from '../../shared/usecases/keep-unmatched-result';
import { TTL_ATTRIBUTE } from '../../shared/store/table';
import { type ApiResponse, useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, apiKeyWithId, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { clinical, deliver, report, uploadIncoming } from '../support/lab';
import { CARDIOGENETICS_PANEL, confirmDraw, createProfile, newBarcode, scheduleAppointment, slotIn } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;
let keyId: string;

beforeAll(async () => {
  await seedDemoData();
  ({ plaintext: key, keyId } = await apiKeyWithId());
});

type Stored = Record<string, unknown>;

/** The access-log items of a profile as stored, oldest first. */
async function storedEntries(profileId: string): Promise<Stored[]> {
  const { PK } = accessLogOf(profileId);
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PK }, ConsistentRead: true }),
  );
  return Items ?? [];
}

/** What `read` added to the profile's access log. */
async function entriesAddedBy(profileId: string, read: () => Promise<unknown>): Promise<Stored[]> {
  const before = new Set((await storedEntries(profileId)).map((item) => item.SK));
  await read();
  return (await storedEntries(profileId)).filter((item) => !before.has(item.SK));
}

const ok = (status: number) => expect(status).toBeLessThan(300);

/** Above the 4 MiB a document route answers itself: it answers 303 to a presigned URL. */
const LARGE_FILE_BYTES = 4 * 1024 * 1024 + 1;

/** A drawn appointment of the profile with one reported result and a lab report file of `bytes`. */
async function reportedAppointment(profileId: string, bytes: Buffer): Promise<{ appointmentId: string; documentId: string }> {
  const appointmentId = await scheduleAppointment(api, key, { profileId });
  await confirmDraw(api, key, appointmentId);
  const incoming = await uploadIncoming(bytes);
  await deliver(
    report(appointmentId, { clinical_results: [clinical(1, 5)], documents: [{ s3_key: incoming, file_name: 'r.pdf', content_type: 'application/pdf' }] }),
  );
  const documentId = (await api.get(`/api/v1/appointments/${appointmentId}/results`, key)).body.documents[0].id as string;
  return { appointmentId, documentId };
}

/** A pending kit order of the profile, delivered to a test location. */
async function kitOrder(profileId: string): Promise<string> {
  const kit = await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: { location_id: BERLIN_MITTE } }, key);
  expect(kit.status).toBe(201);
  return kit.body.id as string;
}

/** A kit order with a panel, in the mail. */
async function dispatchedKitOrder(profileId: string): Promise<string> {
  const kitId = await kitOrder(profileId);
  ok((await api.post(`/api/v1/home-kit-orders/${kitId}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key)).status);
  ok((await api.post(`/api/v1/home-kit-orders/${kitId}/dispatch`, { tracking_number: 'TRACK-0001' }, key)).status);
  return kitId;
}

/** A person with a drawn appointment, one reported result and a lab report file, and a pending kit order. */
async function person() {
  const profileId = await createProfile(api, key);
  const reported = await reportedAppointment(profileId, Buffer.from('%PDF-1.7 access log'));
  // Set by an arrangement that needs a lab report that matched no order (withUnmatchedResult).
  return { profileId, ...reported, kitId: await kitOrder(profileId), unmatchedId: '' };
}

/** A lab report for a barcode no order holds, naming a person (issue #51): the id of the unmatched result it is kept as. */
async function unmatchedResult(): Promise<string> {
  const detail = {
    ...report(UNKNOWN_ID, { clinical_results: [clinical(1, 5)], patient: { name: 'Unbekannt, Irmgard', date_of_birth: '1950-01-01' } }),
    appointment_id: undefined,
    barcode: newBarcode(),
  };
  expect(await deliver(detail)).toEqual({ outcome: 'unmatched' });
  return unmatchedIdOf(detail.event_id);
}

type Person = Awaited<ReturnType<typeof person>>;

/** A request that shows a person's data: its route, what it needs made first, and what its entry says was shown. */
interface Shows {
  route: RouteName;
  /** Named when one route is listed twice (the document route: inline, and a 303 above 4 MiB). */
  case?: string;
  /** What the request uses up or needs of its own (an appointment to cancel, a kit to dispatch), made beforehand. */
  arrange?: (p: Person) => Promise<Person>;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (p: Person) => string;
  body?: (p: Person) => unknown;
  resource: (p: Person, answer: ApiResponse) => string;
}

const send = ({ method = 'GET', path, body }: Shows, p: Person) => api.request(method, path(p), { key, body: body?.(p) });
const withScheduledAppointment = async (p: Person) => ({ ...p, appointmentId: await scheduleAppointment(api, key, { profileId: p.profileId }) });

/** A drawn appointment of the person whose haemoglobin (biomarker 2) the lab reported critical. */
async function withCriticalResult(p: Person): Promise<Person> {
  const appointmentId = await scheduleAppointment(api, key, { profileId: p.profileId });
  await confirmDraw(api, key, appointmentId);
  await deliver(report(appointmentId, { clinical_results: [clinical(2, 25)] }));
  return { ...p, appointmentId };
}

/** A drawn appointment of the person testing ferritin (1), and a lab report of it that matched no order, to match to it. */
async function withUnmatchedResult(p: Person): Promise<Person> {
  const appointmentId = await scheduleAppointment(api, key, { profileId: p.profileId });
  await confirmDraw(api, key, appointmentId);
  return { ...p, appointmentId, unmatchedId: await unmatchedResult() };
}

const named = (list: Shows[]) => list.map((shows) => ({ ...shows, name: shows.case ? `${shows.route}, ${shows.case},` : shows.route }));

/** Every request that shows a person's data (the routes of shared/http/audited-routes.ts). */
const SHOWS = named([
  { route: 'getProfile', path: (p) => `/api/v1/profiles/${p.profileId}`, resource: () => 'profile' },
  { route: 'exportProfile', path: (p) => `/api/v1/profiles/${p.profileId}/export`, resource: () => 'profile export' },
  { route: 'listProfileAppointments', path: (p) => `/api/v1/profiles/${p.profileId}/appointments`, resource: () => 'profile appointments' },
  { route: 'listProfileHomeKitOrders', path: (p) => `/api/v1/profiles/${p.profileId}/home-kit-orders`, resource: () => 'profile home kit orders' },
  { route: 'listProfileMessages', path: (p) => `/api/v1/profiles/${p.profileId}/messages`, resource: () => 'profile messages' },
  { route: 'getAppointment', path: (p) => `/api/v1/appointments/${p.appointmentId}`, resource: (p) => `appointment ${p.appointmentId}` },
  {
    route: 'listAppointmentHistory',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/history`,
    resource: (p) => `appointment ${p.appointmentId} history`,
  },
  { route: 'getAppointmentResults', path: (p) => `/api/v1/appointments/${p.appointmentId}/results`, resource: (p) => `appointment ${p.appointmentId} results` },
  {
    route: 'getAppointmentResultsHistory',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/results/history`,
    resource: (p) => `appointment ${p.appointmentId} results history`,
  },
  {
    route: 'acknowledgeAppointmentResults',
    arrange: withCriticalResult,
    method: 'POST',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/results/acknowledge`,
    resource: (p) => `appointment ${p.appointmentId} results`,
  },
  {
    route: 'getAppointmentResultsFhir',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/results/fhir`,
    resource: (p) => `appointment ${p.appointmentId} results FHIR`,
  },
  {
    route: 'getAppointmentOrderFhir',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/order/fhir`,
    resource: (p) => `appointment ${p.appointmentId} order FHIR`,
  },
  {
    route: 'getAppointmentResultsReport',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/results/report`,
    resource: (p) => `appointment ${p.appointmentId} results report`,
  },
  {
    route: 'getAppointmentRequisition',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/requisition`,
    resource: (p) => `appointment ${p.appointmentId} requisition`,
  },
  { route: 'getDocument', path: (p) => `/api/v1/documents/${p.documentId}`, resource: (p) => `document ${p.documentId}` },
  {
    route: 'getDocument',
    case: 'above 4 MiB (303)',
    // The client (fetch) follows the 303 to the presigned URL: the entry is written before the 303 leaves.
    arrange: async (p) => ({ ...p, ...(await reportedAppointment(p.profileId, randomBytes(LARGE_FILE_BYTES))) }),
    path: (p) => `/api/v1/documents/${p.documentId}`,
    resource: (p) => `document ${p.documentId}`,
  },
  { route: 'getHomeKitOrder', path: (p) => `/api/v1/home-kit-orders/${p.kitId}`, resource: (p) => `home kit order ${p.kitId}` },
  { route: 'listHomeKitOrderHistory', path: (p) => `/api/v1/home-kit-orders/${p.kitId}/history`, resource: (p) => `home kit order ${p.kitId} history` },
  {
    route: 'getHomeKitOrderRequisition',
    // An activated kit: its requisition is made then.
    arrange: async (p) => {
      const kitId = await dispatchedKitOrder(p.profileId);
      ok((await api.post(`/api/v1/home-kit-orders/${kitId}/activate`, { barcode: newBarcode() }, key)).status);
      return { ...p, kitId };
    },
    path: (p) => `/api/v1/home-kit-orders/${p.kitId}/requisition`,
    resource: (p) => `home kit order ${p.kitId} requisition`,
  },
  // Changes that answer the person.
  { route: 'updateProfile', method: 'PATCH', path: (p) => `/api/v1/profiles/${p.profileId}`, body: () => ({ weight: 70 }), resource: () => 'profile' },
  {
    route: 'createAppointment',
    method: 'POST',
    path: () => '/api/v1/appointments',
    body: (p) => ({ profile_id: p.profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }),
    resource: (_, answer) => `appointment ${answer.body.id}`,
  },
  {
    route: 'updateAppointment',
    arrange: withScheduledAppointment,
    method: 'PATCH',
    path: (p) => `/api/v1/appointments/${p.appointmentId}`,
    body: () => ({ scheduled_at: slotIn(8) }),
    resource: (p) => `appointment ${p.appointmentId}`,
  },
  {
    route: 'cancelAppointment',
    arrange: withScheduledAppointment,
    method: 'POST',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/cancel`,
    body: () => ({ cancellation_reason: 'The patient asked to' }),
    resource: (p) => `appointment ${p.appointmentId}`,
  },
  {
    route: 'createHomeKitOrder',
    method: 'POST',
    path: () => '/api/v1/home-kit-orders',
    body: (p) => ({ profile_id: p.profileId, delivery_address: { location_id: BERLIN_MITTE } }),
    resource: (_, answer) => `home kit order ${answer.body.id}`,
  },
  {
    route: 'attachHomeKitOrderPanels',
    method: 'POST',
    path: (p) => `/api/v1/home-kit-orders/${p.kitId}/panels`,
    body: () => ({ panel_ids: [CARDIOGENETICS_PANEL] }),
    resource: (p) => `home kit order ${p.kitId}`,
  },
  {
    route: 'attachHomeKitOrderBiomarkers',
    method: 'POST',
    path: (p) => `/api/v1/home-kit-orders/${p.kitId}/biomarkers`,
    body: () => ({ biomarker_ids: [5] }),
    resource: (p) => `home kit order ${p.kitId}`,
  },
  {
    route: 'dispatchHomeKitOrder',
    arrange: async (p) => {
      const kitId = await kitOrder(p.profileId);
      ok((await api.post(`/api/v1/home-kit-orders/${kitId}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key)).status);
      return { ...p, kitId };
    },
    method: 'POST',
    path: (p) => `/api/v1/home-kit-orders/${p.kitId}/dispatch`,
    body: () => ({ tracking_number: 'TRACK-0002' }),
    resource: (p) => `home kit order ${p.kitId}`,
  },
  {
    route: 'activateHomeKitOrder',
    arrange: async (p) => ({ ...p, kitId: await dispatchedKitOrder(p.profileId) }),
    method: 'POST',
    path: (p) => `/api/v1/home-kit-orders/${p.kitId}/activate`,
    body: () => ({ barcode: newBarcode() }),
    resource: (p) => `home kit order ${p.kitId}`,
  },
  {
    route: 'cancelHomeKitOrder',
    arrange: async (p) => ({ ...p, kitId: await kitOrder(p.profileId) }),
    method: 'DELETE',
    path: (p) => `/api/v1/home-kit-orders/${p.kitId}`,
    resource: (p) => `home kit order ${p.kitId}`,
  },
  // A lab report that matched no order, matched: its results are the person's now (issue #51).
  {
    route: 'matchUnmatchedResult',
    arrange: withUnmatchedResult,
    method: 'POST',
    path: (p) => `/api/v1/lab/unmatched-results/${p.unmatchedId}/match`,
    body: (p) => ({ appointment_id: p.appointmentId }),
    resource: (p) => `unmatched result ${p.unmatchedId}`,
  },
]);

/**
 * Routes that record reads proven in another file: one needs a sandbox key (test/integration/sandbox.test.ts); the
 * patient's page needs a link, not a key, and records the link as its reader (test/integration/patient-page.test.ts
 * "records the view in the access log, the link as its reader, with no address").
 */
const PROVEN_ELSEWHERE: readonly RouteName[] = ['simulateSandboxResults', 'getPatientPage'];
/** Routes that show a person no profile names yet (issue #51), proven below ("a lab report that matched no order"). */
const SHOWS_UNMATCHED: readonly RouteName[] = ['listUnmatchedResults'];

describe('the requests that show a person', () => {
  it('are every route that records reads, and no other', () => {
    expect([...new Set([...SHOWS.map((shows) => shows.route), ...PROVEN_ELSEWHERE, ...SHOWS_UNMATCHED])].sort()).toEqual([...AUDITED_ROUTES].sort());
  });
});

describe('a lab report that matched no order, shown with the patient the lab named', () => {
  /** The access-log items of an unmatched result as stored. */
  async function unmatchedEntries(unmatchedId: string): Promise<Stored[]> {
    const { PK } = unmatchedAccessLogOf(unmatchedId);
    const { Items } = await dynamo.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PK }, ConsistentRead: true }),
    );
    return Items ?? [];
  }

  it("GET /api/v1/lab/unmatched-results writes one entry per result shown, in that result's own access log (no profile names it yet)", async () => {
    const [first, second] = [await unmatchedResult(), await unmatchedResult()];
    const res = await api.get('/api/v1/lab/unmatched-results', key);
    expect(res.body.map((item: { id: string }) => item.id)).toEqual(expect.arrayContaining([first, second]));
    for (const id of [first, second]) {
      const entries = await unmatchedEntries(id);
      expect(entries).toHaveLength(1);
      const { PK, SK: _sk, [TTL_ATTRIBUTE]: expiresAt, ...entry } = entries[0]!;
      expect([PK, typeof expiresAt]).toEqual([`ACCESS#UNMATCHED#${id}`, 'number']);
      expect(entry).toEqual({
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        key_id: keyId,
        route: 'listUnmatchedResults',
        resource: `unmatched result ${id}`,
        unmatched_result_id: id,
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        source_ip: expect.stringMatching(/127\.0\.0\.1|::1/),
      });
    }
  });

  it('GET /api/v1/lab/unmatched-results answers 503 and shows nothing when its entries cannot be written', async () => {
    await unmatchedResult();
    const res = await withAccessLogDown(() => api.get('/api/v1/lab/unmatched-results', key));
    expect([res.status, res.body]).toEqual([503, { error: 'This read could not be recorded in the access log, so nothing is shown; retry the request' }]);
  });

  it("a match writes its entry in the profile of the appointment it matched, and none in the result's own log", async () => {
    const subject = await withUnmatchedResult(await person());
    const added = await entriesAddedBy(subject.profileId, async () =>
      expect((await api.post(`/api/v1/lab/unmatched-results/${subject.unmatchedId}/match`, { appointment_id: subject.appointmentId }, key)).status).toBe(200),
    );
    expect(added.map((entry) => [entry.route, entry.resource])).toEqual([['matchUnmatchedResult', `unmatched result ${subject.unmatchedId}`]]);
    expect(await unmatchedEntries(subject.unmatchedId)).toEqual([]);
  });
});

describe('every successful answer that shows a person’s data', () => {
  let subject: Person;
  beforeAll(async () => {
    subject = await person();
  });

  it.each(SHOWS)('$name writes exactly one access-log entry naming what it showed, and no field value', async (shows) => {
    const target = shows.arrange ? await shows.arrange(subject) : subject;
    let answer: ApiResponse | undefined;
    const added = await entriesAddedBy(target.profileId, async () => {
      answer = await send(shows, target);
      ok(answer.status);
    });
    expect(added).toHaveLength(1);
    const { PK, SK, [TTL_ATTRIBUTE]: expiresAt, ...entry } = added[0]!;
    expect(PK).toBe(`ACCESS#${target.profileId}`);
    expect(typeof SK).toBe('string');
    expect(typeof expiresAt).toBe('number');
    expect(entry).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      key_id: keyId,
      route: shows.route,
      resource: shows.resource(target, answer!),
      profile_id: target.profileId,
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      source_ip: expect.stringMatching(/127\.0\.0\.1|::1/),
    });
  });
});

describe('a read that does not succeed', () => {
  let subject: Person;
  beforeAll(async () => {
    subject = await person();
  });

  it('writes no entry when the key may not see the person (403)', async () => {
    const otherTenant = await apiKey({ profileGroups: ['partner-clinic'] });
    const added = await entriesAddedBy(subject.profileId, async () =>
      expect((await api.get(`/api/v1/profiles/${subject.profileId}`, otherTenant)).status).toBe(403),
    );
    expect(added).toEqual([]);
  });

  it('writes no entry when the key lacks the scope (403)', async () => {
    const noResults = await apiKey({ scopes: ['PROFILES_VIEW'] });
    const added = await entriesAddedBy(subject.profileId, async () =>
      expect((await api.get(`/api/v1/appointments/${subject.appointmentId}/results`, noResults)).status).toBe(403),
    );
    expect(added).toEqual([]);
  });

  it('writes no entry when the input is refused (400)', async () => {
    const added = await entriesAddedBy(subject.profileId, async () =>
      expect((await api.get(`/api/v1/profiles/${subject.profileId}/appointments?limit=0`, key)).status).toBe(400),
    );
    expect(added).toEqual([]);
  });

  it('writes no entry for an unknown resource (404)', async () => {
    const added = await entriesAddedBy(UNKNOWN_ID, async () => expect((await api.get(`/api/v1/profiles/${UNKNOWN_ID}`, key)).status).toBe(404));
    expect(added).toEqual([]);
  });

  it('writes no entry when the read fails after its access check (503: the file could not be read)', async () => {
    let failed = 0;
    const failGetObject = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      // The only S3 call of GET /documents/{id} for a small file: reading the object, after the access check.
      if ((args as { input?: { Key?: unknown } }).input?.Key !== undefined) {
        failed += 1;
        // As the SDK throws it once its retries gave up (`$metadata` set: shared/http/errors.ts isTryAgainLater).
        throw Object.assign(new Error('injected: S3 unavailable'), { name: 'ServiceUnavailable', $fault: 'server', $metadata: { httpStatusCode: 503 } });
      }
      return next(args);
    };
    s3.middlewareStack.add(failGetObject as never, { step: 'initialize', name: 'failGetObject' });
    try {
      const added = await entriesAddedBy(subject.profileId, async () =>
        expect((await api.get(`/api/v1/documents/${subject.documentId}`, key)).status).toBe(503),
      );
      expect(failed).toBeGreaterThan(0);
      expect(added).toEqual([]);
    } finally {
      s3.middlewareStack.remove('failGetObject');
    }
  });

  it('writes its entry when only completing the Idempotency-Key record fails (201: the create is answered, showing the person)', async () => {
    // The create is written and its answer ready; only then does completing its record (an UpdateItem) fail.
    // shared/http/idempotency.ts answers the create anyway (an error would make the client create twice), so
    // the answer shows the person and its entry is written.
    let failed = 0;
    const failIdempotencySave = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      const pk = (args as { input?: { Key?: { PK?: unknown } } }).input?.Key?.PK;
      const partition = typeof pk === 'string' ? pk : (pk as { S?: string } | undefined)?.S;
      if (context.commandName === 'UpdateItemCommand' && partition?.startsWith('IDEMPOTENCY#')) {
        failed += 1;
        throw Object.assign(new Error('injected: service unavailable'), { name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 500 } });
      }
      return next(args);
    };
    dynamo.middlewareStack.add(failIdempotencySave as never, { step: 'initialize', name: 'failIdempotencySave' });
    try {
      let created: ApiResponse | undefined;
      const added = await entriesAddedBy(subject.profileId, async () => {
        created = await api.request('POST', '/api/v1/home-kit-orders', {
          key,
          headers: { 'Idempotency-Key': randomUUID() },
          body: { profile_id: subject.profileId, delivery_address: { location_id: BERLIN_MITTE } },
        });
        expect(created.status).toBe(201);
      });
      expect(failed).toBeGreaterThan(0);
      expect(added.map((entry) => [entry.route, entry.resource])).toEqual([['createHomeKitOrder', `home kit order ${created!.body.id}`]]);
    } finally {
      dynamo.middlewareStack.remove('failIdempotencySave');
    }
  });

  it('writes no entry for a document above 4 MiB whose file was deleted (404 after the access check)', async () => {
    const { documentId } = await reportedAppointment(subject.profileId, randomBytes(LARGE_FILE_BYTES));
    // What the bucket's lifecycle rule does after the retention period (docs/privacy.md "Privacy").
    await deleteObject((await getDocument(documentId))!.s3_key);
    const added = await entriesAddedBy(subject.profileId, async () => expect((await api.get(`/api/v1/documents/${documentId}`, key)).status).toBe(404));
    expect(added).toEqual([]);
  });
});

/** Fails, at the SDK's edge, every PutItem into an access-log partition, as DynamoDB would when unavailable. */
async function withAccessLogDown<T>(run: () => Promise<T>): Promise<T> {
  const failAccessLogPuts = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
    const pk = (args as { input?: { Item?: { PK?: unknown } } }).input?.Item?.PK;
    const partition = typeof pk === 'string' ? pk : (pk as { S?: string } | undefined)?.S;
    if (partition?.startsWith('ACCESS#')) throw Object.assign(new Error('injected: service unavailable'), { name: 'InternalServerError', $fault: 'server' });
    return next(args);
  };
  dynamo.middlewareStack.add(failAccessLogPuts as never, { step: 'initialize', name: 'failAccessLogPuts' });
  try {
    return await run();
  } finally {
    dynamo.middlewareStack.remove('failAccessLogPuts');
  }
}

describe('an answer whose access-log entry cannot be written', () => {
  let subject: Person;
  beforeAll(async () => {
    subject = await person();
  });

  it.each(SHOWS)('$name answers 503 and shows nothing', async (shows) => {
    const target = shows.arrange ? await shows.arrange(subject) : subject;
    const res = await withAccessLogDown(() => send(shows, target));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      error:
        (shows.method ?? 'GET') === 'GET'
          ? 'This read could not be recorded in the access log, so nothing is shown; retry the request'
          : 'The change was made, but its answer could not be recorded in the access log, so nothing is shown; read the resource rather than repeat the change',
    });
  });

  it('leaves a change made: the appointment stays cancelled, and reading it is recorded', async () => {
    const appointmentId = await scheduleAppointment(api, key, { profileId: subject.profileId });
    const cancel = () => api.post(`/api/v1/appointments/${appointmentId}/cancel`, { cancellation_reason: 'The patient asked to' }, key);
    expect((await withAccessLogDown(cancel)).status).toBe(503);
    const added = await entriesAddedBy(subject.profileId, async () => {
      const res = await api.get(`/api/v1/appointments/${appointmentId}`, key);
      expect(res.body.status).toBe('cancelled');
    });
    expect(added.map((entry) => entry.resource)).toEqual([`appointment ${appointmentId}`]);
  });
});

describe('an access-log entry as stored', () => {
  it('is never replaced: a second put of the same entry is refused and the first stays', async () => {
    const profileId = await createProfile(api, key);
    const entry = {
      at: new Date().toISOString(),
      key_id: keyId,
      route: 'getProfile',
      resource: 'profile',
      profile_id: profileId,
      request_id: randomUUID(),
      source_ip: '127.0.0.1',
    };
    await recordReads([entry], 730);
    await expect(recordReads([{ ...entry, key_id: 'key_forged', resource: 'nothing' }], 730)).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
    const stored = await storedEntries(profileId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ key_id: keyId, resource: 'profile' });
  });
});

describe('GET /api/v1/profiles/{id}/access-log', () => {
  const accessLog = (profileId: string, withKey = key, query = '') => api.get(`/api/v1/profiles/${profileId}/access-log${query}`, withKey);

  it('lists who read the person, newest first', async () => {
    const profileId = await createProfile(api, key);
    for (const path of ['', '/appointments', '/home-kit-orders']) ok((await api.get(`/api/v1/profiles/${profileId}${path}`, key)).status);
    const res = await accessLog(profileId);
    expect(res.status).toBe(200);
    expect(res.body.map((entry: { resource: string }) => entry.resource)).toEqual(['profile home kit orders', 'profile appointments', 'profile']);
    expect(res.body[0]).toMatchObject({ key_id: keyId, route: 'listProfileHomeKitOrders', profile_id: profileId });
  });

  it('answers the entries a page at a time, with X-Next-Cursor while more follow', async () => {
    const profileId = await createProfile(api, key);
    for (let i = 0; i < 3; i++) ok((await api.get(`/api/v1/profiles/${profileId}`, key)).status);
    const first = await accessLog(profileId, key, '?limit=2');
    expect(first.body).toHaveLength(2);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const rest = await accessLog(profileId, key, `?limit=2&cursor=${encodeURIComponent(cursor!)}`);
    expect(rest.body).toHaveLength(1);
    expect(rest.headers.get('x-next-cursor')).toBeNull();
    const requests = [...first.body, ...rest.body].map((entry: { request_id: string }) => entry.request_id);
    expect(new Set(requests).size).toBe(3);
  });

  it('is not itself recorded in the access log', async () => {
    const profileId = await createProfile(api, key);
    const added = await entriesAddedBy(profileId, async () => expect((await accessLog(profileId)).status).toBe(200));
    expect(added).toEqual([]);
  });

  it('stamps each entry with the real time of the read, not the fixed clock (LAB_CLOCK)', async () => {
    const profileId = await createProfile(api, key);
    const before = Date.now();
    const [entry] = await entriesAddedBy(profileId, async () => ok((await api.get(`/api/v1/profiles/${profileId}`, key)).status));
    const after = Date.now();
    expect(Date.parse(entry!.at as string)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(entry!.at as string)).toBeLessThanOrEqual(after);
  });

  it('keeps each entry until its TTL attribute, the configured retention (730 days) after the read', async () => {
    const profileId = await createProfile(api, key);
    const [entry] = await entriesAddedBy(profileId, async () => ok((await api.get(`/api/v1/profiles/${profileId}`, key)).status));
    expect(entry![TTL_ATTRIBUTE]).toBe(Math.floor(Date.parse(entry!.at as string) / 1000) + 730 * 86_400);
  });

  it('answers 401 without a key', async () => {
    const res = await api.get(`/api/v1/profiles/${UNKNOWN_ID}/access-log`);
    expect(res.status).toBe(401);
  });

  it('answers 403 to a key without AUDIT_VIEW', async () => {
    const profileId = await createProfile(api, key);
    const res = await accessLog(profileId, await apiKey({ scopes: ['PROFILES_VIEW', 'RESULTS_VIEW'] }));
    expect(res.status).toBe(403);
    expect(res.body.error).toContain('AUDIT_VIEW');
  });

  it("answers 403 to a key of another tenant, whose groups do not hold the person's", async () => {
    const profileId = await createProfile(api, key);
    const res = await accessLog(profileId, await apiKey({ scopes: ['AUDIT_VIEW'], profileGroups: ['partner-clinic'] }));
    expect(res.status).toBe(403);
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await accessLog(UNKNOWN_ID);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Profile not found' });
  });
});
