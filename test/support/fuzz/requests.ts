/**
 * The fuzz suite's requests, generated from the routes table (shared/routes.ts: every row, so a new route
 * is fuzzed with no edit here) and from each route's request schemas (the JSON Schemas of
 * docs/openapi.json for generating, the handler's own valibot schemas for judging what it should accept).
 *
 * Each request says what was fuzzed in it (`fuzzed`) and whether every part of it is valid as far as the
 * schemas know (`plausible`: a valid key and method, ids, query and body that pass the route's schemas);
 * only a plausible request may change anything, so the test brackets the others with table digests.
 */
import fc from 'fast-check';
import * as v from 'valibot';
import document from '../../../docs/openapi.json' with { type: 'json' };
import type { HandlerContract } from '../../../shared/http/handler';
import { type Route, type RouteName, routeEntries } from '../../../shared/routes';
import { dateTimeArbitrary, type FieldArbitraries, fromSchema, type JsonSchema, resolve } from './schema-arbitrary';

/** What the suite has made or found so far: ids of the key's own resources, real cursors, keys. Grows during the run. */
export interface World {
  ids: Record<string, string[]>; // by the path segment before the parameter: profiles, appointments, shipments, …
  panels: string[];
  biomarkers: number[];
  locations: string[];
  cursors: string[];
  webhookUrl: string;
  keys: { full: string; narrow: string; otherTenant: string; revoked: string };
}

export interface FuzzRequest {
  route: RouteName | 'none';
  method: string;
  /** Path and query string, as sent. */
  path: string;
  /** Keys appear as `<key:full>` etc. (see keyHeaderValue), so that no plaintext key reaches the test output. */
  headers: [string, string][];
  body?: string | Uint8Array;
  /** What was fuzzed, e.g. `key:garbage`, `body:mutated:retype`: for the summary and a counterexample. */
  fuzzed: string[];
  /** Every part valid as far as the route's schemas know: the only requests that may change anything. */
  plausible: boolean;
  /** A plausible GET of the key's own resources, each from the world's ids: answers 2xx unless one is gone (`ownIds`). */
  mustSucceed: boolean;
  /** The world's ids in the path. */
  ownIds?: string[];
}

interface OperationDoc {
  parameters?: { name: string; in: string; schema: JsonSchema }[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
}

const paths = (document as unknown as { paths: Record<string, Record<string, OperationDoc>> }).paths;

const pick = <T>(list: readonly T[], index: number): T | undefined => (list.length === 0 ? undefined : list[index % list.length]);

/** Indices into the world's lists, resolved when the request is built (the lists grow during the run). */
const fromWorld = <T>(list: () => readonly T[], fallback: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.nat().chain((index) => {
    const value = pick(list(), index);
    return value === undefined ? fallback : fc.constant(value);
  });

/** The fields whose values must refer to the world (or leave the machine never): drawn from it, mostly. */
function fieldArbitraries(world: World): FieldArbitraries {
  const uuid = fc.uuid({ version: 4 });
  const mostly = <T>(own: fc.Arbitrary<T>, other: fc.Arbitrary<T>) => fc.oneof({ weight: 9, arbitrary: own }, { weight: 1, arbitrary: other });
  const hour = fc.constantFrom('08:00', '09:00', '10:00', '11:30', '13:00', '15:00', '16:45', '17:00', '18:00');
  return {
    profile_id: mostly(
      fromWorld(() => world.ids.profiles ?? [], uuid),
      uuid,
    ),
    location_id: mostly(
      fromWorld(() => world.locations, uuid),
      uuid,
    ),
    panel_ids: mostly(
      fromWorld(() => world.panels, uuid),
      uuid,
    ),
    biomarker_ids: mostly(
      fromWorld(() => world.biomarkers, fc.integer({ min: 1, max: 500 })),
      fc.integer({ min: 1, max: 10_000 }),
    ),
    appointment_ids: mostly(
      fromWorld(() => world.ids.appointments ?? [], uuid),
      uuid,
    ),
    // The appointment a lab result that matched no order is matched to (issue #51).
    appointment_id: mostly(
      fromWorld(() => world.ids.appointments ?? [], uuid),
      uuid,
    ),
    shipment_id: mostly(
      fromWorld(() => world.ids.shipments ?? [], fc.constant('P-000000-0000')),
      fc.stringMatching(/^P-\d{6}-\d{4}$/),
    ),
    profile_group_slug: fc.constantFrom('demo-clinic', 'demo-clinic', 'demo-clinic', 'partner-clinic', 'no-such-group'),
    country: fc.constantFrom('DE', 'DE', 'FI', 'XX', 'de'),
    // Never a host that DNS would have to resolve: a webhook's URL is called by its test route.
    url: fc.constantFrom(world.webhookUrl, `${world.webhookUrl}/hooks`, 'http://10.0.0.1/hook', 'ftp://127.0.0.1/x', 'not a url', 'http://127.0.0.1:1/'),
    // A few fixed barcodes among the random ones, so that a second use (409) happens.
    barcode: fc.oneof(fc.stringMatching(/^[A-Z0-9-]{6,32}$/), fc.constantFrom('FUZZ-000001', 'FUZZ-000002')),
    pickup_date: fc.integer({ min: -3, max: 100 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)),
    pickup_time_from: hour,
    pickup_time_till: hour,
    scheduled_at: dateTimeArbitrary,
  };
}

// ---------------------------------------------------------------------------------------------------- keys

/** The one scope of the `narrow` key. */
export const NARROW_SCOPE = 'LOCATIONS_VIEW';

type KeyChoice = 'full' | 'absent' | 'empty' | 'garbage' | 'narrow' | 'otherTenant' | 'revoked' | 'doubled';

const keyChoice: fc.Arbitrary<KeyChoice> = fc.oneof(
  { weight: 30, arbitrary: fc.constant('full' as const) },
  { weight: 4, arbitrary: fc.constantFrom('absent' as const, 'empty' as const) },
  { weight: 6, arbitrary: fc.constant('garbage' as const) },
  { weight: 7, arbitrary: fc.constant('narrow' as const) },
  { weight: 7, arbitrary: fc.constant('otherTenant' as const) },
  { weight: 3, arbitrary: fc.constant('revoked' as const) },
  { weight: 3, arbitrary: fc.constant('doubled' as const) },
);

/** Header values fetch sends whatever the header (printable ASCII and spaces; it refuses some Latin-1 in some headers). */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 80 }).map((s) => s.trim());

/** Printable ASCII: what fetch accepts in every header (it checks some, Origin among them). */
const asciiText = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 });

// ---------------------------------------------------------------------------------------------------- path

const HOSTILE_SEGMENTS = [
  'not-a-uuid',
  '0',
  '-1',
  'null',
  'undefined',
  '%7Bid%7D',
  '%2F',
  'a%2Fb',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%00',
  '%0A',
  '%20',
  '%E2%82',
  '%',
  encodeURIComponent('日本語'),
  encodeURIComponent('ü'),
  encodeURIComponent("' OR '1'='1"),
  encodeURIComponent('<script>'),
  'a'.repeat(3000),
  'P-123456-78901',
  'p-123456-7890',
  '5A1F3C2E-8B4D-4E6F-9A7B-1C2D3E4F5A01',
  '00000000-0000-0000-0000-000000000000',
];

function segmentArbitrary(resource: string, world: World): fc.Arbitrary<{ value: string; own: boolean; label: string; id?: string }> {
  // A patient link's token (/p/{token}) that opens nothing has a token's shape: it reaches the lookup.
  const unknown =
    resource === 'shipments' ? fc.stringMatching(/^P-\d{6}-\d{4}$/) : resource === 'p' ? fc.stringMatching(/^[A-Za-z0-9_-]{43}$/) : fc.uuid({ version: 4 });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.nat().chain((index) => {
        const own = pick(world.ids[resource] ?? [], index);
        return own === undefined
          ? unknown.map((value) => ({ value, own: false, label: 'unknown' }))
          : fc.constant({ value: encodeURIComponent(own), own: true, label: 'own', id: own });
      }),
    },
    { weight: 3, arbitrary: unknown.map((value) => ({ value, own: false, label: 'unknown' })) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS).map((value) => ({ value, own: false, label: 'hostile' })) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map((s) => ({ value: encodeURIComponent(s), own: false, label: 'random' })),
    },
  );
}

// ---------------------------------------------------------------------------------------------------- query

function queryArbitrary(parameters: { name: string; schema: JsonSchema }[], world: World): fc.Arbitrary<{ pairs: [string, string][]; label: string }> {
  const none = fc.constant({ pairs: [] as [string, string][], label: 'none' });
  const unknown = fc
    .tuple(fc.constantFrom('sort', 'page', 'LIMIT', 'limit ', 'q', '__proto__', 'constructor', 'toString', 'x'.repeat(500)), headerText)
    .map(([name, value]) => ({ pairs: [[name, value]] as [string, string][], label: 'unknown' }));
  if (parameters.length === 0) return fc.oneof({ weight: 8, arbitrary: none }, { weight: 1, arbitrary: unknown });
  const junkValue = fc.oneof(
    fc.constantFrom('', '0', '-1', '101', '1e3', '1.5', 'abc', '99999999999999999999999', ' 5', '0x10', 'NaN', 'null'),
    fc.string({ maxLength: 20 }),
    fc.base64String({ maxLength: 200 }),
    fc.constant('A'.repeat(9000)),
  );
  const valid = fc.record({ limit: fc.option(fc.integer({ min: 1, max: 100 }).map(String), { nil: undefined }) }).map(({ limit }) => ({
    pairs: limit === undefined ? [] : ([['limit', limit]] as [string, string][]),
    label: 'valid',
  }));
  const names = parameters.map((parameter) => parameter.name);
  return fc.oneof(
    { weight: 6, arbitrary: none },
    { weight: 4, arbitrary: valid },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom(...names), junkValue).map(([name, value]) => ({ pairs: [[name, value]] as [string, string][], label: 'junk' })),
    },
    {
      weight: 2,
      arbitrary: fromWorld(() => world.cursors, fc.constant('bm90LWEtY3Vyc29y')).map((cursor) => ({
        pairs: [['cursor', cursor]] as [string, string][],
        label: 'foreign-cursor',
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...names).map((name) => ({
        pairs: [
          [name, '1'],
          [name, '2'],
        ] as [string, string][],
        label: 'repeated',
      })),
    },
    { weight: 1, arbitrary: unknown },
  );
}

// ---------------------------------------------------------------------------------------------------- body

/** Strings no text field should store: control characters, lone surrogates, direction overrides, … */
const WEIRD_STRINGS = [
  '\u0000',
  'a\u0007b',
  '\ud800',
  'x\udfffy',
  'A\u202eB',
  '\u200b',
  '\ufeffAnna',
  '\n',
  '\t',
  ' ',
  '',
  '😀'.repeat(60),
  'Ａｎｎａ',
  'e\u0301',
];

/** A JSON value of any shape, nested as deep as asked (a tree of one-item arrays and objects). */
const nested = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : depth % 2 ? [nested(depth - 1, leaf)] : { a: nested(depth - 1, leaf) });

function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<{ value: unknown; label: string }> {
  const withKey = <T>(arb: fc.Arbitrary<T>) => fc.tuple(valid, fc.nat(), arb);
  const keyOf = (body: unknown, index: number) => {
    const keys = Object.keys(body as object);
    return keys.length ? keys[index % keys.length]! : 'x';
  };
  const replace = (label: string, arb: fc.Arbitrary<unknown>) =>
    withKey(arb).map(([body, index, value]) => ({ value: { ...(body as object), [keyOf(body, index)]: value }, label }));
  return fc.oneof(
    withKey(fc.constant(0)).map(([body, index]) => {
      const copy = { ...(body as Record<string, unknown>) };
      delete copy[keyOf(body, index)];
      return { value: copy, label: 'dropped' };
    }),
    replace(
      'retyped',
      fc.oneof(
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.string({ maxLength: 10 }),
        fc.array(fc.integer(), { maxLength: 3 }),
        fc.object({ maxDepth: 1 }),
      ),
    ),
    replace(
      'out-of-range',
      fc.constantFrom(
        -1,
        0,
        1.5,
        1e308,
        -1e308,
        2 ** 53 + 1,
        5e-324,
        'x'.repeat(1001),
        [],
        Array.from({ length: 60 }, (_, i) => i + 1),
      ),
    ),
    replace('weird-string', fc.oneof(fc.constantFrom(...WEIRD_STRINGS), fc.string({ unit: 'binary', maxLength: 30 }))),
    replace(
      'huge-string',
      fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'ä'.repeat(n)),
    ),
    replace(
      'nested-junk',
      fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.integer({ min: 1, max: 30 }).map((depth) => nested(depth, 1)),
      ),
    ),
    fc
      .tuple(
        valid,
        fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'created_at', 'status'), fc.string({ minLength: 1, maxLength: 12 })),
        fc.jsonValue({ maxDepth: 1 }),
      )
      .map(([body, name, value]) => {
        const copy = { ...(body as object) };
        // defineProperty: an own property, so that "__proto__" is sent as a key, not taken as the prototype.
        Object.defineProperty(copy, name, { value, enumerable: true, configurable: true, writable: true });
        return { value: copy, label: 'extra-property' };
      }),
    fc
      .oneof(fc.constant([]), fc.constant(null), fc.string(), fc.integer(), fc.array(valid, { maxLength: 2 }))
      .map((value) => ({ value, label: 'not-an-object' })),
  );
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Bodies no JSON reader should trip on: bytes, not values. */
const hostileBody: fc.Arbitrary<{ raw: string | Uint8Array; label: string }> = fc.oneof(
  fc
    .constantFrom(
      '',
      ' ',
      'null',
      '[]',
      '"text"',
      '{',
      '{"a":1',
      '{"a":1} trailing',
      '{"a":1,"a":2}',
      '{"__proto__":{"polluted":true}}',
      '{"\\u005f_proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"a":{"__proto__":1}}',
      '{"first_name":"\\ud800"}',
      '{"n":1e999}',
      '{"n":-0}',
      '{"\\u0000":1}',
      '\ufeff{}',
      '{}',
      `{"a":${'['.repeat(17)}${']'.repeat(17)}}`,
      `{"a":${'{"b":'.repeat(16)}1${'}'.repeat(16)}}`,
      `{"a":[${Array.from({ length: 1001 }, () => 0).join(',')}]}`,
      '['.repeat(100_000),
      `{"a":"${'x'.repeat(70_000)}"}`,
    )
    .map((raw) => ({ raw, label: 'hostile-text' })),
  fc
    .constantFrom([0xff, 0xfe], [0xc0, 0xaf], [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xfc, 0x22, 0x7d], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf, 0x7b, 0x7d])
    .map((bytes) => ({ raw: new Uint8Array(bytes), label: 'invalid-utf8' })),
  fc.uint8Array({ maxLength: 200 }).map((raw) => ({ raw, label: 'random-bytes' })),
  fc.string({ unit: 'binary', maxLength: 200 }).map((raw) => ({ raw: utf8(raw), label: 'random-text' })),
);

const CONTENT_TYPES: [string | undefined, boolean][] = [
  ['application/json', true],
  ['application/json; charset=utf-8', true],
  ['Application/JSON; charset="UTF-8"', true],
  [undefined, false],
  ['text/plain', false],
  ['application/x-www-form-urlencoded', false],
  ['multipart/form-data; boundary=x', false],
  ['application/json; charset=latin1', false],
  ['application/vnd.api+json', false],
  ['application/merge-patch+json', false],
  ['', false],
];

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant(CONTENT_TYPES[0]!) },
  { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES.slice(1, 3)) },
  { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES.slice(3)) },
);

const IDEMPOTENCY_KEYS = ['fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3'];

// ---------------------------------------------------------------------------------------------------- requests

interface RouteModel {
  name: RouteName;
  route: Route;
  contract: HandlerContract;
  params: { name: string; resource: string }[];
  query: { name: string; schema: JsonSchema }[];
  body?: JsonSchema;
  idempotent: boolean;
}

function model(name: RouteName, route: Route, contract: HandlerContract): RouteModel {
  const operation = paths[route.path]?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`docs/openapi.json lacks ${route.method} ${route.path}: run npm run openapi`);
  const segments = route.path.split('/');
  return {
    name,
    route,
    contract,
    params: segments.flatMap((segment, i) => (/^\{\w+\}$/.test(segment) ? [{ name: segment.slice(1, -1), resource: segments[i - 1] ?? '' }] : [])),
    query: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query'),
    // A form body (the unsubscribe link's one-click POST) is not generated: such a route is fuzzed without one.
    body: operation.requestBody?.content['application/json']?.schema,
    idempotent: (operation.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key'),
  };
}

const passes = (schema: v.GenericSchema | undefined, value: unknown) => schema === undefined || v.safeParse(schema, value).success;

type BodyChoice = { value?: unknown; raw?: string | Uint8Array; label: string };

/** Percent of requests valid in every part (FUZZ_VALID_PERCENT); the others fuzz each part. */
const VALID_SHARE = Number(process.env.FUZZ_VALID_PERCENT ?? 10);

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

function routeRequest(m: RouteModel, world: World): fc.Arbitrary<FuzzRequest> {
  const fields = fieldArbitraries(world);
  const validBody = m.body ? fromSchema(m.body, fields) : undefined;
  const bodyArbitrary: fc.Arbitrary<BodyChoice> = validBody
    ? fc.oneof(
        { weight: 4, arbitrary: validBody.map((value) => ({ value, label: 'valid' })) },
        { weight: 8, arbitrary: mutated(validBody).map(({ value, label }) => ({ value, label: `mutated:${label}` })) },
        { weight: 3, arbitrary: hostileBody.map(({ raw, label }) => ({ raw, label: `hostile:${label}` })) },
        { weight: 1, arbitrary: fc.constant({ label: 'absent' }) },
      )
    : fc.oneof(
        { weight: 12, arbitrary: fc.constant({ label: 'none' }) },
        { weight: 1, arbitrary: hostileBody.map(({ raw, label }) => ({ raw, label: `unexpected:${label}` })) },
      );
  const idempotencyKey = m.idempotent
    ? fc.oneof(
        { weight: 10, arbitrary: fc.constant(undefined) },
        { weight: 3, arbitrary: fc.constantFrom(...IDEMPOTENCY_KEYS) },
        { weight: 2, arbitrary: fc.uuid() },
        { weight: 2, arbitrary: fc.oneof(fc.constantFrom('', ' ', 'x'.repeat(300), 'a,b', '*', '%C3%BC'), fc.constant('k'.repeat(8000)), headerText) },
      )
    : fc.oneof({ weight: 20, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.uuid() });
  const methodArbitrary = fc.oneof(
    { weight: 40, arbitrary: fc.constant(m.route.method as string) },
    // A method no route of this path has (another route's method would be that route's request, not a wrong one).
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ...OTHER_METHODS.filter((method) => !routeEntries.some(([, route]) => route.path === m.route.path && route.method === method)),
      ),
    },
  );

  // A valid request: every part valid as far as the schemas say (it may still meet a 404 or a 409).
  const valid = fc.record({
    method: fc.constant(m.route.method as string),
    segments: fc.tuple(
      ...m.params.map((param) => segmentArbitrary(param.resource, world).filter((segment) => segment.own || (world.ids[param.resource] ?? []).length === 0)),
    ),
    query: queryArbitrary(m.query, world).filter((query) => query.label === 'none' || query.label === 'valid'),
    key: fc.constant('full' as KeyChoice),
    body: validBody ? validBody.map((value): BodyChoice => ({ value, label: 'valid' })) : fc.constant<BodyChoice>({ label: 'none' }),
    contentType: fc.constant(CONTENT_TYPES[0]!),
  });
  // A fuzzed request: each part drawn from valid and invalid values alike.
  const fuzzed = fc.record({
    method: methodArbitrary,
    segments: fc.tuple(...m.params.map((param) => segmentArbitrary(param.resource, world))),
    query: queryArbitrary(m.query, world),
    key: keyChoice,
    body: bodyArbitrary,
    contentType,
  });
  return fc
    .record({
      parts: fc.oneof({ weight: VALID_SHARE, arbitrary: valid }, { weight: 100 - VALID_SHARE, arbitrary: fuzzed }),
      garbageKey: fc.oneof(
        fc.constantFrom('lab_not-a-real-key', 'x', 'lab_' + 'A'.repeat(500)),
        headerText.filter((s) => s.length > 0),
      ),
      idempotencyKey,
      keyHeaderName: fc.constantFrom('x-api-key', 'x-api-key', 'X-Api-Key', 'X-API-KEY'),
      // Headers of browsers and proxies with junk values (fetch itself refuses header names like __proto__ or toString).
      extraHeader: fc.option(fc.tuple(fc.constantFrom('x-forwarded-for', 'origin', 'accept', 'x-amzn-trace-id', 'cookie'), asciiText), { freq: 10 }),
    })
    .map(({ parts, garbageKey, idempotencyKey, keyHeaderName, extraHeader }) => {
      const { method, segments, query, key } = parts;
      const body: BodyChoice = parts.body;
      const [type, typeOk] = parts.contentType;
      const fuzzed: string[] = [];
      let path = m.route.path;
      m.params.forEach((param, i) => {
        path = path.replace(`{${param.name}}`, segments[i]!.value);
        fuzzed.push(`${param.name}:${segments[i]!.label}`);
      });
      const rawParams = Object.fromEntries(m.params.map((param, i) => [param.name, safeDecode(segments[i]!.value)]));
      if (query.pairs.length) path += `?${new URLSearchParams(query.pairs).toString()}`;
      fuzzed.push(`query:${query.label}`);

      const headers: [string, string][] = [];
      const keyValue = {
        full: '<key:full>',
        narrow: '<key:narrow>',
        otherTenant: '<key:otherTenant>',
        revoked: '<key:revoked>',
        garbage: garbageKey,
        empty: '',
        absent: undefined,
        doubled: undefined,
      }[key];
      if (key === 'doubled') headers.push([keyHeaderName, '<key:full>'], ['x-api-key', '<key:full>']);
      else if (keyValue !== undefined) headers.push([keyHeaderName, keyValue]);
      fuzzed.push(`key:${key}`);
      if (extraHeader) {
        headers.push(extraHeader);
        fuzzed.push(`header:${extraHeader[0]}`);
      }
      if (idempotencyKey !== undefined) {
        headers.push(['Idempotency-Key', idempotencyKey]);
        fuzzed.push('idempotency-key');
      }

      const sendsBody = method !== 'GET' && method !== 'HEAD';
      let bytes: string | Uint8Array | undefined;
      if (sendsBody && body.raw !== undefined) bytes = body.raw;
      else if (sendsBody && 'value' in body) bytes = JSON.stringify(body.value) ?? 'null';
      if (bytes !== undefined && type !== undefined) headers.push(['content-type', type]);
      if (bytes !== undefined) fuzzed.push(`body:${body.label}`, `content-type:${type ?? 'absent'}`);

      // Judged as the server reads it: the value after a JSON round trip (-0 becomes 0, undefined goes).
      // A body the route lets the client leave out (POST …/patient-link) may be absent, or empty (no bytes: none).
      const bodyOk = m.body
        ? ((bytes === undefined || bytes.length === 0) && m.contract.bodyOptional === true) ||
          (bytes !== undefined && typeOk && body.raw === undefined && passes(m.contract.body, JSON.parse(bytes as string)))
        : true;
      // A repeated parameter counts with its last value, as API Gateway's queryStringParameters (and the local server) give it.
      const queryOk = passes(m.contract.query ?? v.strictObject({}), Object.fromEntries(query.pairs));
      // Keys that hold one of the route's scopes may be accepted (the other tenant's sees its own, or an empty list).
      const keyMayPass =
        m.route.scopes.length === 0 ||
        key === 'full' ||
        key === 'otherTenant' ||
        (key === 'narrow' && (m.route.scopes as readonly string[]).includes(NARROW_SCOPE));
      const paramsOk = passes(m.contract.params, rawParams);
      const plausible = method === m.route.method && keyMayPass && paramsOk && queryOk && bodyOk;
      if (!plausible) {
        const refusedBy = { method: method !== m.route.method, key: !keyMayPass, params: !paramsOk, query: !queryOk, body: !bodyOk };
        fuzzed.push(
          `refusable:${Object.keys(refusedBy)
            .filter((part) => refusedBy[part as keyof typeof refusedBy])
            .join('+')}`,
        );
      }
      const mustSucceed =
        plausible && key === 'full' && method === 'GET' && segments.every((segment) => segment.own) && (query.label === 'none' || query.label === 'valid');
      const ownIds = segments.flatMap((segment) => (segment.id ? [segment.id] : []));
      return printable({ route: m.name, method, path, headers, body: bytes, fuzzed, plausible, mustSucceed, ownIds });
    });
}

/** The real header value of a `<key:…>` placeholder. */
export function keyHeaderValue(value: string, world: World): string {
  const match = /^<key:(\w+)>$/.exec(value);
  return match ? world.keys[match[1] as keyof World['keys']] : value;
}

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);

/** One line per request in fast-check's counterexample, long paths and bodies clipped. */
function printable(request: FuzzRequest): FuzzRequest {
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? ` body ${clip(JSON.stringify(request.body))}`
        : ` bytes [${clip(request.body.join(','))}]`;
  const line = `${request.method} ${clip(request.path)} headers ${clip(JSON.stringify(request.headers))}${body} [${request.fuzzed.join(' ')}]${request.plausible ? ' plausible' : ''}`;
  return Object.assign(request, { [fc.toStringMethod]: () => line });
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Paths no route has, and paths of the API one segment off. */
const strayRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'),
    fc.constantFrom(
      '/',
      '/api',
      '/api/v1',
      '/api/v2/profiles',
      '/api/v1/profiles/',
      '/api/v1//profiles',
      '/API/V1/PROFILES',
      '/api/v1/profiles/a/b/c',
      '/.env',
      '/docs/assets/',
      '/api/v1/appointments/pickup/x',
    ),
  )
  .map(([method, path]) => printable({ route: 'none' as const, method, path, headers: [], fuzzed: ['path:stray'], plausible: false, mustSucceed: false }));

/**
 * Routes whose success costs far more than the others' (megabytes of static files, the OpenAPI document, a
 * rendered PDF: 100 ms and more each): drawn a tenth as often, so that the count stays within the time budget.
 */
const COSTLY = [/^\/docs/, /openapi\.json$/, /\/report$/];

/** One arbitrary request of any route: every route equally often, except the COSTLY ones. */
export function requestArbitrary(contracts: Map<RouteName, HandlerContract>, world: World): fc.Arbitrary<FuzzRequest> {
  const models = routeEntries.map(([name, route]) => model(name, route, contracts.get(name)!));
  return fc.oneof(...models.map((m) => ({ weight: COSTLY.some((pattern) => pattern.test(m.route.path)) ? 1 : 10, arbitrary: routeRequest(m, world) })), {
    weight: 3,
    arbitrary: strayRequest,
  });
}

/** The request schemas the suite generates bodies from, for the summary: every route with a body has one. */
export const bodySchemaOf = (route: Route): JsonSchema | undefined => {
  const schema = paths[route.path]?.[route.method.toLowerCase()]?.requestBody?.content['application/json'].schema;
  return schema ? resolve(schema) : undefined;
};
