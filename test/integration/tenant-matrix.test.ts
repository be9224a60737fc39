/**
 * The tenant matrix (issue #17), generated from shared/routes.ts so that a new route is covered with no
 * edit here: for every route that needs a key,
 * - a key of another tenant (test/support/tenants.ts: demo-clinic/berlin against partner-clinic/helsinki)
 *   holding every scope gets 403 for every request naming a tenant-1 resource (each id of the collection a
 *   path parameter follows, each tenant-1 reference a body can hold, its own resource with a tenant-1 one
 *   in the body); a request naming none (a list, a subscription of its own) gets its own answer; tenant 1's
 *   Idempotency-Key and body sent again get 403, not tenant 1's answer; tenant 1's page cursors get 400.
 *   No answer carries a value of tenant 1: every string and number tenant 1 was answered (names, contacts,
 *   birth date, barcodes, ids, addresses, result values, file names, webhook URL and secret, …) is looked
 *   for in the body and the headers (Location, X-Next-Cursor, also base64url-decoded), except what the
 *   request itself sent, enum words and other vocabulary, small integers, strings under 4 characters, and
 *   what tenant 2 may see too, known beforehand (the catalog, its locations, what it sent itself). Its own
 *   resources, deliveries and access log hold no tenant-1 id either;
 * - a key of tenant 1 with every scope but the route's gets 403 (for a route needing all its scopes, also a
 *   key lacking just one of them);
 * - no key, an unknown, a revoked and an expired key get 401;
 * and at the end none of tenant 1's stored items changed, none was added about it, and tenant 1 reads
 * everything as before.
 *
 * docs/endpoints.md (Errors) and docs/api-keys.md document the order 401 → 403 (scope) → 400 → 404 → 403 (access context), so
 * another tenant's existing resource is a 403, never a 404; a cursor is input (400, docs/endpoints.md "Pagination").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../shared/auth/api-keys';
import { SCOPES, type Scope } from '../../shared/domain/scopes';
import { addDays, dateInZone } from '../../shared/domain/calendar';
import { type Route, type RouteName, routeEntries } from '../../shared/routes';
import { revokeApiKey } from '../../shared/store/api-keys/lifecycle';
import { type ApiResponse, useApi } from '../support/api';
import { comparable, itemHash } from '../support/table';
import { mockEventBridge } from '../support/event-bridge';
import { BERLIN_MITTE, BERLIN_PRENZLAUER_BERG, BIOMARKERS, LOCATIONS, PANELS, seedDemoData } from '../support/fixtures';
import {
  deliverTenant1Events,
  ENUM_WORDS,
  IDEMPOTENT_ROUTES,
  isList,
  isPaged,
  jsonOf,
  leaves,
  NO_TENANT_ROUTES,
  type Probe,
  probesOf,
  readsAState,
  type Resources,
  seedTenant1,
  seedTenant2,
  tableItems,
  TENANT_1,
  TENANT_2,
  type Tenant2,
} from '../support/tenants';

const api = useApi();
const eventBridge = mockEventBridge();

/** Routes that need a key: the matrix's rows. Public ones (health, the contract, the docs page) have no tenant. */
const KEYED = routeEntries.filter(([, route]) => route.scopes.length > 0);

/** Tenant 1's own profile group and locations: a body naming one names tenant 1. */
const TENANT_1_FIXED_REFS = [...TENANT_1.profileGroups, ...TENANT_1.locationGroups, BERLIN_MITTE, BERLIN_PRENZLAUER_BERG];

/** Whether a request names a resource of tenant 1, by its path parameters or any value of its body. */
const namesTenant1 = (probe: Probe, refs: ReadonlySet<string | number>) =>
  probe.path.split('/').some((segment) => refs.has(segment)) || [...leaves(probe.body).keys()].some((value) => refs.has(value));

/**
 * What a route's requests name, decided before anything is seeded (test names are fixed when the file is
 * collected): its probes built from placeholder ids.
 */
function kindOf(name: RouteName, route: Route): 'names tenant 1' | 'names nothing of tenant 1' | 'mixed' {
  const placeholders: Resources = new Proxy({}, { get: (_, collection) => [0, 1].map((i) => `tenant-1-${String(collection)}-${i}`) });
  const t2: Tenant2 = {
    key: '',
    keyId: '',
    sent: [],
    profileId: 'tenant-2-profile',
    drawnAppointmentId: 'tenant-2-appointment',
    resources: new Proxy({}, { get: (_, collection) => [`tenant-2-${String(collection)}`] }),
  };
  let probes: Probe[];
  try {
    probes = probesOf(name, route, placeholders, t2);
  } catch {
    return 'names tenant 1'; // its test fails with what to add (probesOf's message)
  }
  const refs = new Set<string | number>(TENANT_1_FIXED_REFS);
  const named = probes.map(
    (probe) =>
      namesTenant1(probe, refs) || probe.path.includes('tenant-1-') || [...leaves(probe.body).keys()].some((value) => String(value).startsWith('tenant-1-')),
  );
  return named.every(Boolean) ? 'names tenant 1' : named.some(Boolean) ? 'mixed' : 'names nothing of tenant 1';
}

let t1: Awaited<ReturnType<typeof seedTenant1>>;
let t2: Tenant2;
/** Ids and slugs of tenant 1. */
let t1Refs: Set<string | number>;
/** Every value tenant 1 was answered that tenant 2 must never see, with where tenant 1 saw it. */
let t1Values: Map<string | number, string>;
/** Tenant 1's JSON answers of every GET route, by path, before the matrix ran. */
let t1ReadsBefore: Map<string, unknown>;
let t1Cursors: Map<RouteName, Probe[]>;
let storedBefore: Awaited<ReturnType<typeof tableItems>>;
let revokedKey: string;
let expiredKey: string;
let requests = 0;

const send = async (route: Route, probe: Probe, key: string | undefined): Promise<ApiResponse> => {
  requests += 1;
  return api.request(route.method, probe.path, { key, body: probe.body });
};

/** A route's requests for tenant 1, or none where the seed lacks something: that route's own tests then fail saying what. */
function probesOrNone(name: RouteName, route: Route): Probe[] {
  try {
    return probesOf(name, route, t1.resources, t2);
  } catch {
    return [];
  }
}

/**
 * Tenant 1's answers to every GET route for each of its resources (and its lists), JSON ones by path. A read
 * of a state (a requisition, after the draw) answers 409 for its resources in another state, and 200 for one
 * at least: the seed has one of each.
 */
async function readTenant1(): Promise<Map<string, unknown>> {
  const reads = new Map<string, unknown>();
  // What belongs to no tenant is not tenant 1's to hide (NO_TENANT_ROUTES, test/support/tenants.ts).
  for (const [name, route] of KEYED.filter(([n, r]) => r.method === 'GET' && !NO_TENANT_ROUTES.has(n))) {
    const statuses: number[] = [];
    for (const probe of probesOrNone(name, route)) {
      const res = await send(route, probe, t1.key);
      statuses.push(res.status);
      expect(res.status, `${probe.path} for tenant 1`).toBe(readsAState(route) && res.status === 409 ? 409 : 200);
      const json = jsonOf(res);
      if (json !== undefined) reads.set(probe.path, json);
    }
    if (readsAState(route) && statuses.length > 0) expect(statuses, `${title(route)} for tenant 1: none answered 200`).toContain(200);
  }
  return reads;
}

/** For every paged list, the cursors of tenant 1's second pages (its lists of each resource with more than one item). */
async function tenant1Cursors(): Promise<Map<RouteName, Probe[]>> {
  const cursors = new Map<RouteName, Probe[]>();
  for (const [name, route] of KEYED.filter(([, r]) => r.method === 'GET' && isPaged(r))) {
    const found: Probe[] = [];
    for (const probe of probesOrNone(name, route)) {
      const cursor = (await send(route, { path: `${probe.path}?limit=1` }, t1.key)).headers.get('x-next-cursor');
      if (cursor) found.push({ path: `${probe.path}?cursor=${encodeURIComponent(cursor)}` });
    }
    cursors.set(name, found);
  }
  return cursors;
}

/** Tenant 2's own requests of every GET route: its lists, and each of its resources it has one of. */
function tenant2OwnReads(): [Route, Probe][] {
  return KEYED.filter(([, route]) => route.method === 'GET').flatMap(([name, route]): [Route, Probe][] => {
    try {
      return probesOf(name, route, t2.resources, t2).map((probe) => [route, probe]);
    } catch {
      return []; // a collection tenant 2 has nothing of
    }
  });
}

const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1005 - (Date.now() % 1000)));

/**
 * What both tenants may see, never read from an answer to tenant 2 (which could carry a leak): the catalog
 * (as seeded, and as the API answers it to tenant 1), tenant 2's locations, and what tenant 2's seeding sent.
 */
async function legitimateForTenant2(): Promise<Set<string | number>> {
  const helsinki = LOCATIONS.filter((location) => TENANT_2.locationGroups.includes(location.location_group_slug));
  const catalog = await Promise.all(['/api/v1/panels', '/api/v1/biomarkers'].map(async (path) => (await api.get(path, t1.key)).body));
  // The run's calendar is nobody's secret: today (and the default availability range's last day) in UTC
  // and every seeded zone, as an availability answer's `from` and `to` show them.
  const now = new Date();
  const zones = new Set(['UTC', ...LOCATIONS.map((location) => location.timezone ?? 'UTC')]);
  const today = [...zones].flatMap((zone) => [dateInZone(now, zone), addDays(dateInZone(now, zone), 6)]);
  return new Set([...leaves([PANELS, BIOMARKERS, catalog, helsinki, t2.sent]).keys(), ...today]);
}

/** The test machine's own address: the caller IP of every access-log entry of both tenants. */
const LOOPBACK = '127.0.0.1';
const ROUTE_NAMES: ReadonlySet<string> = new Set(routeEntries.map(([name]) => name));

beforeAll(async () => {
  await seedDemoData();
  t1 = await seedTenant1(api, eventBridge);
  // Answers carry instants to the second or the millisecond: each phase starts in a second of its own,
  // so that no instant of tenant 2 can equal one of tenant 1.
  await nextSecond();
  t2 = await seedTenant2(api, `http://${LOOPBACK}:9/tenant-two-hooks`);
  await nextSecond();
  await deliverTenant1Events(api, t1);
  t1Refs = new Set([...Object.values(t1.resources).flat(), ...TENANT_1_FIXED_REFS]);
  t1ReadsBefore = await readTenant1();
  t1Cursors = await tenant1Cursors();
  await nextSecond();

  const legitimate = await legitimateForTenant2();
  const legitimateText = [...legitimate].join('\n');
  // Not tenant 1's to hide: small integers, short strings, enum words, route names (an access-log entry's
  // `route`), lower-case phrases (its `resource`: "profile appointments"; the ids it names are looked for
  // themselves), the loopback address, and whatever tenant 2 may see too.
  const trivial = (value: string | number) =>
    typeof value === 'number'
      ? (Number.isInteger(value) && Math.abs(value) < 10_000) || legitimate.has(value)
      : value.length < 4 ||
        ENUM_WORDS.has(value) ||
        ROUTE_NAMES.has(value) ||
        /^[a-z]+( [a-z]+)*$/.test(value) ||
        value === LOOPBACK ||
        legitimate.has(value) ||
        legitimateText.includes(value);
  const seen = new Map<string | number, string>();
  for (const [request, answer] of t1.answers) leaves(answer, `${request} `, seen);
  for (const [path, body] of t1ReadsBefore) leaves(body, `${path} `, seen);
  t1Values = new Map([...seen].filter(([value]) => !trivial(value)));
  t1Values.set(t1.keyId, 'its API key id (histories, access log)');

  const allScopes = { name: 'matrix', scopes: [...SCOPES], ...TENANT_1 };
  const revoked = await issueApiKey(allScopes, new Date());
  await revokeApiKey(revoked.keyId);
  revokedKey = revoked.plaintext;
  expiredKey = (await issueApiKey({ ...allScopes, expiresAt: new Date(Date.now() - 1000) }, new Date(Date.now() - 2000))).plaintext;

  storedBefore = await tableItems();
}, 120_000);

afterAll(async () => {
  await t1?.receiver.close();
  console.log(`tenant matrix: ${KEYED.length} routes, ${t1Values?.size} tenant-1 values looked for, ${requests} requests`);
});

/** Tenant-1 values in an answer to tenant 2, except those the request itself sent. */
function leaksIn(res: ApiResponse, probe: Probe, lookFor: (value: string | number) => boolean = () => true): string[] {
  const sent = new Set<string | number>([...probe.path.split('/'), ...leaves(probe.body).keys()]);
  const bodyLeaves = leaves(jsonOf(res));
  const headers = [...res.headers.values()];
  // A cursor is opaque to the client, but what it encodes is shown to whoever holds it.
  const decoded = headers.map((value) => Buffer.from(value, 'base64url').toString('utf8'));
  const text = [typeof res.body === 'string' ? res.body : JSON.stringify(res.body), ...headers, ...decoded].join('\n');
  const found: string[] = [];
  for (const [value, where] of t1Values) {
    if (sent.has(value) || !lookFor(value)) continue;
    if (bodyLeaves.has(value) || (typeof value === 'string' && value.length >= 8 && text.includes(value))) {
      // Where, never the value: it is tenant 1's (synthetic) personal data or secret, kept out of test output.
      found.push(`a value tenant 1 got at ${where}, at ${bodyLeaves.get(value) ?? 'the body or headers'}`);
    }
  }
  return found;
}

const keyCache = new Map<string, Promise<string>>();
/** A tenant-1 key holding these scopes: what refuses it can only be the scope check. */
function tenant1KeyWith(scopes: Scope[]): Promise<string> {
  const id = scopes.join(',');
  if (!keyCache.has(id))
    keyCache.set(
      id,
      issueApiKey({ name: 'matrix', scopes, ...TENANT_1 }, new Date()).then((issued) => issued.plaintext),
    );
  return keyCache.get(id)!;
}

const title = (route: Route) => `${route.method} ${route.path}`;

/**
 * A request as a failure names it: method, path (ids only), which body of the route's (never the body: it
 * may hold the seed's personal data) and whose key. The same for every printed problem of this file.
 */
const describeProbe = (route: Route, probe: Probe, key: string) =>
  `${route.method} ${probe.path}${probe.body === undefined ? '' : ` (a body of BODIES.${routeNameOf(route)})`} with ${key}`;
const routeNameOf = (route: Route) => routeEntries.find(([, r]) => r === route)?.[0] ?? '?';

/** An item's key with every part but entity names and UUIDs cut (a barcode, a key hash may be part of one). */
const itemLabel = (key: string) =>
  key.replace(/[^#| ]+/g, (part) => (/^[A-Z_]+$/.test(part) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(part) ? part : '…'));

/** Where two JSON values differ, as paths (at most 10), never the values. */
function differingPaths(a: unknown, b: unknown, at = '', into: string[] = []): string[] {
  if (into.length >= 10) return into;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) differingPaths(x[key], y[key], at ? `${at}.${key}` : key, into);
  } else if (JSON.stringify(a) !== JSON.stringify(b)) into.push(at || '(the whole value)');
  return into;
}

describe.each(KEYED.map(([name, route]) => ({ name, route, title: title(route), kind: kindOf(name, route) })))('$title', ({ name, route, kind }) => {
  const outcome = {
    'names tenant 1': 'gets 403',
    'names nothing of tenant 1': isList(route) && route.method === 'GET' ? 'gets only its own items' : 'gets its own answer',
    mixed: 'gets 403 for every request naming the first tenant and its own answer for the others,',
  }[kind];

  it(`${title(route)}: another tenant's key with every scope ${outcome} and none of the first tenant's values`, async () => {
    const problems: string[] = [];
    for (const probe of probesOf(name, route, t1.resources, t2)) {
      const res = await send(route, probe, t2.key);
      const request = describeProbe(route, probe, "tenant 2's key");
      if (probe.expected) {
        if (res.status !== probe.expected.status) problems.push(`${request} answered ${res.status}, not ${probe.expected.status} (${probe.expected.because})`);
      } else if (namesTenant1(probe, t1Refs)) {
        // The access context refused it, not the scope check: the key holds every scope.
        if (res.status !== 403 || /scope/i.test(String(res.body?.error))) problems.push(`${request} answered ${res.status}, not 403`);
      } else if (route.method === 'GET' && isList(route)) {
        if (res.status !== 200 || !Array.isArray(res.body)) problems.push(`${request} answered ${res.status}, not 200 with a list`);
      } else if (res.status >= 300) {
        problems.push(`${request} answered ${res.status}, not its own answer`);
      }
      problems.push(...leaksIn(res, probe).map((leak) => `${request} showed ${leak}`));
    }
    expect(problems).toEqual([]);
  });

  /** The route's first request naming tenant-1 resources: for keys of tenant 1, whatever refuses them is not the context. */
  const first = (): Probe => probesOf(name, route, t1.resources, t2)[0]!;
  if (IDEMPOTENT_ROUTES.has(title(route))) {
    it(`${title(route)}: another tenant's key sending the first tenant's Idempotency-Key and body gets 403, not the first tenant's answer`, async () => {
      const creates = t1.idempotentCreates.filter((create) => create.path === route.path);
      if (creates.length === 0) throw new Error(`${title(route)}: seedTenant1 (test/support/tenants.ts) made no create of it with an Idempotency-Key`);
      const problems: string[] = [];
      for (const create of creates) {
        requests += 1;
        const res = await api.request('POST', create.path, { key: t2.key, body: create.body, headers: create.headers });
        const request = `POST ${create.path} with tenant 2's key and tenant 1's ${create.headers['Idempotency-Key']}`;
        if (res.status !== 403 || res.headers.has('idempotent-replayed'))
          problems.push(`${request} answered ${res.status}${res.headers.has('idempotent-replayed') ? ' (a replay)' : ''}, not 403`);
        problems.push(...leaksIn(res, create).map((leak) => `${request} showed ${leak}`));
      }
      expect(problems).toEqual([]);
    });
  }

  if (route.method === 'GET' && isPaged(route)) {
    // docs/endpoints.md "Pagination": a cursor works only for the key it was issued to; another key's is a 400 (input, before existence and context).
    it(`${title(route)}: another tenant's key with a page cursor of the first tenant gets 400 and none of the first tenant's values`, async () => {
      const cursors = t1Cursors.get(name) ?? [];
      if (cursors.length === 0)
        throw new Error(`${title(route)}: no tenant-1 list of it has a second page; seed two items of it in seedTenant1 (test/support/tenants.ts)`);
      const problems: string[] = [];
      for (const probe of cursors) {
        const res = await send(route, probe, t2.key);
        if (res.status !== 400) problems.push(`${probe.path} with tenant 2's key answered ${res.status}, not 400`);
        problems.push(...leaksIn(res, probe).map((leak) => `${probe.path} showed ${leak}`));
      }
      expect(problems).toEqual([]);
    });
  }

  const everyScopeBut = (missing: readonly Scope[]) => SCOPES.filter((scope) => !missing.includes(scope));

  it(`${title(route)}: a key of the same tenant with every scope but the route's gets 403`, async () => {
    const res = await send(route, first(), await tenant1KeyWith(everyScopeBut(route.scopes)));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/lacks the required scope/);
  });

  if (route.allScopes) {
    it.each(route.scopes.map((scope) => ({ scope })))(`${title(route)}: a key of the same tenant lacking only $scope gets 403`, async ({ scope }) => {
      const res = await send(route, first(), await tenant1KeyWith(everyScopeBut([scope])));
      expect(res.status).toBe(403);
      expect(res.body.error).toContain(`missing: ${scope}`);
    });
  }

  it(`${title(route)}: no key gets 401`, async () => {
    const res = await send(route, first(), undefined);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Missing x-api-key header' });
  });

  it(`${title(route)}: an unknown key gets 401`, async () => {
    const res = await send(route, first(), `lab_${'x'.repeat(43)}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid or revoked API key' });
  });

  it(`${title(route)}: a revoked key of the same tenant with every scope gets 401`, async () => {
    const res = await send(route, first(), revokedKey);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid or revoked API key' });
  });

  it(`${title(route)}: an expired key of the same tenant with every scope gets 401`, async () => {
    const res = await send(route, first(), expiredKey);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'API key expired' });
  });
});

describe("another tenant's own data", () => {
  // Its own answers hold the formats' vocabulary too (FHIR codes, content types), so here only tenant 1's
  // identifiers are looked for: ids, key ids, shipment references (an event of tenant 1 delivered to tenant
  // 2's subscription, a read of tenant 1 in tenant 2's access log would show one).
  const IDENTIFIER = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|key_[0-9a-f]+|P-\d{6}-\d{4})$/;

  it("another tenant's key reading its own resources and lists (its deliveries, its access log) gets none of the first tenant's ids", async () => {
    const problems: string[] = [];
    const reads = tenant2OwnReads();
    expect(reads.map(([route]) => route.path)).toEqual(expect.arrayContaining(['/api/v1/webhooks/{id}/deliveries', '/api/v1/profiles/{id}/access-log']));
    for (const [route, probe] of reads) {
      const res = await send(route, probe, t2.key);
      if (res.status !== 200) problems.push(`${probe.path} with tenant 2's key answered ${res.status}, not 200`);
      problems.push(...leaksIn(res, probe, (value) => IDENTIFIER.test(String(value))).map((leak) => `${probe.path} showed ${leak}`));
    }
    expect(problems).toEqual([]);
  });
});

describe('after the matrix', () => {
  const mentionsTenant1 = (item: unknown) => {
    const text = JSON.stringify(item);
    return [...t1Refs].some((ref) => typeof ref === 'string' && ref.length >= 32 && text.includes(ref));
  };

  it('no stored item of the first tenant changed or disappeared, and none about it was added', async () => {
    const after = await tableItems();
    const problems: string[] = [];
    for (const [key, item] of storedBefore) {
      if (!mentionsTenant1(item)) continue;
      const now = after.get(key);
      if (!now) problems.push(`${itemLabel(key)} disappeared`);
      else if (itemHash(now) !== itemHash(item))
        problems.push(`${itemLabel(key)} changed at ${differingPaths(comparable(item), comparable(now)).join(', ') || 'a set or bytes attribute'}`);
    }
    for (const [key, item] of after) if (!storedBefore.has(key) && mentionsTenant1(item)) problems.push(`${itemLabel(key)} was added`);
    expect(problems).toEqual([]);
  });

  it('the first tenant reads every resource as before the matrix (the access log aside, which its own reads add to)', async () => {
    const now = await readTenant1();
    const problems: string[] = [];
    for (const [path, before] of t1ReadsBefore) {
      if (path.endsWith('/access-log')) continue;
      // What each answer stamps anew: the export's time, a FHIR Bundle's own id and instants.
      const normalised = (body: unknown) =>
        JSON.parse(JSON.stringify(body), (key, value) => {
          if (key === 'exported_at') return '(the time of the export)';
          if (value?.resourceType === 'Bundle') return { ...value, id: '(the bundle)', timestamp: '(now)', meta: '(now)' };
          return value;
        });
      const changed = differingPaths(normalised(before), normalised(now.get(path)));
      if (changed.length > 0) problems.push(`${path} answers differently at ${changed.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });
});
