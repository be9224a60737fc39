/**
 * The access log (README "Privacy"): every successful read of a person's data writes one entry before the
 * answer leaves, a refused or failed read writes none, a read whose entry cannot be written answers 503, and
 * GET /profiles/{id}/access-log lists the entries newest first. Entries are asserted as stored.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { s3 } from '../../shared/documents/s3';
import { dynamo, tableName } from '../../shared/store/client';
import { accessLogOf } from '../../shared/store/keys';
import { TTL_ATTRIBUTE } from '../../shared/store/table';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, apiKeyWithId, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { clinical, deliver, report, uploadIncoming } from '../support/lab';
import { confirmDraw, createProfile, scheduleAppointment } from '../support/scenario';

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

/** A person with a drawn appointment, one reported result and a lab report file, and a kit order. */
async function person() {
  const profileId = await createProfile(api, key);
  const appointmentId = await scheduleAppointment(api, key, { profileId });
  await confirmDraw(api, key, appointmentId);
  const incoming = await uploadIncoming(Buffer.from('%PDF-1.7 access log'));
  await deliver(
    report(appointmentId, { clinical_results: [clinical(1, 5)], documents: [{ s3_key: incoming, file_name: 'r.pdf', content_type: 'application/pdf' }] }),
  );
  const documentId = (await api.get(`/api/v1/appointments/${appointmentId}/results`, key)).body.documents[0].id as string;
  const kit = await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: { location_id: BERLIN_MITTE } }, key);
  expect(kit.status).toBe(201);
  return { profileId, appointmentId, documentId, kitId: kit.body.id as string };
}

type Person = Awaited<ReturnType<typeof person>>;

/** Every read of a person's data: its route name, path and what the entry says was shown. */
const READS: { route: string; path: (p: Person) => string; resource: (p: Person) => string }[] = [
  { route: 'getProfile', path: (p) => `/api/v1/profiles/${p.profileId}`, resource: () => 'profile' },
  { route: 'exportProfile', path: (p) => `/api/v1/profiles/${p.profileId}/export`, resource: () => 'profile export' },
  { route: 'listProfileAppointments', path: (p) => `/api/v1/profiles/${p.profileId}/appointments`, resource: () => 'profile appointments' },
  { route: 'listProfileHomeKitOrders', path: (p) => `/api/v1/profiles/${p.profileId}/home-kit-orders`, resource: () => 'profile home kit orders' },
  { route: 'getAppointment', path: (p) => `/api/v1/appointments/${p.appointmentId}`, resource: (p) => `appointment ${p.appointmentId}` },
  {
    route: 'listAppointmentHistory',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/history`,
    resource: (p) => `appointment ${p.appointmentId} history`,
  },
  { route: 'getAppointmentResults', path: (p) => `/api/v1/appointments/${p.appointmentId}/results`, resource: (p) => `appointment ${p.appointmentId} results` },
  {
    route: 'getAppointmentResultsFhir',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/results/fhir`,
    resource: (p) => `appointment ${p.appointmentId} results FHIR`,
  },
  {
    route: 'getAppointmentResultsReport',
    path: (p) => `/api/v1/appointments/${p.appointmentId}/results/report`,
    resource: (p) => `appointment ${p.appointmentId} results report`,
  },
  { route: 'getDocument', path: (p) => `/api/v1/documents/${p.documentId}`, resource: (p) => `document ${p.documentId}` },
  { route: 'getHomeKitOrder', path: (p) => `/api/v1/home-kit-orders/${p.kitId}`, resource: (p) => `home kit order ${p.kitId}` },
  { route: 'listHomeKitOrderHistory', path: (p) => `/api/v1/home-kit-orders/${p.kitId}/history`, resource: (p) => `home kit order ${p.kitId} history` },
];

describe('every successful read of a person’s data', () => {
  let subject: Person;
  beforeAll(async () => {
    subject = await person();
  });

  it.each(READS)('$route writes exactly one access-log entry naming what it showed, and no field value', async ({ route, path, resource }) => {
    const added = await entriesAddedBy(subject.profileId, async () => ok((await api.get(path(subject), key)).status));
    expect(added).toHaveLength(1);
    const { PK, SK, [TTL_ATTRIBUTE]: expiresAt, ...entry } = added[0]!;
    expect(PK).toBe(`ACCESS#${subject.profileId}`);
    expect(typeof SK).toBe('string');
    expect(typeof expiresAt).toBe('number');
    expect(entry).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      key_id: keyId,
      route,
      resource: resource(subject),
      profile_id: subject.profileId,
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

  it('writes no entry when the read fails after its access check (500: the file could not be read)', async () => {
    const failGetObject = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      // The only S3 call of GET /documents/{id} for a small file: reading the object.
      if ((args as { input?: { Key?: unknown } }).input?.Key !== undefined) {
        throw Object.assign(new Error('injected: S3 unavailable'), { name: 'ServiceUnavailable', $fault: 'server' });
      }
      return next(args);
    };
    s3.middlewareStack.add(failGetObject as never, { step: 'initialize', name: 'failGetObject' });
    try {
      const added = await entriesAddedBy(subject.profileId, async () =>
        expect((await api.get(`/api/v1/documents/${subject.documentId}`, key)).status).toBe(500),
      );
      expect(added).toEqual([]);
    } finally {
      s3.middlewareStack.remove('failGetObject');
    }
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

describe('a read whose access-log entry cannot be written', () => {
  let subject: Person;
  beforeAll(async () => {
    subject = await person();
  });

  it.each(READS)('$route answers 503 and shows nothing', async ({ path }) => {
    const res = await withAccessLogDown(() => api.get(path(subject), key));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'This read could not be recorded in the access log, so nothing is shown; retry the request' });
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
