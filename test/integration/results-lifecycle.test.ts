/**
 * Results as a lab sends them (issue #29, first part): preliminary, final and corrected values, which
 * replaces which, when the results are complete, and each value's interpretation, in the results and
 * the FHIR export alike.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, apiKeyWithId, seedDemoData } from '../support/fixtures';
import { fhirErrors } from '../support/fhir-schema';
import { clinical, deliver, report } from '../support/lab';
import { confirmDraw, scheduleAppointment } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

/** A drawn appointment planning haemoglobin (2, critical below 7 and above 20 g/dL) and TSH (3). */
async function drawnAppointment(): Promise<string> {
  const id = await scheduleAppointment(api, key);
  await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2, 3] }, key);
  await confirmDraw(api, key, id);
  return id;
}

type Status = 'preliminary' | 'final' | 'corrected';
const value = (biomarker: number, amount: number, result_status: Status, extra: Record<string, unknown> = {}) => ({
  ...clinical(biomarker, amount),
  result_status,
  ...extra,
});
const send = (id: string, ...results: ReturnType<typeof value>[]) => deliver(report(id, { clinical_results: results }));
const results = async (id: string) => (await api.get(`/api/v1/appointments/${id}/results`, key)).body;
const item = async (id: string, biomarker: number) => (await results(id)).clinical_results.find((r: { biomarker_id: number }) => r.biomarker_id === biomarker);
/** The FHIR export, valid against the FHIR R4 schema. */
async function fhir(id: string) {
  const bundle = JSON.parse((await api.get(`/api/v1/appointments/${id}/results/fhir`, key)).body as string);
  expect(fhirErrors(bundle)).toEqual([]);
  return bundle;
}
const observations = (bundle: { entry: { resource: { resourceType: string } }[] }) =>
  bundle.entry.map((entry) => entry.resource).filter((resource) => resource.resourceType === 'Observation') as unknown as Record<string, unknown>[];
const diagnosticReport = (bundle: { entry: { resource: { resourceType: string; status?: string } }[] }) =>
  bundle.entry.find((entry) => entry.resource.resourceType === 'DiagnosticReport')!.resource;

describe('result_status', () => {
  it('shows a preliminary value as preliminary', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 14, 'preliminary'));
    expect(await item(id, 2)).toMatchObject({ status: 'received', result_status: 'preliminary', value: 14 });
  });

  it('keeps the results in progress while a planned test has only a preliminary value', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 14, 'preliminary'), value(3, 2, 'final'));
    expect((await results(id)).status).toBe('in_progress');
    expect((await api.get(`/api/v1/appointments/${id}`, key)).body.status).toBe('blood_drawn');
  });

  it('replaces a preliminary value by a final one, completing the results', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 14, 'preliminary'), value(3, 2, 'final'));
    await send(id, value(2, 15, 'final'));
    expect(await item(id, 2)).toMatchObject({ result_status: 'final', value: 15 });
    expect((await results(id)).status).toBe('completed');
  });

  it('refuses a preliminary value after a final one, saying why, and keeps the final value', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 15, 'final'));
    await expect(send(id, value(2, 9, 'preliminary'))).rejects.toThrow('biomarker 2: a preliminary value never replaces a final one');
    expect(await item(id, 2)).toMatchObject({ result_status: 'final', value: 15 });
  });

  it('replaces a final value by a correction, shown as corrected', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 15, 'final'), value(3, 2, 'final'));
    await send(id, value(2, 13.1, 'corrected'));
    expect(await item(id, 2)).toMatchObject({ result_status: 'corrected', value: 13.1 });
    expect((await results(id)).status).toBe('completed');
  });

  it('refuses a late final value reported before the correction stored, saying why, and keeps the corrected one', async () => {
    const id = await drawnAppointment();
    const late = report(id, { reported_at: new Date(Date.now() - 60_000).toISOString(), clinical_results: [value(2, 15, 'final')] });
    await send(id, value(2, 13.1, 'corrected'));
    await expect(deliver(late)).rejects.toThrow('biomarker 2: it is older than the corrected value stored');
    expect(await item(id, 2)).toMatchObject({ result_status: 'corrected', value: 13.1 });
  });

  it('keeps whichever of a final value and a correction was reported later, whatever order they arrive in', async () => {
    const [finalFirst, correctionFirst] = [await drawnAppointment(), await drawnAppointment()];
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const reports = (id: string) => ({
      final: report(id, { reported_at: at(1), clinical_results: [value(2, 15, 'final')] }),
      correction: report(id, { reported_at: at(2), clinical_results: [value(2, 13.1, 'corrected')] }),
    });
    const one = reports(finalFirst);
    await deliver(one.final);
    await expect(deliver(one.correction)).rejects.toThrow('older');
    const other = reports(correctionFirst);
    await deliver(other.correction);
    await deliver(other.final);
    expect([await item(finalFirst, 2), await item(correctionFirst, 2)]).toMatchObject([
      { result_status: 'final', value: 15 },
      { result_status: 'final', value: 15 },
    ]);
  });

  it('orders reports by instant, not by text: a correction at 10:30 -05:00 replaces a final value of 11:00 Z the same day', async () => {
    const id = await drawnAppointment();
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await deliver(report(id, { reported_at: `${day}T11:00:00Z`, clinical_results: [value(2, 15, 'final', { tested_at: day })] }));
    await deliver(report(id, { reported_at: `${day}T10:30:00-05:00`, clinical_results: [value(2, 13.1, 'corrected', { tested_at: day })] }));
    expect(await item(id, 2)).toMatchObject({ result_status: 'corrected', value: 13.1 });
  });

  it('refuses a report time without its zone written as ±HH:MM, naming the field', async () => {
    const id = await drawnAppointment();
    await expect(deliver(report(id, { reported_at: '2026-11-28T10:00:00+01', clinical_results: [value(2, 15, 'final')] }))).rejects.toThrow(
      'reported_at: must be an ISO 8601 date and time with its zone',
    );
  });

  it('refuses a correction older than the value stored, saying why, and keeps the stored one', async () => {
    const id = await drawnAppointment();
    const late = report(id, { reported_at: new Date(Date.now() - 60_000).toISOString(), clinical_results: [value(2, 13.1, 'corrected')] });
    await send(id, value(2, 15, 'final'));
    await expect(deliver(late)).rejects.toThrow('biomarker 2: it is older than the final value stored');
    expect(await item(id, 2)).toMatchObject({ result_status: 'final', value: 15 });
  });

  it('answers a planned test with result_status and interpretation null', async () => {
    const id = await drawnAppointment();
    expect(await item(id, 3)).toMatchObject({ status: 'planned', result_status: null, interpretation: null });
  });

  it('reads a result the lab sent without a status as final', async () => {
    const id = await drawnAppointment();
    await deliver(report(id, { clinical_results: [clinical(2, 14)] }));
    expect(await item(id, 2)).toMatchObject({ result_status: 'final' });
  });
});

describe('corrections keep the past', () => {
  it('lists the corrected value first and the final value it replaced after it, each with its report', async () => {
    const id = await drawnAppointment();
    const final = report(id, { clinical_results: [value(2, 15, 'final')] });
    const correction = report(id, { clinical_results: [value(2, 13.1, 'corrected')] });
    await deliver(final);
    await deliver(correction);
    const history = (await api.get(`/api/v1/appointments/${id}/results/history`, key)).body;
    expect(history.clinical_results).toEqual([
      {
        biomarker_id: 2,
        biomarker_name: 'Haemoglobin',
        versions: [
          expect.objectContaining({ result_status: 'corrected', value: 13.1, event_id: correction.event_id, reported_at: correction.reported_at }),
          expect.objectContaining({ result_status: 'final', value: 15, event_id: final.event_id, reported_at: final.reported_at }),
        ],
      },
    ]);
  });

  it('stores a same-day correction after a report from the future was refused: the corrected value stands, in the history and announced', async () => {
    const id = await drawnAppointment();
    await send(id, value(3, 2.1, 'final'));
    await expect(deliver(report(id, { reported_at: '9999-12-31T00:00:00Z', clinical_results: [value(3, 2.1, 'final')] }))).rejects.toThrow(
      'more than 5 minutes ahead',
    );
    const correction = report(id, { clinical_results: [value(3, 2.5, 'corrected')] });
    expect(await deliver(correction)).toEqual({ outcome: 'stored' });
    expect(await item(id, 3)).toMatchObject({ result_status: 'corrected', value: 2.5 });
    const history = (await api.get(`/api/v1/appointments/${id}/results/history`, key)).body;
    expect(history.clinical_results[0].versions.map((v: { value: number }) => v.value)).toEqual([2.5, 2.1]);
    const corrected = eventBridge.entries().filter((entry) => entry.DetailType === 'LabResultsCorrected' && entry.Detail!.includes(id));
    expect(corrected.map((entry) => JSON.parse(entry.Detail!).biomarker_ids)).toEqual([[3]]);
  });

  it('publishes LabResultsCorrected once, naming the test and no value', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 15, 'final'));
    await send(id, value(2, 13.1, 'corrected'));
    const corrected = eventBridge.entries().filter((entry) => entry.DetailType === 'LabResultsCorrected' && entry.Detail!.includes(id));
    expect(corrected).toHaveLength(1);
    expect(JSON.parse(corrected[0]!.Detail!)).toEqual({
      event_id: expect.any(String),
      occurred_at: expect.any(String),
      appointment_id: id,
      profile_id: expect.any(String),
      profile_group_slug: 'demo-clinic',
      biomarker_ids: [2],
    });
  });

  it('publishes LabResultsUpdated for a preliminary value, with its status', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 14, 'preliminary'));
    const updated = eventBridge.entries().filter((entry) => entry.DetailType === 'LabResultsUpdated' && entry.Detail!.includes(id));
    expect(updated.map((entry) => JSON.parse(entry.Detail!).results)).toEqual([[{ biomarker_id: 2, result_status: 'preliminary' }]]);
  });

  it('publishes nothing for a refused report (a preliminary value after a final one)', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 15, 'final'));
    const before = eventBridge.entries().length;
    await expect(send(id, value(2, 9, 'preliminary'))).rejects.toThrow();
    expect(
      eventBridge
        .entries()
        .slice(before)
        .filter((entry) => entry.Detail!.includes(id)),
    ).toEqual([]);
  });
});

describe('critical values', () => {
  const acknowledge = (id: string, withKey = key) => api.post(`/api/v1/appointments/${id}/results/acknowledge`, undefined, withKey);

  it('publishes CriticalResultReported at once, naming the test and no value', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 25, 'preliminary'));
    const critical = eventBridge.entries().filter((entry) => entry.DetailType === 'CriticalResultReported' && entry.Detail!.includes(id));
    expect(critical.map((entry) => JSON.parse(entry.Detail!))).toEqual([
      {
        event_id: expect.any(String),
        occurred_at: expect.any(String),
        appointment_id: id,
        profile_id: expect.any(String),
        profile_group_slug: 'demo-clinic',
        biomarker_ids: [2],
      },
    ]);
  });

  it('shows the critical tests in the results, not yet acknowledged', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 25, 'final'));
    expect((await results(id)).critical).toEqual({ biomarker_ids: [2], reported_at: expect.any(String), acknowledged_at: null, acknowledged_by: null });
  });

  it('records who acknowledged them and when', async () => {
    const { keyId, plaintext } = await apiKeyWithId();
    const id = await drawnAppointment();
    await send(id, value(2, 25, 'final'));
    const res = await acknowledge(id, plaintext);
    expect(res.status).toBe(200);
    expect(res.body.critical).toMatchObject({ biomarker_ids: [2], acknowledged_at: expect.any(String), acknowledged_by: keyId });
    expect((await results(id)).critical).toEqual(res.body.critical);
  });

  it('keeps the first acknowledgement when acknowledged again', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 25, 'final'));
    const first = (await acknowledge(id)).body.critical;
    const second = await acknowledge(id, await apiKey());
    expect([second.status, second.body.critical]).toEqual([200, first]);
  });

  it('asks for a new acknowledgement when another critical value arrives', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 25, 'final'));
    await acknowledge(id);
    await send(id, value(2, 26, 'corrected'));
    expect((await results(id)).critical).toMatchObject({ acknowledged_at: null, acknowledged_by: null });
  });

  it('answers 409 when no value is critical', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 14, 'final'));
    const res = await acknowledge(id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'These results hold no critical value to acknowledge' });
  });

  it('answers 403 to a key without RESULTS_VIEW', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 25, 'final'));
    expect((await acknowledge(id, await apiKey({ scopes: ['TEST_SESSIONS_VIEW'] }))).status).toBe(403);
  });
});

describe('interpretation', () => {
  it.each([
    [2, 25, 'critical_high'],
    [2, 6.5, 'critical_low'],
    [2, 14, 'normal'],
    [3, 0.5, 'low'],
    [3, 150, 'high'],
  ])('derives biomarker %s at %s (lab range 1–100; haemoglobin critical below 7 and above 20) as %s', async (biomarker, amount, expected) => {
    const id = await drawnAppointment();
    await send(id, value(biomarker, amount, 'final'));
    expect((await item(id, biomarker)).interpretation).toBe(expected);
  });

  it("keeps the lab's own flag when it sends one", async () => {
    const id = await drawnAppointment();
    await send(id, value(3, 2, 'final', { interpretation: 'abnormal' }));
    expect((await item(id, 3)).interpretation).toBe('abnormal');
  });
});

describe('the FHIR export', () => {
  it('gives each Observation its result status', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 14, 'preliminary'), value(3, 2, 'final'));
    expect(observations(await fhir(id)).map((observation) => observation.status)).toEqual(['preliminary', 'final']);
  });

  it('codes a critical value HH in v3 ObservationInterpretation', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 25, 'final'));
    expect(observations(await fhir(id))[0]!.interpretation).toEqual([
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'HH', display: 'Critical high' }] },
    ]);
  });

  it.each([
    ['partial while a planned test has no value', [value(2, 14, 'final')], 'partial'],
    ['preliminary while every test has a value and one may change', [value(2, 14, 'preliminary'), value(3, 2, 'final')], 'preliminary'],
    ['final once every value is final', [value(2, 14, 'final'), value(3, 2, 'final')], 'final'],
  ])('states the DiagnosticReport %s', async (_, sent, status) => {
    const id = await drawnAppointment();
    await send(id, ...sent);
    expect(diagnosticReport(await fhir(id)).status).toBe(status);
  });

  it('states the DiagnosticReport corrected once a value was corrected', async () => {
    const id = await drawnAppointment();
    await send(id, value(2, 14, 'final'), value(3, 2, 'final'));
    await send(id, value(2, 13, 'corrected'));
    expect(diagnosticReport(await fhir(id)).status).toBe('corrected');
  });
});

describe('the results, the FHIR export and the PDF report agree', () => {
  /** Haemoglobin critical then corrected (still critical), TSH preliminary, vitamin D (5) not performed. */
  async function everyStatus(): Promise<string> {
    const id = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2, 3, 5] }, key);
    await confirmDraw(api, key, id);
    await send(id, value(2, 25, 'final'), value(3, 2, 'preliminary'));
    await send(id, value(2, 26, 'corrected'));
    await deliver(report(id, { rejection: { reason_code: 'haemolysed', biomarker_ids: [5] } }));
    return id;
  }

  it('on every status of the same appointment', async () => {
    const id = await everyStatus();
    const items = (await results(id)).clinical_results.map((item: Record<string, unknown>) => [item.status, item.result_status, item.interpretation]);
    expect(items).toEqual([
      ['received', 'corrected', 'critical_high'],
      ['received', 'preliminary', 'normal'],
      ['not_performed', null, null],
    ]);
    const bundle = await fhir(id);
    expect(
      observations(bundle).map((o) => [o.status, (o.interpretation as { coding: { code: string }[] }[] | undefined)?.[0]?.coding[0]?.code ?? null]),
    ).toEqual([
      ['corrected', 'HH'],
      ['preliminary', 'N'],
      ['cancelled', null],
    ]);
    expect(diagnosticReport(bundle).status).toBe('preliminary');
    const pdf = Buffer.from(await (await fetch(`${api.url()}/api/v1/appointments/${id}/results/report`, { headers: { 'x-api-key': key } })).arrayBuffer());
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' });
    expect(text).toMatch(/Haemoglobin\s+26 ng\/mL\s+HH/);
    expect(text).toMatch(/corrected/);
    expect(text).toMatch(/preliminary/);
    expect(text).toMatch(/Vitamin D \(25-OH\)\s+not performed/);
  });
});
