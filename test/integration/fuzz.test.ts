/**
 * Property-based fuzzing of every route (fast-check): requests generated from the routes table and the
 * request schemas (test/support/fuzz/requests.ts) — valid, mutated and hostile bodies, path ids, query
 * strings, keys, content types and Idempotency-Keys — sent one at a time to the local server, with the
 * properties every answer must keep:
 *   - never a 5xx;
 *   - a 4xx body is exactly {"error": <non-empty string>};
 *   - a refused (4xx) request changes nothing: a digest of the whole table and the documents bucket
 *     before a run of refused requests equals the one after it (test/support/fuzz/digest.ts);
 *   - every answer is the documented one (test/support/contract.ts), and a request the schemas refuse
 *     is refused; a plausible GET of the key's own resources answers 2xx.
 *
 *   FUZZ_REQUESTS=20000 (default 10,240)  FUZZ_SEED=123  FUZZ_SHRINK=1 (shrink a failure: slow, the server keeps its state)
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { handlerContracts } from '../../infra/contract/openapi';
import { issueApiKey } from '../../shared/auth/api-keys';
import { operations } from '../../shared/contract/operations';
import { SCOPES } from '../../shared/domain/scopes';
import type { HandlerContract } from '../../shared/http/handler';
import { type RouteName, routes } from '../../shared/routes';
import { revokeApiKey } from '../../shared/store/api-keys/lifecycle';
import { useApi } from '../support/api';
import { assertDocumented } from '../support/contract';
import { mockEventBridge } from '../support/event-bridge';
import { BERLIN_INACTIVE, BERLIN_MITTE, BERLIN_PRENZLAUER_BERG, BIOMARKERS, HELSINKI_KAMPPI, PANELS, seedDemoData } from '../support/fixtures';
import { type Digest, difference, digester } from '../support/fuzz/digest';
import { captureLogs } from '../support/log-capture';
import { requestAsWritten } from '../support/request-as-written';
import { logger } from '../../shared/logger';
import { watchWrites } from '../support/fuzz/write-watch';
import { type FuzzRequest, keyHeaderValue, NARROW_SCOPE, requestArbitrary, type World } from '../support/fuzz/requests';
import { unmatchedIdOf } from '../../shared/usecases/keep-unmatched-result';
import { clinical, deliver, report, uploadIncoming } from '../support/lab';
import { confirmDraw, createProfile, pickupDate, scheduleAppointment, slotIn } from '../support/scenario';
import { readsAState } from '../support/tenants';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

const api = useApi();
mockEventBridge();

const BATCH = 32;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? (process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) * BATCH : 10_240));
const SEED = process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);

let world: World;
let contracts: Map<RouteName, HandlerContract>;
let receiver: Receiver;
const digests = digester({ s3Endpoint: process.env.S3_ENDPOINT!, region: process.env.AWS_REGION!, bucket: process.env.DOCUMENTS_BUCKET! });

beforeAll(async () => {
  await seedDemoData();
  receiver = await startReceiver();
  const tenant = { name: 'fuzz', scopes: [...SCOPES], profileGroups: ['demo-clinic'], locationGroups: ['berlin'] };
  const full = await issueApiKey(tenant, new Date());
  const narrow = await issueApiKey({ ...tenant, scopes: [NARROW_SCOPE] }, new Date());
  const otherTenant = await issueApiKey({ ...tenant, profileGroups: ['partner-clinic'], locationGroups: ['helsinki'] }, new Date());
  const revoked = await issueApiKey(tenant, new Date());
  await revokeApiKey(revoked.keyId);
  const key = full.plaintext;

  // The resources of the full key's tenant, made as a clinic app makes them.
  const profiles = [await createProfile(api, key), await createProfile(api, key), await createProfile(api, key)];
  const scheduled = await scheduleAppointment(api, key, { profileId: profiles[0] });
  const drawn = await scheduleAppointment(api, key, { profileId: profiles[0] });
  await confirmDraw(api, key, drawn);
  const cancelled = await scheduleAppointment(api, key, { profileId: profiles[1] });
  await api.post(`/api/v1/appointments/${cancelled}/cancel`, { cancellation_reason: 'moved' }, key);
  const reported = await scheduleAppointment(api, key, { profileId: profiles[1], scheduledAt: slotIn(2) });
  await confirmDraw(api, key, reported);
  const incoming = await uploadIncoming(Buffer.from('%PDF-1.7 fuzz'));
  await deliver(report(reported, { documents: [{ s3_key: incoming, file_name: 'report.pdf', content_type: 'application/pdf' }] }));
  const documents = (await api.get(`/api/v1/appointments/${reported}/results`, key)).body.documents.map((document: { id: string }) => document.id);
  const shipment = await api.post(
    '/api/v1/shipments',
    { location_id: BERLIN_MITTE, pickup_date: pickupDate(), pickup_time_from: '09:00', pickup_time_till: '12:00' },
    key,
  );
  const kit = await api.post('/api/v1/home-kit-orders', { profile_id: profiles[2], delivery_address: { location_id: BERLIN_MITTE } }, key);
  const webhook = await api.post('/api/v1/webhooks', { url: receiver.url, event_types: ['AppointmentStatusChanged'] }, key);
  const delivery = await api.post(`/api/v1/webhooks/${webhook.body.id}/test`, undefined, key);
  for (const res of [shipment, kit, webhook, delivery]) expect(res.status).toBeLessThan(300);
  const assets = [...((await api.get('/docs')).body as string).matchAll(/assets\/([\w.-]+)/g)].map((match) => match[1]!);
  // The lab's reports for barcodes no order holds (issue #51): they belong to no tenant, so to the full key's world too.
  const unmatched = [];
  for (const barcode of ['FUZZ-UNMATCHED-1', 'FUZZ-UNMATCHED-2']) {
    const detail = { ...report(drawn, { clinical_results: [clinical(1, 5)], patient: { name: 'Fuzz, Unmatched', date_of_birth: null } }), barcode };
    expect(await deliver({ ...detail, appointment_id: undefined })).toEqual({ outcome: 'unmatched' });
    unmatched.push(unmatchedIdOf(detail.event_id));
  }

  // Patient links (issue #53) to the scheduled, the drawn and the cancelled appointment: the page and its
  // changes are fuzzed with tokens that open something, not only with ones that open nothing.
  const links: string[] = [];
  for (const [appointment, profile] of [
    [scheduled, profiles[0]!],
    [drawn, profiles[0]!],
    [cancelled, profiles[1]!],
  ] as const) {
    const link = await api.post(`/api/v1/appointments/${appointment}/patient-link`, {}, key);
    expect(link.status).toBe(201);
    const token = new URL(link.body.url as string).pathname.split('/').pop()!;
    links.push(token);
    linkTargets.set(token, { appointment, profile });
  }

  world = {
    ids: {
      // The segment before {token} in /p/{token}: the link's token is the id there.
      p: links,
      profiles,
      appointments: [scheduled, drawn, cancelled, reported],
      shipments: [shipment.body.id],
      'home-kit-orders': [kit.body.id],
      webhooks: [webhook.body.id],
      deliveries: [delivery.body.id],
      documents,
      locations: [BERLIN_MITTE, BERLIN_PRENZLAUER_BERG],
      assets,
      'unmatched-results': unmatched,
    },
    panels: PANELS.map((panel) => panel.id),
    biomarkers: BIOMARKERS.map((biomarker) => biomarker.id),
    locations: [BERLIN_MITTE, BERLIN_PRENZLAUER_BERG, BERLIN_INACTIVE, HELSINKI_KAMPPI],
    cursors: [],
    webhookUrl: receiver.url,
    keys: { full: key, narrow: narrow.plaintext, otherTenant: otherTenant.plaintext, revoked: revoked.plaintext },
  };
  // Each key records its first use of the day (docs/api-keys.md "Last use"): use each once before any digest.
  for (const plaintext of [narrow.plaintext, otherTenant.plaintext]) await api.get('/api/v1/locations', plaintext);
  contracts = await handlerContracts();
});

afterAll(async () => {
  digests.close();
  await receiver?.close();
});

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** Sends exactly the generated path, headers and bytes (api.request would add a content type), then checks the contract. */
async function send(request: FuzzRequest): Promise<Answer> {
  const headers = new Headers();
  for (const [name, value] of request.headers) headers.append(name, keyHeaderValue(value, world));
  // The path as generated: a hostile id must reach the server as the path the properties judge.
  const response = await requestAsWritten(api.url(), request.path, request.method, headers, request.body).catch((error: unknown) => {
    throw new Error(`no answer (${error instanceof Error ? error.message : String(error)}) to ${fc.stringify(request)}`);
  });
  const { text } = response;
  let body: unknown = text;
  if (response.headers.get('content-type')?.includes('application/json') && text) body = JSON.parse(text);
  // HEAD answers have no body to check; the status is still a documented one or the gateway's.
  if (request.method !== 'HEAD' && request.method !== 'OPTIONS')
    assertDocumented(request.method, request.path, { status: response.status, headers: response.headers, body });
  return { status: response.status, headers: response.headers, body, text };
}

/** Ids an accepted DELETE removed (or cancelled): still sent, no longer expected to be found. */
const gone = new Set<string>();

/** The world's patient links: what each opens, so that a revocation or an erasure makes it one that opens nothing. */
const linkTargets = new Map<string, { appointment: string; profile: string }>();

/** The body a request sent, as JSON; undefined when it is none or not JSON. */
function sentJson(request: FuzzRequest): unknown {
  if (typeof request.body !== 'string') return undefined;
  try {
    return JSON.parse(request.body);
  } catch {
    return undefined;
  }
}

/** What an accepted request made or showed, so that later requests can use it (ids of creates, cursors, deliveries). */
function learn(request: FuzzRequest, answer: Answer): void {
  if (request.route === 'none') return;
  if (request.method === 'DELETE') for (const id of request.ownIds ?? []) gone.add(id);
  // A link opens nothing once a newer one revoked it, or once its profile was erased (docs/patient-page.md).
  const revokes = request.route === 'createPatientLink' && (sentJson(request) as { revoke_previous?: unknown } | undefined)?.revoke_previous === true;
  for (const [token, target] of linkTargets) {
    if (revokes && request.ownIds?.includes(target.appointment)) gone.add(token);
    if (request.route === 'eraseProfile' && request.ownIds?.includes(target.profile)) gone.add(token);
  }
  const cursor = answer.headers.get('x-next-cursor');
  if (cursor && world.cursors.length < 50) world.cursors.push(cursor);
  const body = answer.body as { id?: unknown } | { id?: unknown }[];
  const path = routes[request.route].path;
  // Only the full key's creates: the world's ids are that tenant's own (another key's webhook is not its own).
  if (answer.status === 201 && request.fuzzed.includes('key:full') && !Array.isArray(body) && typeof body.id === 'string') {
    const resource = path.split('/').pop()!;
    (world.ids[resource] ??= []).push(body.id);
  }
  if (path.endsWith('/test') && request.fuzzed.includes('key:full') && !Array.isArray(body) && typeof body.id === 'string') world.ids.deliveries!.push(body.id);
}

/**
 * The digests: the whole table and bucket before each batch's run of requests the schemas refuse and after
 * it, so that every such run is proven to have changed nothing. The plausible requests that follow (which
 * may be accepted, and change things) are each checked item by item instead (test/support/fuzz/write-watch.ts):
 * a digest around each of them would cost more than the requests.
 */
class Ledger {
  private baseline: Digest | undefined;
  private pending: FuzzRequest[] = [];
  digestsTaken = 0;
  digestMs = 0;
  verifiedRefusals = 0;

  private async digest(): Promise<Digest> {
    this.digestsTaken += 1;
    const started = performance.now();
    const digest = await digests.digest();
    this.digestMs += performance.now() - started;
    return digest;
  }

  /** Before a request: the run of refusals ends at the first plausible one. */
  async before(request: FuzzRequest): Promise<void> {
    if (request.plausible) await this.close();
    else this.baseline ??= await this.digest();
  }

  after(request: FuzzRequest, status: number): void {
    if (status < 400) this.baseline = undefined;
    else if (!request.plausible) this.pending.push(request);
  }

  async close(): Promise<void> {
    if (this.pending.length === 0 || !this.baseline) return;
    const after = await this.digest();
    const changes = difference(this.baseline, after);
    if (changes.length > 0) {
      const requests = this.pending.map((request) => `  ${fc.stringify(request)}`).join('\n');
      throw new Error(`a run of ${this.pending.length} refused requests changed the stored state:\n${changes.slice(0, 20).join('\n')}\nthe run:\n${requests}`);
    }
    this.verifiedRefusals += this.pending.length;
    this.baseline = after;
    this.pending = [];
  }
}

const describeRequest = (request: FuzzRequest, answer: Answer) =>
  `${request.method} ${request.path.slice(0, 300)} [${request.fuzzed.join(' ')}] answered ${answer.status} ${answer.text.slice(0, 300)}`;

it(`keeps every property over ${REQUESTS.toLocaleString('en')} generated requests`, async () => {
  const ledger = new Ledger();
  const statuses = new Map<number, number>();
  let sent = 0;
  const timing = { plausible: 0, refused: 0 };
  let itemChecked = 0;
  const writes = watchWrites({ endpoint: process.env.DYNAMODB_ENDPOINT!, region: process.env.AWS_REGION!, tableName: process.env.TABLE_NAME! });
  const requests = requestArbitrary(contracts, world);
  // One fast-check run is a batch: the refusals the schemas predict first, as one run between two
  // digests, then the plausible requests, each between the digests its neighbours need anyway.
  const batch = fc
    .array(requests, { minLength: BATCH, maxLength: BATCH })
    .map((list) => [...list.filter((r) => !r.plausible), ...list.filter((r) => r.plausible)]);
  const property = fc.asyncProperty(batch, async (list) => {
    for (const request of list) {
      await ledger.before(request);
      const logLines = logs.lines().length;
      writes.reset();
      const sentAt = performance.now();
      const answer = await send(request);
      timing[request.plausible ? 'plausible' : 'refused'] += performance.now() - sentAt;
      sent += 1;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 500) {
        // What the service logged for it (WARN and up during the run: a 503 is logged as WARN): error names
        // and stacks, never values (docs/endpoints.md "Errors").
        const logged = logs.lines().slice(logLines);
        throw new Error(`a 5xx: ${describeRequest(request, answer)}\nlogged:\n${logged.join('\n').slice(0, 4000)}`);
      }
      // A HEAD answer has no body, by HTTP; its status is still checked.
      // A page for a person documents its own HTML refusal (the unsubscribe link's 404, issue #52).
      const documentedPage =
        request.route !== 'none' &&
        (operations[request.route].responses as Record<number, { content?: { type: string } }>)[answer.status]?.content?.type === 'text/html';
      if (answer.status >= 400 && request.method !== 'HEAD' && !documentedPage) {
        const body = answer.body as Record<string, unknown>;
        const exact = typeof body === 'object' && body !== null && Object.keys(body).length === 1 && typeof body.error === 'string' && body.error.length > 0;
        if (!exact) throw new Error(`a 4xx whose body is not exactly {error}: ${describeRequest(request, answer)}`);
      }
      if (answer.status < 400 && !request.plausible) throw new Error(`accepted a request its schemas refuse: ${describeRequest(request, answer)}`);
      // A read of a state (a requisition, after the draw) may answer its documented 409 for a resource in another.
      const notInItsState = answer.status === 409 && request.route !== 'none' && readsAState(routes[request.route]);
      // A patient link's page counts against its link's 30 requests a minute, which the run's pace exceeds.
      const linkRateLimited = answer.status === 429 && request.route !== 'none' && routes[request.route].path.startsWith('/p/');
      if (request.mustSucceed && !request.ownIds?.some((id) => gone.has(id)) && answer.status >= 300 && !notInItsState && !linkRateLimited)
        throw new Error(`a valid read of an own resource refused: ${describeRequest(request, answer)}`);
      if (answer.status >= 400 && writes.count() > 0) {
        const changed = await writes.changed();
        itemChecked += 1;
        if (changed.length > 0) throw new Error(`a refused request changed ${changed.join(', ')}: ${describeRequest(request, answer)}`);
      }
      ledger.after(request, answer.status);
      if (answer.status < 400) learn(request, answer);
    }
    await ledger.close();
  });
  // The seed before the run, too: a run that hangs or is killed at its timeout still names what reproduces it.
  console.log(`fuzz: seed ${SEED} (FUZZ_SEED=${SEED} npx vitest run test/integration/fuzz.test.ts replays the same request shapes)`);
  const started = performance.now();
  // Tests log ERROR only (fresh-table.setup.ts); the run captures WARN too, so a 503 (logged as WARN) shows
  // what the service said about it. Request lines (INFO) stay out: 10,000 of them would only cost memory.
  const level = logger.getLevelName();
  logger.setLogLevel('WARN');
  const logs = captureLogs();
  let result: fc.RunDetails<[FuzzRequest[]]>;
  try {
    result = await fc.check(property, { seed: SEED, numRuns: Math.ceil(REQUESTS / BATCH), endOnFailure: process.env.FUZZ_SHRINK !== '1' });
  } finally {
    logs.stop();
    writes.stop();
    logger.setLogLevel(level);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `fuzz: ${sent.toLocaleString('en')} requests, seed ${SEED} (FUZZ_SEED=${SEED} replays the same request shapes); ` +
      `${seconds} s, ${ledger.digestsTaken} digests (${(ledger.digestMs / 1000).toFixed(1)} s), ${ledger.verifiedRefusals} refusals verified unchanged by digest, ${itemChecked} refusals that tried a write verified item by item; timing ${JSON.stringify(timing)} statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
  );
  // fast-check's report (seed, path, counterexample) and the property's own message, naming the request.
  if (result.failed) throw new Error(`${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}`);
}, 600_000);
