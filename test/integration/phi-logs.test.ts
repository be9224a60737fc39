/**
 * No personal data in any log line (issue #17). One full scenario runs through the local server and the
 * non-HTTP functions, at the most verbose log level, with every line captured (test/support/log-capture.ts):
 * booking to report, kit to activation, shipment to delivery, webhooks with failing receivers and a secret
 * rotation, the relay, refusals (400, 401, 403, 409), a rejected lab report and injected DynamoDB failures
 * (500, 503), then the erasure. Each test then scans every line for one kind of value the scenario sent.
 *
 * The level is set before any module loads (vi.hoisted): the logger reads POWERTOOLS_LOG_LEVEL once, when
 * shared/logger.ts is imported. TRACE is Powertools' most verbose level, so what DEBUG and the deployed
 * INFO write is a subset of what is scanned here.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'TRACE';
});

import type { Context } from 'aws-lambda';
import { handler as relayOutbox } from '../../functions/events/relay-outbox';
import { handler as webhookRetries } from '../../functions/events/webhook-retries';
import { POWERTOOLS_ENVIRONMENT } from '../../infra/api-function';
import { logger } from '../../shared/logger';
import { ACCESS_LOG_PARTITION_PREFIX } from '../../shared/store/keys';
import { type ApiResponse, useApi } from '../support/api';
import { type Middleware, withMiddleware } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, apiKeyWithId, BERLIN_MITTE, seedDemoData } from '../support/fixtures';
import { captureLogs, dateForms, type Finding, findLeaks, type Form, formsOf, type LogCapture } from '../support/log-capture';
import { clinical, deliver, report, uploadIncoming } from '../support/lab';
import { CARDIOGENETICS_PANEL, ESSENTIALS_PANEL, pickupDate, slotIn } from '../support/scenario';
import { dispatchEntries, type Receiver, startReceiver } from '../support/webhooks';

const api = useApi();
const eventBridge = mockEventBridge();

// The scenario's values: distinctive, so that a match in a log line is this scenario's value and no accident.
const PERSON = {
  first_name: 'Ottoline',
  last_name: 'Quastenberg',
  handle: 'oquastenberg84',
  email: 'ottoline.quastenberg@example.org',
  phone: '+4930987654321',
  date_of_birth: '1984-03-07',
};
const BARCODE = 'OQ-PHI-771942';
const KIT_BARCODE = 'KIT-PHI-558812';
/** Sent and refused: a malformed one (400), another for a drawn appointment (409); an unknown one in a lab report (kept unmatched). */
const REFUSED_BARCODES = ['oq phi 771942!', 'OQ-PHI-771999', 'OQ-PHI-771943'];
const RESULT_VALUES = [137.913, 58.0417, 9.87654, 264.318];
const RESULT_COMMENTS = ['Probe leicht haemolysiert Zwiebelturm', 'Wiederholung empfohlen Kastanienallee-Notiz'];
const FILE_NAME = `Befund ${PERSON.first_name} ${PERSON.last_name} ${PERSON.date_of_birth}.pdf`;
/** A file the lab lists but never uploaded, named as labs name files: after the patient. */
const MISSING_UPLOAD = `incoming/${PERSON.last_name}_${PERSON.first_name}_19840307.pdf`;
const ADDRESS = {
  name: 'Wilhelmina Quittenbaum',
  street: 'Quittenweg',
  house_number: '77b',
  postal_code: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: '+4930123987654',
  email: 'w.quittenbaum@example.net',
};
const SHIPMENT_NOTES = 'Hintereingang Zwetschgenhof, Klingel drei, bitte klopfen';
const CANCELLATION_REASON = 'Zitronenfalter-Grippe, neuer Termin folgt';
const WEBHOOK_TOKEN = 'tok_Hagebutte5531';
const UNKNOWN_KEY = `lab_${randomBytes(32).toString('base64url')}`;

const keyPlaintexts: string[] = [UNKNOWN_KEY];
const webhookSecrets: string[] = [];
let capture: LogCapture;
let lines: string[] = [];

type Command = { input: { Item?: { PK?: string }; Key?: { SK?: string }; UpdateExpression?: string; KeyConditionExpression?: string } };

/** An AWS error whose message quotes the item, as DynamoDB's messages may: only its name may be logged. */
const failing =
  (when: (command: Command) => boolean, name = 'InternalServerError'): Middleware =>
  (next) =>
  async (args) => {
    if (!when(args as Command)) return next(args);
    // Shaped as the SDK's error of that name (`$metadata`, `$fault`): only an AWS call's error may answer 503.
    const server = name === 'InternalServerError';
    throw Object.assign(new Error(`Item {first_name: ${PERSON.first_name}, email: ${PERSON.email}, barcode: ${BARCODE}} could not be written`), {
      name,
      $fault: server ? 'server' : 'client',
      $metadata: { httpStatusCode: server ? 500 : 400, attempts: 1 },
    });
  };

function expectStatus(res: ApiResponse, status: number, step: string): ApiResponse {
  // The error message only: a body may hold the scenario's values, which stay out of the test output too.
  expect(res.status, `${step}: ${String(res.body?.error ?? '')}`).toBe(status);
  return res;
}

/**
 * A function outside HTTP runs as its Lambda would: one invocation, and an error it throws is logged as
 * Lambda's Node.js runtime logs it ("Invoke Error" with the error's type, message and stack), so a message
 * that quotes a value is caught too.
 */
async function invoke<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const { name, message, stack } = error as Error;
    console.error('Invoke Error', JSON.stringify({ errorType: name, errorMessage: message, stack: stack?.split('\n') }));
    throw error;
  }
}

/** What EventBridge → SQS → the dispatcher Lambda does with everything put since the last call. */
async function dispatchPut(): Promise<void> {
  const entries = eventBridge.entries();
  eventBridge.client.resetHistory();
  expect(await invoke(() => dispatchEntries(entries))).toEqual([]);
}

/** A scheduled function run `aheadMs` from now (the relay waits 30 s, a retry 5 s): Date alone is moved. */
async function later<T>(aheadMs: number, run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + aheadMs });
  try {
    return await invoke(run);
  } finally {
    vi.useRealTimers();
  }
}

const lambdaContext = { getRemainingTimeInMillis: () => 60_000 } as Context;

async function scenario(): Promise<void> {
  const { plaintext: key } = await apiKeyWithId();
  const courier = await apiKey({ scopes: ['SHIPMENTS_TRACK'] });
  keyPlaintexts.push(key, courier);
  eventBridge.client.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'test' }] });

  // Webhooks: one receiver that accepts, one that answers 500, one that never answers, one port that refuses.
  const ok = await startReceiver();
  const broken = await startReceiver(() => 500);
  const hanging = await startReceiver(() => 'hang');
  receivers.push(ok, broken, hanging);
  const subscribe = async (url: string, eventTypes: string[]) => {
    const res = expectStatus(await api.post('/api/v1/webhooks', { url, event_types: eventTypes, description: 'Praxis Hagebutte' }, key), 201, 'subscribe');
    webhookSecrets.push(res.body.secret);
    return res.body.id as string;
  };
  const allTypes = ['AppointmentStatusChanged', 'HomeKitOrderStatusChanged', 'ShipmentStatusChanged', 'LabResultsAvailable'];
  const okHook = await subscribe(`${ok.url}?token=${WEBHOOK_TOKEN}`, allTypes);
  const brokenHook = await subscribe(`${broken.url}?token=${WEBHOOK_TOKEN}`, allTypes);
  const hangingHook = await subscribe(`${hanging.url}?token=${WEBHOOK_TOKEN}`, ['ShipmentStatusChanged']);
  const refusedHook = await subscribe(`http://127.0.0.1:9/hooks?token=${WEBHOOK_TOKEN}`, ['ShipmentStatusChanged']);
  // The sender waits 10 s for a status line: that wait runs beside the rest of the scenario, and the
  // subscription is disabled once the attempt is under way, so that no event waits as long again.
  const hangingTest = api.post(`/api/v1/webhooks/${hangingHook}/test`, undefined, key);
  let answered = false;
  const settle = () => (answered = true);
  void hangingTest.then(settle, settle);
  // Bounded, so that a send that never reaches the receiver fails here, saying so, not at the hook's timeout.
  for (let waited = 0; hanging.received.length === 0; waited += 20) {
    if (answered || waited >= 30_000)
      throw new Error(`the test send to the hanging receiver ${answered ? 'was answered without reaching it' : 'had not reached it after 30 s'}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expectStatus(await api.patch(`/api/v1/webhooks/${hangingHook}`, { status: 'disabled' }, key), 200, 'disable the hanging one');
  expectStatus(await api.post(`/api/v1/webhooks/${refusedHook}/test`, undefined, key), 200, 'test send to a refusing port');

  // Booking to report.
  const profileBody = { profile_group_slug: 'demo-clinic', ...PERSON, sex: 2, language: 'de' };
  const created = expectStatus(
    await api.request('POST', '/api/v1/profiles', { key, body: profileBody, headers: { 'idempotency-key': 'phi-logs-1' } }),
    201,
    'create profile',
  );
  expectStatus(await api.request('POST', '/api/v1/profiles', { key, body: profileBody, headers: { 'idempotency-key': 'phi-logs-1' } }), 201, 'replayed create');
  const profileId = created.body.id as string;
  expectStatus(await api.get(`/api/v1/profiles/${profileId}`, key), 200, 'get profile');
  expectStatus(await api.patch(`/api/v1/profiles/${profileId}`, { height: 171, phone: PERSON.phone }, key), 200, 'patch profile');
  const appointment = expectStatus(
    await api.post('/api/v1/appointments', { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(7) }, key),
    201,
    'create appointment',
  );
  const appointmentId = appointment.body.id as string;
  expectStatus(await api.post(`/api/v1/appointments/${appointmentId}/panels`, { panel_ids: [ESSENTIALS_PANEL] }, key), 200, 'panels');
  expectStatus(await api.post(`/api/v1/appointments/${appointmentId}/confirm`, { barcode: BARCODE }, key), 200, 'confirm');
  expectStatus(await api.post(`/api/v1/appointments/${appointmentId}/confirm`, { barcode: BARCODE }, key), 200, 'confirm again');
  expectStatus(await api.get(`/api/v1/appointments/${appointmentId}/requisition`, key), 200, 'requisition form PDF');

  // Shipment to delivery, carrying the sample.
  const shipment = expectStatus(
    await api.post(
      '/api/v1/shipments',
      { location_id: BERLIN_MITTE, pickup_date: pickupDate(), pickup_time_from: '10:00', pickup_time_till: '12:00', notes: SHIPMENT_NOTES },
      key,
    ),
    201,
    'create shipment',
  );
  const shipmentId = shipment.body.id as string;
  expectStatus(await api.patch(`/api/v1/shipments/${shipmentId}`, { pickup_time_till: '13:00' }, key), 200, 'patch shipment');
  expectStatus(await api.post('/api/v1/appointments/pickup', { appointment_ids: [appointmentId], shipment_id: shipmentId }, key), 200, 'pickup');
  for (const status of ['shipped', 'in_transit', 'delivered']) {
    const body = status === 'shipped' ? { status, tracking_number: 'GOX-0042' } : { status };
    expectStatus(await api.post(`/api/v1/shipments/${shipmentId}/status`, body, courier), 200, `shipment ${status}`);
  }
  expectStatus(await api.get(`/api/v1/shipments/${shipmentId}`, key), 200, 'get shipment');
  expectStatus(await api.get('/api/v1/shipments', key), 200, 'list shipments');
  expectStatus(await api.get(`/api/v1/shipments/${shipmentId}/history`, key), 200, 'shipment history');

  // The lab's report: refused ones first (an unknown barcode, a malformed payload, a file never uploaded).
  const results = [1, 2, 5, 6].map((id, i) => ({
    ...clinical(id, RESULT_VALUES[i] as number, new Date().toISOString().slice(0, 10)),
    comment: RESULT_COMMENTS[i] ?? null,
  }));
  // A report for a barcode no order holds, naming the person as the lab holds them: kept unmatched (issue #51),
  // listed, then discarded by the lab-operations staff.
  const unmatched = {
    event_id: randomUUID(),
    barcode: REFUSED_BARCODES[2],
    reported_at: new Date().toISOString(),
    clinical_results: results,
    patient: { name: `${PERSON.last_name}, ${PERSON.first_name}`, date_of_birth: PERSON.date_of_birth },
  };
  expect(await invoke(() => deliver(unmatched))).toEqual({ outcome: 'unmatched' });
  const waiting = expectStatus(await api.get('/api/v1/lab/unmatched-results', key), 200, 'unmatched results');
  const unmatchedId = (waiting.body as { id: string; barcode: string }[]).find((item) => item.barcode === REFUSED_BARCODES[2])!.id;
  expectStatus(await api.post(`/api/v1/lab/unmatched-results/${unmatchedId}/discard`, { reason: CANCELLATION_REASON }, key), 200, 'discard unmatched');
  const rejected = [
    {
      event_id: randomUUID(),
      barcode: REFUSED_BARCODES[0],
      reported_at: PERSON.date_of_birth,
      clinical_results: [{ ...results[0], value: String(RESULT_VALUES[0]) }],
    },
    report(appointmentId, { clinical_results: results, documents: [{ s3_key: MISSING_UPLOAD, file_name: FILE_NAME, content_type: 'application/pdf' }] }),
  ];
  for (const detail of rejected) await expect(invoke(() => deliver(detail))).rejects.toThrow();
  const incoming = await uploadIncoming(Buffer.from('%PDF-1.7 lab report'));
  const labReport = report(appointmentId, {
    clinical_results: results,
    documents: [{ s3_key: incoming, file_name: FILE_NAME, content_type: 'application/pdf' }],
  });
  expect(await invoke(() => deliver(labReport))).toEqual({ outcome: 'stored' });
  expect(await invoke(() => deliver(labReport))).toEqual({ outcome: 'duplicate' });

  const read = expectStatus(await api.get(`/api/v1/appointments/${appointmentId}/results`, key), 200, 'results');
  expect(read.body.status).toBe('completed');
  expectStatus(await api.get(`/api/v1/appointments/${appointmentId}/results/fhir`, key), 200, 'FHIR');
  expectStatus(await api.get(`/api/v1/appointments/${appointmentId}/results/report`, key), 200, 'results report PDF');
  expectStatus(await api.get(`/api/v1/documents/${read.body.documents[0].id}`, key), 200, 'document');
  expectStatus(await api.get(`/api/v1/appointments/${appointmentId}`, key), 200, 'get appointment');
  expectStatus(await api.get(`/api/v1/appointments/${appointmentId}/history`, key), 200, 'appointment history');
  expectStatus(await api.get(`/api/v1/profiles/${profileId}/appointments`, key), 200, 'appointments of the profile');

  // Kit to activation.
  const kit = expectStatus(await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: ADDRESS }, key), 201, 'order kit');
  const kitId = kit.body.id as string;
  expectStatus(await api.post(`/api/v1/home-kit-orders/${kitId}/panels`, { panel_ids: [CARDIOGENETICS_PANEL] }, key), 200, 'kit panels');
  expectStatus(await api.post(`/api/v1/home-kit-orders/${kitId}/dispatch`, { tracking_number: 'DHL-778899', carrier: 'dhl' }, key), 200, 'dispatch');
  expectStatus(await api.post(`/api/v1/home-kit-orders/${kitId}/activate`, { barcode: KIT_BARCODE }, key), 200, 'activate');
  expectStatus(await api.get(`/api/v1/home-kit-orders/${kitId}`, key), 200, 'get kit');
  expectStatus(await api.get(`/api/v1/home-kit-orders/${kitId}/history`, key), 200, 'kit history');
  expectStatus(await api.get(`/api/v1/profiles/${profileId}/home-kit-orders`, key), 200, 'kits of the profile');

  // A second booking, cancelled with a reason, while EventBridge is down: the relay publishes it later.
  const second = expectStatus(
    await api.post('/api/v1/appointments', { profile_id: profileId, location_id: BERLIN_MITTE, scheduled_at: slotIn(9) }, key),
    201,
    'second appointment',
  );
  eventBridge.failNextPuts();
  expectStatus(await api.post(`/api/v1/appointments/${second.body.id}/cancel`, { cancellation_reason: CANCELLATION_REASON }, key), 200, 'cancel');
  eventBridge.client.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'test' }] });
  expect((await later(60_000, () => relayOutbox())).published).toBeGreaterThan(0);

  // Webhooks: the dispatcher failing once (DynamoDB down: SQS would redeliver), then every event delivered;
  // a secret rotation, the retry sweep of the broken receiver's deliveries, a manual retry, the log.
  // Queries only: the test send still hanging in the background must be able to record its end.
  const isQuery = (command: Command) => command.input.KeyConditionExpression !== undefined;
  const entries = eventBridge.entries();
  const undispatched = await withMiddleware(failing(isQuery), () => invoke(() => dispatchEntries(entries.slice(0, 2))));
  expect(undispatched).toHaveLength(2);
  await dispatchPut();
  const rotated = expectStatus(await api.post(`/api/v1/webhooks/${okHook}/rotate-secret`, undefined, key), 200, 'rotate secret');
  webhookSecrets.push(rotated.body.secret);
  expectStatus(await api.post(`/api/v1/webhooks/${okHook}/test`, undefined, key), 200, 'test send with two secrets');
  expect((await later(6_000, () => webhookRetries({}, lambdaContext))).attempted).toBeGreaterThan(0);
  const brokenDeliveries = expectStatus(await api.get(`/api/v1/webhooks/${brokenHook}/deliveries`, key), 200, 'deliveries');
  expectStatus(await api.post(`/api/v1/webhooks/${brokenHook}/deliveries/${brokenDeliveries.body[0].id}/retry`, undefined, key), 200, 'manual retry');
  expectStatus(await api.patch(`/api/v1/webhooks/${brokenHook}`, { status: 'disabled' }, key), 200, 'disable');
  expectStatus(await api.get(`/api/v1/webhooks/${okHook}`, key), 200, 'get webhook');
  expectStatus(await api.get('/api/v1/webhooks', key), 200, 'list webhooks');
  expect(ok.received.length).toBeGreaterThan(0);
  expect(broken.received.length).toBeGreaterThan(0);

  // Refusals carrying the values.
  const badEmail = { ...profileBody, email: `${PERSON.first_name}.${PERSON.last_name}(at)example` };
  expectStatus(await api.post('/api/v1/profiles', badEmail, key), 400, 'invalid email');
  expectStatus(await api.patch(`/api/v1/profiles/${profileId}`, { date_of_birth: '07.03.1984' }, key), 400, 'birth date in another notation');
  expectStatus(await api.post(`/api/v1/appointments/${second.body.id}/confirm`, { barcode: REFUSED_BARCODES[0] }, key), 400, 'malformed barcode');
  expectStatus(await api.post(`/api/v1/appointments/${appointmentId}/confirm`, { barcode: REFUSED_BARCODES[1] }, key), 409, 'another barcode');
  expectStatus(await api.post('/api/v1/home-kit-orders', { profile_id: profileId, delivery_address: { ...ADDRESS, country: 'XX' } }, key), 400, 'bad address');
  expectStatus(await api.get(`/api/v1/profiles/${profileId}`, UNKNOWN_KEY), 401, 'unknown key');
  expectStatus(await api.get(`/api/v1/profiles/${profileId}`, courier), 403, 'key without the scope');

  // Injected DynamoDB failures on requests carrying the values: the 500 path and the access log's 503.
  const isUpdate = (command: Command) => command.input.UpdateExpression !== undefined && command.input.Key?.SK === 'PROFILE';
  const patch = () => api.patch(`/api/v1/profiles/${profileId}`, { first_name: PERSON.first_name, email: PERSON.email }, key);
  expectStatus(await withMiddleware(failing(isUpdate, 'ValidationException'), patch), 500, 'DynamoDB refusing a PATCH');
  expectStatus(await withMiddleware(failing(isUpdate, 'ThrottlingException'), patch), 503, 'DynamoDB throttling a PATCH');
  const isAuditWrite = (command: Command) => Boolean(command.input.Item?.PK?.startsWith(ACCESS_LOG_PARTITION_PREFIX));
  const audited = await withMiddleware(failing(isAuditWrite), () => api.get(`/api/v1/appointments/${appointmentId}/results`, key));
  expectStatus(audited, 503, 'access log not written');

  // The person's own requests, then the erasure.
  expectStatus(await api.get(`/api/v1/profiles/${profileId}/export`, key), 200, 'export');
  expectStatus(await api.get(`/api/v1/profiles/${profileId}/access-log`, key), 200, 'access log');
  expectStatus(await api.request('POST', `/api/v1/profiles/${profileId}/erase`, { key }), 200, 'erase');
  expectStatus(await api.get(`/api/v1/profiles/${profileId}`, key), 200, 'erased profile');
  await dispatchPut();
  expectStatus(await hangingTest, 200, 'test send to a receiver that never answers');
}

const receivers: Receiver[] = [];

beforeAll(async () => {
  await seedDemoData();
  capture = captureLogs();
  try {
    await scenario();
  } finally {
    lines = capture.lines();
    capture.stop();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }
}, 120_000); // the scenario, beside a webhook send that waits out its 10 s timeout, on two busy cores

afterAll(() => capture?.stop());

/** Each kind of value the scenario sent, with every form it is looked for in. */
function kindsOfValues(): Record<string, Form[]> {
  const webhookSecretForms = webhookSecrets.flatMap((secret) => [
    ...formsOf(secret, 'whsec_ secret'),
    ...formsOf(secret.slice('whsec_'.length), 'base64 part of the secret'),
  ]);
  return {
    "the patient's names": [PERSON.first_name, PERSON.last_name, PERSON.handle].flatMap((name) => formsOf(name, 'name')),
    "the patient's email": formsOf(PERSON.email, 'email'),
    "the patient's phone": [
      ...formsOf(PERSON.phone, 'E.164'),
      ...formsOf(PERSON.phone.slice(1), 'without +'),
      ...formsOf(`0${PERSON.phone.slice(3)}`, 'national'),
    ],
    "the patient's birth date": dateForms(PERSON.date_of_birth),
    'the barcodes': [BARCODE, KIT_BARCODE, ...REFUSED_BARCODES].flatMap((barcode) => formsOf(barcode, 'barcode')),
    'the result values and comments': [
      ...RESULT_VALUES.flatMap((value) => [...formsOf(String(value), 'value'), ...formsOf(String(value).replace('.', ','), 'value with a decimal comma')]),
      ...RESULT_COMMENTS.flatMap((comment) => formsOf(comment, 'comment')),
    ],
    'the delivery address': [ADDRESS.name, `${ADDRESS.street} ${ADDRESS.house_number}`, ADDRESS.street, ADDRESS.phone, ADDRESS.email].flatMap((part) =>
      formsOf(part, 'address'),
    ),
    'the shipment notes': [...formsOf(SHIPMENT_NOTES, 'notes'), ...formsOf('Zwetschgenhof', 'a word of the notes')],
    'the cancellation reason': [...formsOf(CANCELLATION_REASON, 'reason'), ...formsOf('Zitronenfalter', 'a word of the reason')],
    'the API key plaintexts': keyPlaintexts.flatMap((plaintext) => [
      ...formsOf(plaintext, 'key'),
      ...formsOf(plaintext.slice('lab_'.length), 'key without prefix'),
    ]),
    'the webhook signing secrets': webhookSecretForms,
    "the webhook URL's token": formsOf(WEBHOOK_TOKEN, 'token'),
    "the document's file name": [...formsOf(FILE_NAME, 'file name'), ...formsOf(MISSING_UPLOAD, 'upload key')],
  };
}

const listed = (findings: Finding[]) => findings.map((f) => `${f.kind} (${f.form}) in ${f.where}`).join('\n');

describe('log lines of one full scenario', () => {
  it('captures lines of the HTTP functions, naming their routes and Lambda function names', () => {
    const requests = lines
      .filter((line) => line.includes('"message":"request"'))
      .map((line) => JSON.parse(line) as { route: string; function_name: string; status: number });
    const routes = new Set(requests.map((line) => line.route));
    const called = ['createProfile', 'updateProfile', 'confirmAppointment', 'pickupAppointments', 'getAppointmentResults', 'getAppointmentResultsFhir'];
    called.push('getAppointmentResultsReport', 'getDocument', 'exportProfile', 'listProfileAccessLog', 'eraseProfile', 'createHomeKitOrder');
    called.push('activateHomeKitOrder', 'createShipment', 'updateShipmentStatus', 'createWebhook', 'rotateWebhookSecret', 'sendTestWebhook');
    called.push('getAppointmentRequisition');
    expect(called.filter((route) => !routes.has(route))).toEqual([]);
    // Each line names its Lambda function (shared/logger.ts withInvocation); that requests run at once name
    // their own is proven in test/unit/logger.test.ts and through the running stack in test/e2e/local-stack.test.ts.
    expect(requests.filter((line) => !line.function_name?.startsWith('lab-api-local-'))).toEqual([]);
    expect(requests.find((line) => line.route === 'createProfile')?.function_name).toBe('lab-api-local-createProfile');
    expect([200, 201, 400, 401, 403, 409, 500, 503].filter((status) => !requests.some((line) => line.status === status))).toEqual([]);
  });

  it('captures lines of the functions outside HTTP and of the failure paths', () => {
    const messages = new Set(lines.flatMap((line) => (line.startsWith('{') ? [(JSON.parse(line) as { message: string }).message] : [])));
    for (const message of [
      'lab report ingested',
      'lab report rejected',
      'event published',
      'event publish failed; the outbox relay will retry',
      'outbox relayed',
      'webhook dispatch failed',
      'webhook attempt',
      'webhook retries attempted',
      'Unhandled error',
      'AWS could not answer now; answered 503',
      'Access log entry not written; the answer is refused',
    ]) {
      expect(messages, message).toContain(message);
    }
  });

  it('ran at TRACE, which writes every line that DEBUG and the deployed INFO level write', () => {
    const levels = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];
    expect(logger.getLevelName()).toBe('TRACE');
    expect(levels.indexOf(POWERTOOLS_ENVIRONMENT.POWERTOOLS_LOG_LEVEL)).toBeGreaterThanOrEqual(levels.indexOf('DEBUG'));
    const logged = new Set(lines.flatMap((line) => (line.startsWith('{') ? [(JSON.parse(line) as { level: string }).level] : [])));
    expect([...logged].sort()).toEqual(expect.arrayContaining(['ERROR', 'INFO', 'WARN']));
  });

  it.each(Object.keys(kindsOfValues()))('has no line that contains %s', (kind) => {
    const findings = findLeaks(lines, { [kind]: kindsOfValues()[kind] as Form[] });
    expect(listed(findings)).toBe('');
  });
});

describe('the scan', () => {
  it.each(Object.keys(kindsOfValues()))('finds %s planted in a logged line', (kind) => {
    const planted = captureLogs();
    try {
      logger.info('planted', { value: (kindsOfValues()[kind] as Form[])[0]?.text });
    } finally {
      planted.stop();
    }
    expect(findLeaks(planted.lines(), kindsOfValues()).map((f) => f.kind)).toContain(kind);
  });

  it('finds a value written to the console, to a raw stream, in another date notation or inside a base64 body', () => {
    const planted = captureLogs();
    try {
      console.error(`patient ${PERSON.first_name}`);
      process.stdout.write(`email ${PERSON.email}\n`);
      logger.warn('planted', { dob: '7.3.1984' });
      logger.debug('planted', { body: Buffer.from(JSON.stringify({ barcode: BARCODE })).toString('base64') });
    } finally {
      planted.stop();
    }
    const found = findLeaks(planted.lines(), kindsOfValues()).map((f) => `${f.kind} (${f.form})`);
    expect(found).toEqual([
      "the patient's names (name)",
      "the patient's names (name)",
      "the patient's email (email)",
      "the patient's birth date (d.m.yyyy)",
      'the barcodes (barcode)',
    ]);
  });
});
