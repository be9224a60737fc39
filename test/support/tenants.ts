/**
 * Two tenants that share nothing, for the tenant matrix (test/integration/tenant-matrix.test.ts): tenant 1
 * (profile group demo-clinic, location group berlin) with one of everything the API stores, made through
 * the API, and tenant 2 (partner-clinic, helsinki) with a few things of its own. Also what the matrix is
 * generated from: each route's requests naming tenant-1 resources, built from shared/routes.ts, the
 * resources below (by the collection a path parameter follows) and one valid body per writing route.
 *
 * A route the seed cannot fill fails its tests with what to add here, never skipped silently.
 */
import { randomUUID } from 'node:crypto';
import { PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { expect } from 'vitest';
import document from '../../docs/openapi.json' with { type: 'json' };
import { type Route, type RouteName, routeEntries } from '../../shared/routes';
import type { ApiResponse, TestApi } from './api';
import type { mockEventBridge } from './event-bridge';
import { apiKeyWithId, BERLIN_MITTE, BERLIN_PRENZLAUER_BERG, HELSINKI_KAMPPI, UNKNOWN_ID } from './fixtures';
import { unmatchedIdOf } from '../../shared/usecases/keep-unmatched-result';
import { derivedUuid } from '../../shared/derived-uuid';
import { recordUnsent } from '../../shared/store/messages';
import { apoe, clinical, deliver, report, uploadIncoming } from './lab';
import { CARDIOGENETICS_PANEL, ESSENTIALS_PANEL, newBarcode, pickupDate, slotIn, THYROID_PANEL } from './scenario';
import { dispatchEntries, type Receiver, startReceiver } from './webhooks';

/** A create tenant 1 made with an Idempotency-Key. */
export interface IdempotentCreate {
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export const TENANT_1 = { profileGroups: ['demo-clinic'], locationGroups: ['berlin'] };
export const TENANT_2 = { profileGroups: ['partner-clinic'], locationGroups: ['helsinki'] };

/** The collection a path parameter follows (`/appointments/{id}` → appointments) → tenant 1's ids in it. */
export type Resources = Record<string, string[]>;

export interface Tenant {
  key: string;
  keyId: string;
  /** Each collection's ids of this tenant, for path parameters. */
  resources: Resources;
}

export interface Tenant2 extends Tenant {
  /** What its seeding sent: values it chose itself, never a leak when they equal one of tenant 1. */
  sent: unknown[];
  profileId: string;
  /** A drawn appointment of its own, to name beside a tenant-1 shipment in a pickup. */
  drawnAppointmentId: string;
}

/**
 * The answer's body once its status is the expected one. A failure names the request (method, path: ids
 * only), whose key and the status, never the body: the seed's answers hold its (synthetic) personal data
 * and tenant 1's webhook secret, which stay out of test output too.
 */
const ok = (res: ApiResponse, request: string, status = 200) => {
  expect(res.status, `${request}: status`).toBe(status);
  return res.body;
};

/**
 * Tenant 1: two profiles (one with every field), appointments scheduled, drawn, in transit (in a
 * shipment), completed (clinical and genetic results, a lab report file) and cancelled, kit orders
 * pending (inline address), cancelled and activated (its home appointment), two shipments (one moved by the
 * courier), a webhook subscription with deliveries, the access-log entries its reads leave, and two messages per
 * profile.
 */
export async function seedTenant1(
  api: TestApi,
  eventBridge: ReturnType<typeof mockEventBridge>,
): Promise<
  Tenant & {
    receiver: Receiver;
    /** Every answer of the seeding, by request: a webhook's secret shows only there. */
    answers: [string, unknown][];
    /** The events its seeding put, not yet delivered. */
    events: PutEventsRequestEntry[];
    idempotentCreates: IdempotentCreate[];
  }
> {
  eventBridge.client.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'seed' }] });
  const { plaintext: key, keyId } = await apiKeyWithId(TENANT_1);
  const answers: [string, unknown][] = [];
  const idempotentCreates: IdempotentCreate[] = [];
  const post = async (path: string, body: unknown, status = 200) => {
    // Every create that takes an Idempotency-Key gets one: another tenant sending it again must not get this answer.
    const headers = IDEMPOTENT_ROUTES.has(`POST ${path}`) ? { 'Idempotency-Key': `tenant-1-create-${idempotentCreates.length}` } : undefined;
    const answer = ok(await api.request('POST', path, { key, body, headers }), `POST ${path} with tenant 1's key`, status);
    if (headers) idempotentCreates.push({ path, body, headers });
    answers.push([`POST ${path}`, answer]);
    return answer;
  };

  const receiver = await startReceiver();
  const webhook = await post(
    '/api/v1/webhooks',
    { url: receiver.url, event_types: ['AppointmentStatusChanged', 'LabResultsAvailable', 'ShipmentStatusChanged'], description: 'Quarterfield clinic hook' },
    201,
  );

  const profileA = (
    await post(
      '/api/v1/profiles',
      {
        profile_group_slug: 'demo-clinic',
        first_name: 'Wilhelmina',
        last_name: 'Quarterfield',
        date_of_birth: '1971-03-14',
        handle: 'wq.tenant-one',
        email: 'wilhelmina.quarterfield@tenant-one.example',
        phone: '+4915112345678',
        sex: 2,
        height: 171,
        weight: 64.3,
        language: 'de',
      },
      201,
    )
  ).id as string;
  const profileB = (
    await post('/api/v1/profiles', { profile_group_slug: 'demo-clinic', first_name: 'Bartholomew', last_name: 'Zeddicus', date_of_birth: '1988-11-02' }, 201)
  ).id as string;

  const book = async (profileId: string, locationId: string, days: number, biomarkerIds: number[]) => {
    const id = (await post('/api/v1/appointments', { profile_id: profileId, location_id: locationId, scheduled_at: slotIn(days, locationId) }, 201))
      .id as string;
    await post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: biomarkerIds });
    return id;
  };
  const confirm = (id: string) => post(`/api/v1/appointments/${id}/confirm`, { barcode: newBarcode() });

  const scheduled = await book(profileA, BERLIN_MITTE, 7, [1, 100]);
  await post(`/api/v1/appointments/${scheduled}/panels`, { panel_ids: [ESSENTIALS_PANEL] });
  const drawn = await book(profileA, BERLIN_MITTE, 6, [4]);
  await confirm(drawn);
  const inTransit = await book(profileB, BERLIN_MITTE, 5, [3]);
  await confirm(inTransit);
  const completed = await book(profileA, BERLIN_PRENZLAUER_BERG, 4, [3, 100]);
  await confirm(completed);
  const file = await uploadIncoming(Buffer.from('%PDF-1.7 Quarterfield lab report'));
  await deliver(
    report(completed, {
      clinical_results: [clinical(3, 73.41)],
      genetic_results: [apoe],
      documents: [{ s3_key: file, file_name: 'quarterfield-thyroid-2026.pdf', content_type: 'application/pdf' }],
    }),
  );
  const cancelled = await book(profileB, BERLIN_PRENZLAUER_BERG, 8, [2]);
  await post(`/api/v1/appointments/${cancelled}/cancel`, { cancellation_reason: 'Zeddicus moved to Potsdam' });

  const window = { pickup_time_from: '09:00', pickup_time_till: '12:00' };
  const shipped = (
    await post('/api/v1/shipments', { location_id: BERLIN_MITTE, pickup_date: pickupDate(2), ...window, notes: 'Ring twice at the Quarterfield desk' }, 201)
  ).id as string;
  await post('/api/v1/appointments/pickup', { appointment_ids: [inTransit], shipment_id: shipped });
  await post(`/api/v1/shipments/${shipped}/status`, { status: 'shipped', tracking_number: 'GOX-T1-55501' });
  const pending = (await post('/api/v1/shipments', { location_id: BERLIN_PRENZLAUER_BERG, pickup_date: pickupDate(3), ...window }, 201)).id as string;

  const kitPending = (
    await post(
      '/api/v1/home-kit-orders',
      {
        profile_id: profileA,
        delivery_address: {
          name: 'Wilhelmina Quarterfield',
          street: 'Quitzowstraße',
          house_number: '17b',
          postal_code: '10559',
          city: 'Berlin',
          country: 'DE',
          phone: '+4915187654321',
          email: 'kits.quarterfield@tenant-one.example',
        },
      },
      201,
    )
  ).id as string;
  await post(`/api/v1/home-kit-orders/${kitPending}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] });
  const kitCancelled = (await post('/api/v1/home-kit-orders', { profile_id: profileA, delivery_address: { location_id: BERLIN_PRENZLAUER_BERG } }, 201))
    .id as string;
  answers.push([
    `DELETE /api/v1/home-kit-orders/${kitCancelled}`,
    ok(await api.request('DELETE', `/api/v1/home-kit-orders/${kitCancelled}`, { key }), `DELETE /api/v1/home-kit-orders/${kitCancelled} with tenant 1's key`),
  ]);
  const kitActivated = (await post('/api/v1/home-kit-orders', { profile_id: profileB, delivery_address: { location_id: BERLIN_MITTE } }, 201)).id as string;
  await post(`/api/v1/home-kit-orders/${kitActivated}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] });
  await post(`/api/v1/home-kit-orders/${kitActivated}/dispatch`, { tracking_number: 'DHL-T1-77310042', carrier: 'DHL' });
  const home = (await post(`/api/v1/home-kit-orders/${kitActivated}/activate`, { barcode: newBarcode() })).appointment_id as string;

  const documentId = (
    ok(await api.get(`/api/v1/appointments/${completed}/results`, key), `GET /api/v1/appointments/${completed}/results with tenant 1's key`) as {
      documents: { id: string }[];
    }
  ).documents[0]!.id;
  // Two messages per profile (issue #52), recorded as the email pipeline records a simulated one: its list has a second page.
  for (const profileId of [profileA, profileB]) {
    for (const minutesAgo of [2, 1]) {
      const at = new Date(Date.now() - minutesAgo * 60_000);
      const eventId = randomUUID();
      await recordUnsent(
        {
          id: derivedUuid([eventId, 'appointment_booked'], { timeMs: at.getTime() }),
          profile_id: profileId,
          type: 'appointment_booked',
          channel: 'email',
          status: 'simulated',
          subject: 'Quarterfield clinic: your appointment is booked',
          created_at: at.toISOString(),
          sent_at: null,
          event_id: eventId,
        },
        at,
      );
    }
  }
  // Delivered later (deliverTenant1Events), once tenant 2 has a subscription they must not reach.
  const events = eventBridge.entries();
  eventBridge.client.resetHistory();

  return {
    key,
    keyId,
    receiver,
    answers,
    events,
    idempotentCreates,
    resources: {
      profiles: [profileA, profileB],
      appointments: [scheduled, drawn, inTransit, completed, cancelled, home],
      documents: [documentId],
      shipments: [shipped, pending],
      'home-kit-orders': [kitPending, kitCancelled, kitActivated],
      webhooks: [webhook.id as string],
      deliveries: [], // deliverTenant1Events
      events: [], // deliverTenant1Events
      locations: [BERLIN_MITTE, BERLIN_PRENZLAUER_BERG],
    },
  };
}

/**
 * Tenant 1's events through EventBridge → SQS → the dispatcher, while tenant 2 has a subscription to every
 * type (it must get none of them), and a test send: tenant 1's subscription then has deliveries.
 */
export async function deliverTenant1Events(api: TestApi, t1: Awaited<ReturnType<typeof seedTenant1>>): Promise<void> {
  expect(await dispatchEntries(t1.events)).toEqual([]);
  const [webhookId] = t1.resources.webhooks!;
  t1.answers.push([
    `POST /api/v1/webhooks/${webhookId}/test`,
    ok(await api.post(`/api/v1/webhooks/${webhookId}/test`, undefined, t1.key), `POST /api/v1/webhooks/${webhookId}/test with tenant 1's key`),
  ]);
  const deliveries = ok(
    await api.get(`/api/v1/webhooks/${webhookId}/deliveries`, t1.key),
    `GET /api/v1/webhooks/${webhookId}/deliveries with tenant 1's key`,
  ) as { id: string }[];
  expect(deliveries.length).toBeGreaterThan(1);
  // The first two: the retry route pairs every webhook with every delivery.
  t1.resources.deliveries = deliveries.slice(0, 2).map((delivery) => delivery.id);
  // The dispatcher logged them: the event log's own ids.
  const events = ok(await api.get('/api/v1/events', t1.key), `GET /api/v1/events with tenant 1's key`) as { id: string }[];
  expect(events.length).toBeGreaterThan(1);
  t1.resources.events = events.slice(0, 2).map((event) => event.id);
}

/**
 * What belongs to no tenant (issue #51): the lab's reports that matched no order, which the service's own
 * lab-operations staff list, match and discard (LAB_RESULTS_MATCH, issued by the keys CLI only on a key that
 * holds every profile group). The matrix names them from `t2.resources` (the lab's, seeded beside tenant 2),
 * never as tenant 1's: any key with the scope reaches them (listing, discarding: its own answer), so what stays
 * a tenant's is the appointment a match names (BODIES.matchUnmatchedResult: tenant 1's appointments, 403). A
 * tenant-2 key holding that scope is one the CLI would never issue; the matrix gives it every scope anyway,
 * so that only the access context can refuse it. Tenant 1's own reads of these routes are not tenant 1's data
 * (readTenant1 skips them).
 */
export const NO_TENANT_COLLECTIONS: ReadonlySet<string> = new Set(['unmatched-results']);
export const NO_TENANT_ROUTES: ReadonlySet<RouteName> = new Set(['listUnmatchedResults', 'matchUnmatchedResult', 'discardUnmatchedResult']);

/** Two reports of the lab for barcodes no order holds, sent beside tenant 2's seeding: the unmatched results the matrix names. */
async function seedUnmatchedResults(sent: unknown[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [name, barcode] of [
    ['Unbekannt, Ludmilla', 'UNMATCHED-T2-0001'],
    ['Unbekannt, Casimir', 'UNMATCHED-T2-0002'],
  ] as const) {
    const detail = {
      ...report(UNKNOWN_ID, { clinical_results: [clinical(2, 13.9)], patient: { name, date_of_birth: '1955-02-03' } }),
      appointment_id: undefined,
      barcode,
    };
    sent.push(detail);
    expect(await deliver(detail)).toEqual({ outcome: 'unmatched' });
    ids.push(unmatchedIdOf(detail.event_id));
  }
  return ids;
}

/** Tenant 2: a profile with a drawn appointment, a shipment and a webhook subscription (to every type) of its own. */
export async function seedTenant2(api: TestApi, receiverUrl: string): Promise<Tenant2> {
  const { plaintext: key, keyId } = await apiKeyWithId(TENANT_2);
  const sent: unknown[] = [];
  const post = async (path: string, body: unknown, status = 200) => {
    sent.push(body);
    return ok(await api.post(path, body, key), `POST ${path} with tenant 2's key`, status);
  };
  const profileId = (
    await post('/api/v1/profiles', { profile_group_slug: 'partner-clinic', first_name: 'Tuulikki', last_name: 'Virtanen', date_of_birth: '1990-05-05' }, 201)
  ).id as string;
  const drawnAppointmentId = (
    await post('/api/v1/appointments', { profile_id: profileId, location_id: HELSINKI_KAMPPI, scheduled_at: slotIn(9, HELSINKI_KAMPPI) }, 201)
  ).id as string;
  await post(`/api/v1/appointments/${drawnAppointmentId}/biomarkers`, { biomarker_ids: [1] });
  await post(`/api/v1/appointments/${drawnAppointmentId}/confirm`, { barcode: newBarcode() });
  const shipment = (
    await post('/api/v1/shipments', { location_id: HELSINKI_KAMPPI, pickup_date: pickupDate(4), pickup_time_from: '10:00', pickup_time_till: '14:00' }, 201)
  ).id as string;
  const everyType = ['AppointmentStatusChanged', 'HomeKitOrderStatusChanged', 'ShipmentStatusChanged', 'LabResultsAvailable'];
  const webhook = (await post('/api/v1/webhooks', { url: receiverUrl, event_types: everyType }, 201)).id as string;
  const unmatched = await seedUnmatchedResults(sent);
  return {
    key,
    keyId,
    sent,
    profileId,
    drawnAppointmentId,
    resources: {
      profiles: [profileId],
      appointments: [drawnAppointmentId],
      shipments: [shipment],
      webhooks: [webhook],
      locations: [HELSINKI_KAMPPI],
      'unmatched-results': unmatched,
    },
  };
}

/** One request of the matrix: where, with what body, and which tenant-1 resources it names. */
export interface Probe {
  path: string;
  body?: unknown;
  /** Another answer than the matrix's rule (403 where tenant 1 is named), with the reason. */
  expected?: { status: number; because: string };
}

type Bodies = (t1: Resources, t2: Tenant2) => unknown[];

/**
 * A valid body for every route that takes one (validation answers 400 before the access check, so an
 * invalid body would prove nothing), naming tenant-1 resources where the body can name any, each way it
 * can: several bodies when a route names more than one kind (a profile and a location).
 */
export const BODIES: Partial<Record<RouteName, Bodies>> = {
  createProfile: () => [{ profile_group_slug: 'demo-clinic', first_name: 'Mallory', last_name: 'Intruder', date_of_birth: '1990-01-01' }],
  updateProfile: () => [{ first_name: 'Mallory' }],
  createAppointment: (t1, t2) => [
    { profile_id: t1.profiles![0], location_id: HELSINKI_KAMPPI, scheduled_at: slotIn(12, HELSINKI_KAMPPI) },
    { profile_id: t2.profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(12) },
    { profile_id: t1.profiles![1], location_id: BERLIN_PRENZLAUER_BERG, scheduled_at: slotIn(12, BERLIN_PRENZLAUER_BERG) },
  ],
  updateAppointment: () => [{ scheduled_at: slotIn(11) }],
  updateLocation: () => [{ capacity_per_slot: 3 }],
  attachAppointmentPanels: () => [{ panel_ids: [THYROID_PANEL] }],
  attachAppointmentBiomarkers: () => [{ biomarker_ids: [5] }],
  confirmAppointment: () => [{ barcode: 'MALLORY-0001' }],
  cancelAppointment: () => [{ cancellation_reason: 'cancelled by another tenant' }],
  createPatientLink: () => [{}, { revoke_previous: true }],
  pickupAppointments: (t1, t2) => [
    ...t1.appointments!.map((id) => ({ appointment_ids: [id] })),
    ...t1.shipments!.map((id) => ({ appointment_ids: [t2.drawnAppointmentId], shipment_id: id })),
  ],
  createShipment: (t1) => t1.locations!.map((id) => ({ location_id: id, pickup_date: pickupDate(5), pickup_time_from: '09:00', pickup_time_till: '13:00' })),
  updateShipment: () => [{ pickup_time_from: '10:00', pickup_time_till: '14:00' }],
  updateShipmentStatus: () => [{ status: 'fault' }],
  createHomeKitOrder: (t1, t2) => [
    ...t1.profiles!.map((id) => ({ profile_id: id, delivery_address: { location_id: HELSINKI_KAMPPI } })),
    { profile_id: t2.profileId, delivery_address: { location_id: BERLIN_MITTE } },
  ],
  attachHomeKitOrderPanels: () => [{ panel_ids: [CARDIOGENETICS_PANEL] }],
  attachHomeKitOrderBiomarkers: () => [{ biomarker_ids: [6] }],
  dispatchHomeKitOrder: () => [{ tracking_number: 'MALLORY-TRACK-1' }],
  activateHomeKitOrder: () => [{ barcode: 'MALLORY-KIT-1' }],
  createWebhook: () => [{ url: 'http://127.0.0.1:9/other-tenant', event_types: ['AppointmentStatusChanged'] }],
  updateWebhook: () => [{ description: 'changed by another tenant' }],
  simulateSandboxResults: () => [{ outcome: 'normal' }],
  // Each of tenant 1's appointments as the match's target: another tenant's key is refused by the access context (403).
  matchUnmatchedResult: (t1) => t1.appointments!.map((id) => ({ appointment_id: id })),
  discardUnmatchedResult: () => [{ reason: 'discarded by another tenant' }],
};

/**
 * Tenant 2's own resources in the path with tenant-1 resources in the body: the body's reference must be
 * checked too (an appointment moved to a tenant-1 location).
 */
export const OWN_PATH_PROBES: Partial<Record<RouteName, (t1: Resources, t2: Tenant2) => Probe[]>> = {
  updateAppointment: (_, t2) => [{ path: `/api/v1/appointments/${t2.drawnAppointmentId}`, body: { location_id: BERLIN_MITTE } }],
  // A delivery of tenant 1 retried under tenant 2's own subscription: a delivery is looked up under its
  // subscription, where another's is not found, as an id that exists nowhere (no hint that it exists).
  retryWebhookDelivery: (t1, t2) =>
    (t1.deliveries ?? []).map((id) => ({
      path: `/api/v1/webhooks/${t2.resources.webhooks![0]}/deliveries/${id}/retry`,
      expected: { status: 404, because: 'not a delivery of this subscription' },
    })),
};

type Operation = {
  requestBody?: { required?: boolean };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
};
type OperationWithParameters = Operation & { parameters?: { in: string; name: string }[] };
const operations = document.paths as unknown as Record<string, Record<string, Operation>>;

export function operationOf(route: Route): Operation {
  const operation = operations[route.path]?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`${route.method} ${route.path} is not in docs/openapi.json: run npm run openapi`);
  return operation;
}

/** The creates whose operation takes an `Idempotency-Key` header, as `METHOD path`. */
export const IDEMPOTENT_ROUTES: ReadonlySet<string> = new Set(
  routeEntries
    .filter(([, route]) => (operationOf(route) as OperationWithParameters).parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
    .map(([, route]) => `${route.method} ${route.path}`),
);

/** A list: its 200 answer is an array (a page of one), as docs/openapi.json says. */
export function isList(route: Route): boolean {
  const schema = operationOf(route).responses['200']?.content?.['application/json']?.schema;
  return schema?.type === 'array';
}

/**
 * A read of a resource in a state it needs, whose contract documents a 409 for the others (a requisition
 * before the draw): its own resources in another state answer 409, not 200.
 */
export function readsAState(route: Route): boolean {
  return route.method === 'GET' && operationOf(route).responses['409'] !== undefined;
}

/** `/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry` → [[webhooks, id], [deliveries, delivery_id]]. */
export function pathParameters(path: string): [collection: string, parameter: string][] {
  return [...path.matchAll(/\/([^/{}]+)\/\{(\w+)\}/g)].map((match) => [match[1]!, match[2]!]);
}

const fill = (path: string, values: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);

/**
 * Every request of a route naming tenant-1 resources: each combination of tenant-1 ids for its path
 * parameters, times each body. Throws, saying what to add, for a parameter or a body the seed lacks.
 */
export function probesOf(name: RouteName, route: Route, t1: Resources, t2: Tenant2): Probe[] {
  const where = `${route.method} ${route.path}`;
  let combinations: Record<string, string>[] = [{}];
  for (const [collection, parameter] of pathParameters(route.path)) {
    const ids = NO_TENANT_COLLECTIONS.has(collection) ? t2.resources[collection] : t1[collection];
    if (!ids?.length) {
      throw new Error(
        `${where}: no tenant-1 resource for {${parameter}} (the collection "${collection}"); create one in seedTenant1 (test/support/tenants.ts) and list it under resources["${collection}"]`,
      );
    }
    combinations = combinations.flatMap((values) => ids.map((id) => ({ ...values, [parameter]: id })));
  }
  if (route.path.includes('{') && combinations.length === 0) throw new Error(`${where}: its path parameters were not understood`);
  const takesBody = operationOf(route).requestBody !== undefined;
  const bodies = BODIES[name];
  if (takesBody && !bodies)
    throw new Error(`${where}: takes a body and BODIES["${name}"] in test/support/tenants.ts has none; add valid bodies naming tenant-1 resources`);
  const bodyList = takesBody ? bodies!(t1, t2) : [undefined];
  const probes = combinations.flatMap((values) => bodyList.map((body) => ({ path: fill(route.path, values), body })));
  return [...probes, ...(OWN_PATH_PROBES[name]?.(t1, t2) ?? [])];
}

/** The JSON of an answer: application/json is parsed by the client already, application/fhir+json is here. */
export function jsonOf(res: ApiResponse): unknown {
  if (typeof res.body === 'string' && /\+json/.test(res.headers.get('content-type') ?? '')) return JSON.parse(res.body);
  return typeof res.body === 'string' ? undefined : res.body;
}

/** A list route the client pages through with `cursor` (and `X-Next-Cursor`). */
export function isPaged(route: Route): boolean {
  const operation = operationOf(route) as OperationWithParameters;
  return (operation.parameters ?? []).some((parameter) => parameter.in === 'query' && parameter.name === 'cursor');
}

/** Every string and number in a JSON value, with where it was first seen (`at`: a prefix, such as the path it was read from and a space). */
export function leaves(value: unknown, at = '', into = new Map<string | number, string>()): Map<string | number, string> {
  if (typeof value === 'string' || typeof value === 'number') {
    if (!into.has(value)) into.set(value, at || '(the body)');
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => leaves(item, `${at}[${index}]`, into));
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) leaves(inner, at && !at.endsWith(' ') ? `${at}.${key}` : `${at}${key}`, into);
  }
  return into;
}

/** Every word of an enum in docs/openapi.json: statuses, event types, kinds. Trivially common, never a tenant's. */
export const ENUM_WORDS: ReadonlySet<string> = (() => {
  const words = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, inner] of Object.entries(node)) {
        if ((key === 'enum' && Array.isArray(inner)) || key === 'const') [inner].flat().forEach((word) => typeof word === 'string' && words.add(word));
        walk(inner);
      }
    }
  };
  walk(document);
  return words;
})();

/** Every item of the table by its key: the one scanner (test/support/table.ts). */
export { tableItems } from './table';
