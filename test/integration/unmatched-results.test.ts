/**
 * Results that match no order (issue #51): a lab report (HL7 ORU^R01 or JSON) whose barcode no drawn order
 * holds is kept as an unmatched result, never refused into the dead-letter queue; the service's own
 * lab-operations staff (LAB_RESULTS_MATCH) list them, match one to its appointment (the ingest's every rule,
 * events and webhooks included) or discard it; one left waiting too long is counted by the scheduled check
 * whose log line the alarm reads. Everything asserted as answered and as stored.
 */
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as resultsIngest } from '../../functions/events/results-ingest';
import { type Hl7ClinicalResult, objectCreatedEvent, oruR01 } from '../../infra/cli/hl7-message';
import { HL7_PREFIX, UNMATCHED_PREFIX } from '../../shared/documents/bucket-layout';
import { s3 } from '../../shared/documents/s3';
import { UNMATCHED_WAITING_LOG } from '../../shared/domain/results';
import { SCOPES } from '../../shared/domain/scopes';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { unmatchedIdOf } from '../../shared/usecases/keep-unmatched-result';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BIOMARKERS, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { clinical, deliver, report, uploadIncoming } from '../support/lab';
import { captureLogs } from '../support/log-capture';
import { confirmDraw, newBarcode, scheduleAppointment } from '../support/scenario';
import { dispatchEntries, type Receiver, startReceiver } from '../support/webhooks';

const api = useApi();
const eventBridge = mockEventBridge();
const bucket = () => process.env.DOCUMENTS_BUCKET!;
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const LOINC: Record<number, string> = { 1: '2276-4', 2: '718-7', 3: '3016-3' };
const nameOf = (id: number) => BIOMARKERS.find((biomarker) => biomarker.id === id)!.name;
const today = () => new Date().toISOString().slice(0, 10);
const PERSON = { family_name: 'Quastenbaum', given_name: 'Ottilie', date_of_birth: '1962-04-17' };

/** A drawn appointment testing ferritin (1), haemoglobin (2) and TSH (3): the person whose tube the lab mislabelled. */
async function drawnAppointment(): Promise<string> {
  const id = await scheduleAppointment(api, key);
  expect((await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [1, 2, 3] }, key)).status).toBe(200);
  await confirmDraw(api, key, id);
  return id;
}

const value = (biomarker_id: number, amount: number): Hl7ClinicalResult => ({
  biomarker_id,
  value: amount,
  value_operator: 'eq',
  unit_id: null,
  unit: 'g/dL',
  reference_range_lab: { normal_min: 1, normal_max: 300 },
  tested_at: today(),
  result_status: 'final',
});

/** The lab's HL7 message for a barcode no order holds, with the person in PID and a PDF embedded; uploaded and announced. */
async function sendUnmatchedHl7(barcode: string, results = [value(1, 212), value(2, 14.2), value(3, 1.9)]) {
  const message = oruR01(
    {
      control_id: randomUUID().replaceAll('-', '').slice(0, 20),
      barcode,
      reported_at: new Date().toISOString(),
      clinical_results: results,
      documents: [{ file_name: 'befund.pdf', bytes: Buffer.from('%PDF-1.7 unmatched report') }],
      patient: PERSON,
    },
    (id) => ({ code: LOINC[id] ?? String(id), text: nameOf(id), system: LOINC[id] ? 'LN' : '99LAB' }),
  );
  const s3Key = `${HL7_PREFIX}${randomUUID()}.hl7`;
  await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: s3Key, Body: message, ContentType: 'application/hl7-v2' }));
  const answer = await resultsIngest(objectCreatedEvent(bucket(), s3Key, Buffer.byteLength(message)) as Parameters<typeof resultsIngest>[0]);
  return { answer, s3Key };
}

/** A JSON report for a barcode no order holds, naming the person and listing one uploaded PDF. */
async function sendUnmatchedJson(barcode: string, extra: Record<string, unknown> = {}) {
  const upload = await uploadIncoming(Buffer.from('%PDF-1.7 unmatched json report'));
  const detail = {
    ...report(UNKNOWN_ID, {
      clinical_results: [clinical(2, 15.1, today())],
      documents: [{ s3_key: upload, file_name: 'Befund Quastenbaum.pdf', content_type: 'application/pdf' }],
      patient: { name: 'Quastenbaum, Ottilie', date_of_birth: '1962-04-17' },
      ...extra,
    }),
    appointment_id: undefined,
    barcode,
  };
  return { answer: await deliver(detail), detail, upload };
}

/** The unmatched result an HL7 message for a fresh barcode leaves: its id, found in the list by its barcode. */
async function waitingHl7(): Promise<{ id: string; barcode: string }> {
  const barcode = newBarcode();
  expect((await sendUnmatchedHl7(barcode)).answer).toEqual({ outcome: 'unmatched' });
  const listed = (await waitingList()).find((item) => item.barcode === barcode);
  return { id: listed!.id, barcode };
}

type Listed = { id: string; barcode: string; [field: string]: unknown };

/** Every waiting unmatched result, page after page. */
async function waitingList(withKey = key): Promise<Listed[]> {
  const all: Listed[] = [];
  let cursor: string | null = null;
  do {
    const res = await api.get(`/api/v1/lab/unmatched-results?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, withKey);
    expect(res.status).toBe(200);
    all.push(...res.body);
    cursor = res.headers.get('x-next-cursor');
  } while (cursor);
  return all;
}

async function stored(id: string): Promise<Record<string, unknown> | undefined> {
  return (await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.unmatchedResult(id), ConsistentRead: true }))).Item;
}

async function exists(s3Key: string): Promise<boolean> {
  return s3
    .send(new GetObjectCommand({ Bucket: bucket(), Key: s3Key }))
    .then(() => true)
    .catch(() => false);
}

const match = (id: string, appointmentId: string, withKey = key) =>
  api.post(`/api/v1/lab/unmatched-results/${id}/match`, { appointment_id: appointmentId }, withKey);
const discard = (id: string, reason = 'A proficiency-testing sample of the lab', withKey = key) =>
  api.post(`/api/v1/lab/unmatched-results/${id}/discard`, { reason }, withKey);
const results = async (appointmentId: string) => (await api.get(`/api/v1/appointments/${appointmentId}/results`, key)).body;

describe('a lab report whose barcode no drawn order holds', () => {
  it('as an HL7 message is kept and listed with the patient of PID-5/PID-7 and its tests, not refused, its message file deleted', async () => {
    const barcode = newBarcode();
    const { answer, s3Key } = await sendUnmatchedHl7(barcode);
    expect(answer).toEqual({ outcome: 'unmatched' });
    expect(await exists(s3Key)).toBe(false);
    expect((await waitingList()).find((item) => item.barcode === barcode)).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      barcode,
      patient: { name: 'Quastenbaum, Ottilie', date_of_birth: '1962-04-17' },
      biomarkers: [1, 2, 3].map((id) => ({ code: LOINC[id], name: nameOf(id) })),
      source: 'hl7',
      status: 'waiting',
      appointment_id: null,
      closed_at: null,
      discard_reason: null,
    });
  });

  it('as a JSON report is kept and listed with the patient it names, not refused', async () => {
    const barcode = newBarcode();
    const { answer, detail } = await sendUnmatchedJson(barcode);
    expect(answer).toEqual({ outcome: 'unmatched' });
    expect((await waitingList()).find((item) => item.barcode === barcode)).toMatchObject({
      id: unmatchedIdOf(detail.event_id),
      patient: { name: 'Quastenbaum, Ottilie', date_of_birth: '1962-04-17' },
      biomarkers: [{ code: LOINC[2], name: nameOf(2) }],
      source: 'json',
      status: 'waiting',
    });
  });

  it('is stored with the report as the ingest would store it, its file moved under unmatched/, expiring 90 days after it arrived', async () => {
    const barcode = newBarcode();
    const { detail, upload } = await sendUnmatchedJson(barcode);
    const id = unmatchedIdOf(detail.event_id);
    const item = (await stored(id))!;
    const { patient: _patient, barcode: _barcode, appointment_id: _none, ...reported } = detail as Record<string, unknown>;
    expect(item.report).toMatchObject({
      ...reported,
      barcode,
      clinical_results: [{ ...clinical(2, 15.1, today()), result_status: 'final', interpretation: null }],
      documents: [{ s3_key: `${UNMATCHED_PREFIX}${id}/1.pdf`, file_name: 'Befund Quastenbaum.pdf', content_type: 'application/pdf' }],
    });
    expect(item.report).not.toHaveProperty('patient');
    expect(item.expires_at).toBe(Math.floor(Date.parse(item.received_at as string) / 1000) + 90 * 86_400);
    expect([await exists(`${UNMATCHED_PREFIX}${id}/1.pdf`), await exists(upload)]).toEqual([true, false]);
  });

  it('sent twice is kept once: the second answers duplicate', async () => {
    const barcode = newBarcode();
    const { detail } = await sendUnmatchedJson(barcode);
    expect(await deliver(detail)).toEqual({ outcome: 'duplicate' });
    expect((await waitingList()).filter((item) => item.barcode === barcode)).toHaveLength(1);
  });

  it('without a patient is listed with patient null', async () => {
    const barcode = newBarcode();
    await sendUnmatchedJson(barcode, { patient: undefined });
    expect((await waitingList()).find((item) => item.barcode === barcode)?.patient).toBeNull();
  });

  it('stays refused when it is refused for another reason (an unknown biomarker), and nothing is kept', async () => {
    const barcode = newBarcode();
    const detail = { ...report(UNKNOWN_ID, { clinical_results: [clinical(99_999, 1)] }), appointment_id: undefined, barcode };
    await expect(deliver(detail)).rejects.toThrow('unknown biomarker(s) or wrong kind: 99999');
    expect(await stored(unmatchedIdOf(detail.event_id))).toBeUndefined();
  });
});

describe('a JSON report naming an appointment_id we do not have', () => {
  it('stays refused (a bug of the lab, not a mislabelled tube) and is not kept', async () => {
    const detail = report(UNKNOWN_ID, { clinical_results: [clinical(2, 14)] });
    await expect(deliver(detail)).rejects.toThrow(`unknown appointment ${UNKNOWN_ID}`);
    expect(await stored(unmatchedIdOf(detail.event_id))).toBeUndefined();
  });
});

describe('GET /api/v1/lab/unmatched-results', () => {
  it('lists the waiting ones newest first, a page at a time', async () => {
    const barcodes = [newBarcode(), newBarcode(), newBarcode()];
    for (const barcode of barcodes) await sendUnmatchedHl7(barcode);
    const listed = (await waitingList()).map((item) => item.barcode).filter((barcode) => barcodes.includes(barcode));
    expect(listed).toEqual([...barcodes].reverse());
  });

  it.each([
    ['GET', '/api/v1/lab/unmatched-results'],
    ['POST', `/api/v1/lab/unmatched-results/${UNKNOWN_ID}/match`],
    ['POST', `/api/v1/lab/unmatched-results/${UNKNOWN_ID}/discard`],
  ])('%s %s answers 403 to a key without LAB_RESULTS_MATCH', async (method, path) => {
    const withoutScope = await apiKey({ scopes: SCOPES.filter((scope) => scope !== 'LAB_RESULTS_MATCH'), profileGroups: ['demo-clinic', 'partner-clinic'] });
    const res = await api.request(method, path, { key: withoutScope, body: method === 'POST' ? { appointment_id: UNKNOWN_ID, reason: 'x' } : undefined });
    expect([res.status, res.body]).toEqual([403, { error: 'This API key lacks the required scope (one of: LAB_RESULTS_MATCH)' }]);
  });
});

describe('POST /api/v1/lab/unmatched-results/{id}/match', () => {
  it("applies it to the appointment: the results then read as the appointment's, completed, with the lab's PDF", async () => {
    const appointmentId = await drawnAppointment();
    const { id, barcode } = await waitingHl7();
    const res = await match(id, appointmentId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, barcode, patient: null, status: 'matched', appointment_id: appointmentId, discard_reason: null });
    const read = await results(appointmentId);
    expect(read.status).toBe('completed');
    expect(read.clinical_results.map((r: { biomarker_id: number; status: string; value: number }) => [r.biomarker_id, r.status, r.value])).toEqual([
      [1, 'received', 212],
      [2, 'received', 14.2],
      [3, 'received', 1.9],
    ]);
    expect(read.documents.map((document: { file_name: string }) => document.file_name)).toEqual(['befund.pdf']);
  });

  it('closes it as stored: matched, by the key, its patient, report and list entry removed, its files filed under documents/', async () => {
    const appointmentId = await drawnAppointment();
    const { id } = await waitingHl7();
    expect((await match(id, appointmentId)).status).toBe(200);
    const item = (await stored(id))!;
    expect(item).toMatchObject({ status: 'matched', appointment_id: appointmentId, closed_at: expect.any(String), closed_by: expect.stringMatching(/^key_/) });
    expect(Object.keys(item).filter((field) => ['patient', 'report', 'GSI1PK', 'GSI1SK'].includes(field))).toEqual([]);
    expect(await exists(`${UNMATCHED_PREFIX}${id}/1.pdf`)).toBe(false);
    expect((await waitingList()).map((listed) => listed.id)).not.toContain(id);
  });

  it('announces the results as a report that matched would, and delivers them by webhook', async () => {
    const receiver: Receiver = await startReceiver();
    try {
      const hook = await api.post('/api/v1/webhooks', { url: receiver.url, event_types: ['LabResultsAvailable', 'AppointmentStatusChanged'] }, key);
      expect(hook.status).toBe(201);
      const appointmentId = await drawnAppointment();
      const { id } = await waitingHl7();
      eventBridge.client.resetHistory();
      expect((await match(id, appointmentId)).status).toBe(200);
      const entries = eventBridge.entries();
      expect(entries.map((entry) => [entry.DetailType, JSON.parse(entry.Detail!).appointment_id])).toEqual(
        expect.arrayContaining([
          ['AppointmentStatusChanged', appointmentId],
          ['LabResultsUpdated', appointmentId],
          ['LabResultsAvailable', appointmentId],
        ]),
      );
      expect(await dispatchEntries(entries)).toEqual([]);
      const delivered = receiver.received.map((received) => JSON.parse(received.body) as { type: string; data: { appointment_id?: string } });
      expect(delivered.filter((message) => message.data.appointment_id === appointmentId).map((message) => message.type)).toEqual(
        expect.arrayContaining(['AppointmentStatusChanged', 'LabResultsAvailable']),
      );
    } finally {
      await receiver.close();
    }
  });

  it('matched again to the same appointment answers the same matched result and changes nothing', async () => {
    const appointmentId = await drawnAppointment();
    const { id } = await waitingHl7();
    const first = await match(id, appointmentId);
    const before = [await stored(id), await results(appointmentId)];
    eventBridge.client.resetHistory();
    const again = await match(id, appointmentId);
    expect([again.status, again.body]).toEqual([200, first.body]);
    expect([await stored(id), await results(appointmentId)]).toEqual(before);
    expect(eventBridge.entries()).toEqual([]);
  });

  it('answers 409 once it is matched to another appointment', async () => {
    const [first, second] = [await drawnAppointment(), await drawnAppointment()];
    const { id } = await waitingHl7();
    expect((await match(id, first)).status).toBe(200);
    const res = await match(id, second);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^the unmatched result was matched to another appointment at /);
    expect((await results(second)).clinical_results.every((r: { status: string }) => r.status === 'planned')).toBe(true);
  });

  it('matched to two appointments at once: one wins, the other answers 409 and keeps no file of it', async () => {
    const [first, second] = [await drawnAppointment(), await drawnAppointment()];
    const { id } = await waitingHl7();
    const answers = await Promise.all([match(id, first), match(id, second)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const loser = answers[0]!.status === 409 ? first : second;
    const files = await s3.send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `documents/${loser}/` }));
    expect(files.KeyCount).toBe(0);
    expect((await results(loser)).clinical_results.every((r: { status: string }) => r.status === 'planned')).toBe(true);
  });

  it('answers 409 for an appointment not drawn, and leaves it waiting', async () => {
    const appointmentId = await scheduleAppointment(api, key);
    const { id } = await waitingHl7();
    const before = await stored(id);
    const res = await match(id, appointmentId);
    expect([res.status, res.body]).toEqual([409, { error: 'appointment is scheduled: no sample was drawn' }]);
    expect(await stored(id)).toEqual(before);
  });

  it('answers 409 for an appointment that already holds final results for its tests, and replaces none', async () => {
    const appointmentId = await drawnAppointment();
    await deliver(report(appointmentId, { clinical_results: [clinical(2, 13.3, today())] }));
    const { id } = await waitingHl7();
    const res = await match(id, appointmentId);
    expect([res.status, res.body]).toEqual([409, { error: 'the appointment already holds final results for biomarker(s) 2' }]);
    expect((await results(appointmentId)).clinical_results.find((r: { biomarker_id: number }) => r.biomarker_id === 2).value).toBe(13.3);
    expect((await stored(id))!.status).toBe('waiting');
  });

  it('answers 409 for an appointment that planned none of its tests', async () => {
    const appointmentId = await scheduleAppointment(api, key);
    expect((await api.post(`/api/v1/appointments/${appointmentId}/biomarkers`, { biomarker_ids: [5] }, key)).status).toBe(200);
    await confirmDraw(api, key, appointmentId);
    const { id } = await waitingHl7();
    const res = await match(id, appointmentId);
    expect([res.status, res.body]).toEqual([409, { error: 'the appointment planned none of the tests of the report: not its sample' }]);
  });

  it("answers 403 for an appointment outside the key's access context, and leaves it waiting", async () => {
    const appointmentId = await drawnAppointment();
    const { id } = await waitingHl7();
    const otherTenant = await apiKey({ profileGroups: ['partner-clinic'], locationGroups: ['helsinki'] });
    const res = await match(id, appointmentId, otherTenant);
    expect([res.status, res.body]).toEqual([403, { error: 'This API key has no access to this appointment' }]);
    expect((await stored(id))!.status).toBe('waiting');
  });

  it('answers 404 for an appointment that does not exist', async () => {
    const { id } = await waitingHl7();
    const res = await match(id, UNKNOWN_ID);
    expect([res.status, res.body]).toEqual([404, { error: 'Appointment not found' }]);
  });

  it('answers 404 for an unmatched result that does not exist', async () => {
    const res = await match(UNKNOWN_ID, await drawnAppointment());
    expect([res.status, res.body]).toEqual([404, { error: 'Unmatched result not found (or deleted 90 days after it arrived)' }]);
  });
});

describe('POST /api/v1/lab/unmatched-results/{id}/discard', () => {
  it('closes it with the reason: its patient and report removed, its files deleted, no longer listed', async () => {
    const { id, barcode } = await waitingHl7();
    const res = await discard(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, barcode, patient: null, status: 'discarded', discard_reason: 'A proficiency-testing sample of the lab' });
    const item = (await stored(id))!;
    expect(item).toMatchObject({ status: 'discarded', discard_reason: 'A proficiency-testing sample of the lab', closed_by: expect.stringMatching(/^key_/) });
    expect(Object.keys(item).filter((field) => ['patient', 'report', 'GSI1PK', 'GSI1SK'].includes(field))).toEqual([]);
    expect(await exists(`${UNMATCHED_PREFIX}${id}/1.pdf`)).toBe(false);
    expect((await waitingList()).map((listed) => listed.id)).not.toContain(id);
  });

  it('discarded again answers it as discarded first, the first reason kept', async () => {
    const { id } = await waitingHl7();
    const first = await discard(id, 'first reason');
    const again = await discard(id, 'second reason');
    expect([again.status, again.body]).toEqual([200, first.body]);
  });

  it('answers 409 for a matched one, and a match answers 409 for a discarded one', async () => {
    const appointmentId = await drawnAppointment();
    const matched = await waitingHl7();
    expect((await match(matched.id, appointmentId)).status).toBe(200);
    expect((await discard(matched.id)).status).toBe(409);
    const discarded = await waitingHl7();
    expect((await discard(discarded.id)).status).toBe(200);
    const res = await match(discarded.id, appointmentId);
    expect([res.status, res.body.error]).toEqual([409, expect.stringMatching(/^the unmatched result was discarded at /)]);
  });
});

describe('the check of unmatched results waiting (the alarm counts its log line)', () => {
  const level = process.env.POWERTOOLS_LOG_LEVEL;
  // The line names the 20 oldest: the ones other tests left waiting are discarded first.
  beforeEach(async () => {
    for (const { id } of await waitingList()) expect((await discard(id, 'cleared before the check')).status).toBe(200);
  });
  afterEach(() => {
    delete process.env.LAB_CLOCK;
    process.env.POWERTOOLS_LOG_LEVEL = level;
    vi.resetModules();
  });

  /** The check's unmatched line, run with its clock `minutes` ahead at the deployed log level (UNMATCHED_WAIT_MINUTES: 240). */
  async function checkLine(minutes: number): Promise<Record<string, unknown>> {
    process.env.LAB_CLOCK = new Date(Date.now() + minutes * 60_000).toISOString();
    process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
    vi.resetModules();
    const { handler } = await import('../../functions/events/critical-results-check');
    const logs = captureLogs();
    let answer: { unmatched: number };
    try {
      answer = await handler();
    } finally {
      logs.stop();
    }
    const line = logs
      .lines()
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.message === UNMATCHED_WAITING_LOG)!;
    expect(line.count).toBe(answer.unmatched);
    return line;
  }

  it('counts one that waited longer than the stage allows, naming it, never its patient or barcode', async () => {
    const { id, barcode } = await waitingHl7();
    const line = await checkLine(241);
    expect(line).toMatchObject({ wait_minutes: 240, oldest_received_at: expect.any(String) });
    expect(line.count).toBeGreaterThanOrEqual(1);
    expect(line.unmatched_result_ids).toContain(id);
    for (const secret of [barcode, PERSON.family_name, PERSON.date_of_birth]) expect(JSON.stringify(line)).not.toContain(secret);
  });

  it('does not count one still inside the time allowed', async () => {
    const { id } = await waitingHl7();
    expect((await checkLine(239)).unmatched_result_ids).not.toContain(id);
  });

  it('stops counting one once it is discarded', async () => {
    const { id } = await waitingHl7();
    expect((await discard(id)).status).toBe(200);
    expect((await checkLine(241)).unmatched_result_ids).not.toContain(id);
  });
});

describe('a report kept unmatched that the lab sends again once its draw is confirmed', () => {
  it('is stored for that appointment by its barcode and closes its unmatched result as matched, patient and files gone', async () => {
    const barcode = newBarcode();
    const { answer, detail } = await sendUnmatchedJson(barcode);
    expect(answer).toEqual({ outcome: 'unmatched' });
    const unmatchedId = unmatchedIdOf(detail.event_id as string);
    const keptFiles = ((await stored(unmatchedId))!.report as { documents: { s3_key: string }[] }).documents.map((document) => document.s3_key);

    const appointmentId = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${appointmentId}/biomarkers`, { biomarker_ids: [2] }, key);
    await confirmDraw(api, key, appointmentId, barcode);
    const upload = await uploadIncoming(Buffer.from('%PDF-1.7 the same report, uploaded again'));
    const sent = detail as typeof detail & { documents: object[] };
    const again = { ...sent, documents: [{ ...sent.documents[0], s3_key: upload }] };
    expect(await deliver(again)).toEqual({ outcome: 'stored' });

    expect((await results(appointmentId)).clinical_results).toMatchObject([{ biomarker_id: 2, value: 15.1 }]);
    const closed = await stored(unmatchedId);
    expect(closed).toMatchObject({ status: 'matched', appointment_id: appointmentId, closed_by: 'ingest' });
    expect(closed).not.toHaveProperty('patient');
    expect(await Promise.all(keptFiles.map(exists))).toEqual(keptFiles.map(() => false));
    expect((await waitingList()).map((item) => item.barcode)).not.toContain(barcode);
  });
});
