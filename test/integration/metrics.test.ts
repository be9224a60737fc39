/**
 * The service's own metrics (shared/metrics.ts), as CloudWatch reads them: embedded-metric-format lines on
 * stdout, one per request and one per business fact. Metrics are on in this file only (the other files
 * and the local stack turn them off: POWERTOOLS_METRICS_DISABLED), with a function's environment: its
 * stack's namespace and the route class of a reading route (every route of the in-process server shares
 * that one variable here; infra tests check each function gets its own).
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../shared/logger';
import { BUSINESS_METRICS, REQUEST_METRICS } from '../../shared/metric-names';
import { dynamoClient } from '../../shared/store/client';
import { useApi } from '../support/api';
import { dynamoError, mentioning, withFault } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, apiKeyWithId, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { clinical, deliver, report } from '../support/lab';
import { captureLogs, type LogCapture } from '../support/log-capture';
import { dispatchEntries, startReceiver } from '../support/webhooks';
import { confirmDraw, createProfile, scheduleAppointment, slotIn } from '../support/scenario';

const NAMESPACE = 'LabApi/LabApi-test';
vi.hoisted(() => {
  // Before any module of shared/ loads: the metrics writer reads them once, at cold start.
  Object.assign(process.env, { POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_METRICS_NAMESPACE: 'LabApi/LabApi-test', LAB_ROUTE_CLASS: 'read' });
});

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;
let keyId: string;
let logs: LogCapture;

beforeAll(async () => {
  await seedDemoData();
  ({ plaintext: key, keyId } = await apiKeyWithId());
});
beforeEach(() => {
  logs = captureLogs();
});
afterEach(() => logs.stop());

interface Emf {
  _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [field: string]: unknown;
}

/** The EMF documents written since the test began. */
function emfLines(): Emf[] {
  return logs
    .lines()
    .filter((line) => line.startsWith('{') && line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Emf);
}
const named = (name: string) => emfLines().filter((line) => line._aws.CloudWatchMetrics[0]!.Metrics.some((m) => m.Name === name));
const requestLines = (route: string) => named(REQUEST_METRICS.requests).filter((line) => line.route === route);

describe('every API request', () => {
  it('writes one metrics line in the stack namespace with requests, errors and latency, by route and by route class', async () => {
    const profileId = await createProfile(api, key);
    logs.stop();
    logs = captureLogs();
    expect((await api.get(`/api/v1/profiles/${profileId}`, key)).status).toBe(200);
    const [line, ...more] = requestLines('getProfile');
    expect(more).toEqual([]);
    expect(line!._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: NAMESPACE,
        Dimensions: [
          ['service', 'route'],
          ['service', 'class'],
        ],
        Metrics: [
          { Name: 'Requests', Unit: 'Count' },
          { Name: 'ClientErrors', Unit: 'Count' },
          { Name: 'ServerErrors', Unit: 'Count' },
          { Name: 'Latency', Unit: 'Milliseconds' },
        ],
      },
    ]);
    expect(line).toMatchObject({ service: 'lab-api', route: 'getProfile', class: 'read', Requests: 1, ClientErrors: 0, ServerErrors: 0 });
    expect(line!.Latency).toEqual(expect.any(Number));
  });

  it("is written in the request's log line when that line is written: one line per request, not two", async () => {
    const profileId = await createProfile(api, key);
    const level = logger.getLevelName();
    logger.setLogLevel('INFO');
    try {
      logs.stop();
      logs = captureLogs();
      expect((await api.get(`/api/v1/profiles/${profileId}`, key)).status).toBe(200);
    } finally {
      logger.setLogLevel(level);
    }
    const lines = logs.lines().filter((line) => line.includes('"route":"getProfile"'));
    expect(lines).toHaveLength(1);
    // service is the value of the metrics' dimension, function_request_id the request the line is of.
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'INFO',
      message: 'request',
      service: 'lab-api',
      function_request_id: expect.any(String),
      route: 'getProfile',
      status: 200,
      Requests: 1,
      ServerErrors: 0,
    });
    expect(requestLines('getProfile')).toHaveLength(1);
  });

  it('counts a 4xx answer as a client error, not a server error', async () => {
    expect((await api.get(`/api/v1/profiles/${UNKNOWN_ID}`, key)).status).toBe(404);
    expect(requestLines('getProfile')).toEqual([expect.objectContaining({ Requests: 1, ClientErrors: 1, ServerErrors: 0 })]);
  });

  it('counts a 5xx answer as a server error (what the availability objective reads)', async () => {
    const profileId = await createProfile(api, key);
    logs.stop();
    logs = captureLogs();
    // DynamoDB refuses the read in a way nobody retries: the route answers 500.
    const { result } = await withFault(dynamoClient, dynamoError(400, 'ValidationException'), mentioning(profileId, 'GetItemCommand'), () =>
      api.get(`/api/v1/profiles/${profileId}`, key),
    );
    expect(result.status).toBe(500);
    expect(requestLines('getProfile')).toEqual([expect.objectContaining({ Requests: 1, ClientErrors: 0, ServerErrors: 1 })]);
  });

  it('counts a request refused for its key too, under its route', async () => {
    expect((await api.get(`/api/v1/profiles/${UNKNOWN_ID}`, 'lab_not-a-key')).status).toBe(401);
    expect(requestLines('getProfile')).toEqual([expect.objectContaining({ ClientErrors: 1 })]);
  });

  it('never carries a key id, a profile id or a value of the request in a metrics line', async () => {
    const profileId = await createProfile(api, key);
    await api.get(`/api/v1/profiles/${profileId}`, key);
    const written = JSON.stringify(emfLines());
    expect(emfLines().length).toBeGreaterThan(0);
    for (const secret of [keyId, key, profileId, 'Patient', '1979-10-01']) expect(written).not.toContain(secret);
  });
});

describe('business metrics', () => {
  it('count a booked appointment once, with the service as the only dimension', async () => {
    await scheduleAppointment(api, key);
    const [line, ...more] = named(BUSINESS_METRICS.appointmentsBooked);
    expect(more).toEqual([]);
    expect(line!._aws.CloudWatchMetrics[0]).toEqual({
      Namespace: NAMESPACE,
      Dimensions: [['service']],
      Metrics: [{ Name: 'AppointmentsBooked', Unit: 'Count' }],
    });
    expect(line).toMatchObject({ service: 'lab-api', AppointmentsBooked: 1 });
  });

  it("count nothing for a sandbox key's booking, a partner's test (its request still counts)", async () => {
    await scheduleAppointment(api, await apiKey({ sandbox: true }));
    expect(named(BUSINESS_METRICS.appointmentsBooked)).toEqual([]);
    expect(requestLines('createAppointment').length).toBeGreaterThan(0);
  });

  it('count nothing for a booking that was refused', async () => {
    const res = await api.post('/api/v1/appointments', { profile_id: UNKNOWN_ID, location_id: BERLIN_MITTE, scheduled_at: slotIn(7, BERLIN_MITTE) }, key);
    expect(res.status).toBe(404);
    expect(named(BUSINESS_METRICS.appointmentsBooked)).toEqual([]);
  });

  it('count a cancelled appointment', async () => {
    const id = await scheduleAppointment(api, key);
    expect((await api.post(`/api/v1/appointments/${id}/cancel`, { cancellation_reason: 'patient_request' }, key)).status).toBe(200);
    expect(named(BUSINESS_METRICS.appointmentsCancelled)).toEqual([expect.objectContaining({ AppointmentsCancelled: 1 })]);
  });

  it('count a confirmed draw once, and not its repetition', async () => {
    const id = await scheduleAppointment(api, key);
    const barcode = await confirmDraw(api, key, id);
    expect((await api.post(`/api/v1/appointments/${id}/confirm`, { barcode }, key)).status).toBe(200);
    expect(named(BUSINESS_METRICS.drawsConfirmed)).toEqual([expect.objectContaining({ DrawsConfirmed: 1 })]);
  });

  it("count an ingested report, and the draw-to-final turnaround in seconds when it completes the appointment's results", async () => {
    const id = await scheduleAppointment(api, key);
    await confirmDraw(api, key, id);
    await deliver(report(id, { clinical_results: [clinical(1, 42)] }));
    expect(named(BUSINESS_METRICS.resultsIngested)).toEqual([expect.objectContaining({ ResultsIngested: 1 })]);
    const [turnaround] = named(BUSINESS_METRICS.drawToFinalTurnaround);
    expect(turnaround!._aws.CloudWatchMetrics[0]!.Metrics).toEqual([{ Name: 'DrawToFinalTurnaround', Unit: 'Seconds' }]);
    expect(turnaround!.DrawToFinalTurnaround).toEqual(expect.any(Number));
  });

  it('count no turnaround for a preliminary report, which completes nothing', async () => {
    const id = await scheduleAppointment(api, key);
    await confirmDraw(api, key, id);
    await deliver(report(id, { clinical_results: [{ ...clinical(1, 42), result_status: 'preliminary' }] }));
    expect(named(BUSINESS_METRICS.resultsIngested)).toHaveLength(1);
    expect(named(BUSINESS_METRICS.drawToFinalTurnaround)).toEqual([]);
  });
});

describe('webhook delivery metrics', () => {
  it('count a delivery the endpoint took as succeeded and one it refused as failed (what the failure-rate alarm reads)', async () => {
    const [taking, refusing] = await Promise.all([startReceiver(() => 204), startReceiver(() => 500)]);
    try {
      for (const { url } of [taking, refusing]) {
        expect((await api.post('/api/v1/webhooks', { url, event_types: ['AppointmentStatusChanged'] }, key)).status).toBe(201);
      }
      eventBridge.client.resetHistory();
      await scheduleAppointment(api, key);
      logs.stop();
      logs = captureLogs();
      expect(await dispatchEntries(eventBridge.entries().filter((e) => e.DetailType === 'AppointmentStatusChanged'))).toEqual([]);
      expect(named(BUSINESS_METRICS.webhookDeliveriesSucceeded)).toEqual([expect.objectContaining({ WebhookDeliveriesSucceeded: 1 })]);
      expect(named(BUSINESS_METRICS.webhookDeliveriesFailed)).toEqual([expect.objectContaining({ WebhookDeliveriesFailed: 1 })]);
    } finally {
      await Promise.all([taking.close(), refusing.close()]);
    }
  });
});
