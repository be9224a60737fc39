/**
 * HL7 v2 from the lab (issue #30): an ORU^R01 message uploaded under incoming/hl7/ reaches results-ingest as
 * S3's `Object Created` event, is translated (shared/hl7/oru-r01.ts) and stored by the same use case as a
 * JSON report. Real-world-shaped messages are fixtures (test/fixtures/hl7/); the rest is written by the lab
 * sandbox's own writer (infra/cli/hl7-message.ts).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as resultsIngest } from '../../functions/events/results-ingest';
import { type Hl7ClinicalResult, objectCreatedEvent, oruR01 } from '../../infra/cli/hl7-message';
import { renderLabReport } from '../../infra/cli/lab-report-pdf';
import { HL7_PREFIX } from '../../shared/documents/bucket-layout';
import { STORABLE_NUMBER } from '../../shared/domain/results';
import { s3 } from '../../shared/documents/s3';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData } from '../support/fixtures';
import { deliver, report, uploadIncoming } from '../support/lab';
import { captureLogs } from '../support/log-capture';
import { confirmDraw, scheduleAppointment } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
const bucket = () => process.env.DOCUMENTS_BUCKET!;
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

/** A drawn appointment testing haemoglobin (2), TSH (3) and ferritin (1), and the barcode of its sample. */
async function drawn(): Promise<{ id: string; barcode: string }> {
  const id = await scheduleAppointment(api, key);
  await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [1, 2, 3] }, key);
  const barcode = await confirmDraw(api, key, id);
  return { id, barcode };
}

const fixture = (name: string, barcode: string, controlId = randomUUID().slice(0, 20)) =>
  readFileSync(join(import.meta.dirname, '../fixtures/hl7', `${name}.hl7`), 'utf8')
    .replaceAll('%BARCODE%', barcode)
    .replaceAll('%CONTROL_ID%', controlId);

async function upload(message: string | Buffer, s3Key = `${HL7_PREFIX}${randomUUID()}.hl7`): Promise<string> {
  await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: s3Key, Body: message, ContentType: 'application/hl7-v2' }));
  return s3Key;
}
const notify = (s3Key: string) => resultsIngest(objectCreatedEvent(bucket(), s3Key, 1) as Parameters<typeof resultsIngest>[0]);
const send = async (message: string) => notify(await upload(message));
const results = async (id: string) => (await api.get(`/api/v1/appointments/${id}/results`, key)).body;
const clinical = async (id: string, biomarker: number) =>
  (await results(id)).clinical_results.find((r: { biomarker_id: number }) => r.biomarker_id === biomarker);
async function exists(s3Key: string): Promise<boolean> {
  try {
    await s3.send(new GetObjectCommand({ Bucket: bucket(), Key: s3Key }));
    return true;
  } catch {
    return false;
  }
}
/** A binary answer (a PDF) as bytes. */
async function bytesOf(path: string): Promise<Buffer> {
  const res = await fetch(`${api.url()}${path}`, { headers: { 'x-api-key': key } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}
const coding = (id: number) => (({ 1: '2276-4', 2: '718-7', 3: '3016-3' }) as Record<number, string>)[id];
const loinc = (id: number) => ({ code: coding(id) ?? String(id), text: `Biomarker ${id}`, system: coding(id) ? 'LN' : '99LAB' });

/** A TSH value (3) tested today, as the lab's message carries it. */
const tsh = (value: number, result_status: 'final' | 'corrected'): Hl7ClinicalResult => ({
  biomarker_id: 3,
  value,
  value_operator: 'eq',
  unit_id: null,
  unit: 'mIU/L',
  reference_range_lab: { normal_min: 0.4, normal_max: 4 },
  tested_at: new Date().toISOString().slice(0, 10),
  result_status,
});

describe('an ORU^R01 message from the lab', () => {
  it('stores each OBX as a result: value, unit, reference range, the lab flag, status and test date', async () => {
    const { id, barcode } = await drawn();
    expect(await send(fixture('final-with-notes', barcode))).toEqual({ outcome: 'stored' });
    expect(await clinical(id, 2)).toMatchObject({
      status: 'received',
      value: 14.2,
      value_operator: 'eq',
      unit: 'g/dL',
      unit_id: 7,
      reference_range_lab: { normal_min: 12, normal_max: 16, optimal_min: null, optimal_max: null },
      result_status: 'final',
      interpretation: 'normal',
      tested_at: '2026-11-20',
    });
  });

  it('reads an SN value with a comparator as a detection limit', async () => {
    const { id, barcode } = await drawn();
    await send(fixture('final-with-notes', barcode));
    expect(await clinical(id, 3)).toMatchObject({ value: 0.01, value_operator: 'lt', interpretation: 'low' });
  });

  it('reads a one-sided reference range (>30)', async () => {
    const { id, barcode } = await drawn();
    await send(fixture('final-with-notes', barcode));
    expect((await clinical(id, 1)).reference_range_lab).toEqual({ normal_min: 30, normal_max: null, optimal_min: null, optimal_max: null });
  });

  it('keeps the NTE comments after an OBX as its comment, escaped separators and line breaks decoded', async () => {
    const { id, barcode } = await drawn();
    await send(fixture('final-with-notes', barcode));
    expect((await clinical(id, 2)).comment).toBe('Sample slightly lipaemic & icteric; index | 2 ^ see note.\nValidated by Dr. \\K\\ (lab physician)');
    expect((await clinical(id, 1)).comment).toBe('Consider inflammation.\nRepeat in 3 months.');
  });

  it('stores \\XC3A4\\ in a UTF-8 message as ä', async () => {
    const { id, barcode } = await drawn();
    await send(fixture('final-with-notes', barcode).replace('lipaemic', 'h\\XC3A4\\molytisch'));
    expect((await clinical(id, 2)).comment).toMatch(/^Sample slightly hämolytisch & icteric;/);
  });

  it('stores the characters of a message declaring 8859/1 sent in Latin-1', async () => {
    const { id, barcode } = await drawn();
    const text = fixture('final-with-notes', barcode).replace('UNICODE UTF-8', '8859/1').replace('lipaemic', 'hämolytisch, Größe 37 °C');
    expect(await notify(await upload(Buffer.from(text, 'latin1')))).toEqual({ outcome: 'stored' });
    expect((await clinical(id, 2)).comment).toMatch(/^Sample slightly hämolytisch, Größe 37 °C & icteric;/);
  });

  it('is refused when MSH-7 lies more than 5 minutes ahead, so that a same-day correction after it stands, in the history and announced', async () => {
    const { id, barcode } = await drawn();
    const message = (control_id: string, reported_at: string, result: Hl7ClinicalResult) =>
      oruR01({ control_id, barcode, reported_at, clinical_results: [result], documents: [] }, loinc);
    await send(message('TSH-FINAL', new Date().toISOString(), tsh(2.1, 'final')));
    await expect(send(message('TSH-FUTURE', '9999-12-31T00:00:00Z', tsh(2.1, 'final')))).rejects.toThrow('more than 5 minutes ahead');
    expect(await send(message('TSH-CORRECTED', new Date().toISOString(), tsh(2.5, 'corrected')))).toMatchObject({ outcome: 'stored' });
    expect(await clinical(id, 3)).toMatchObject({ value: 2.5, result_status: 'corrected' });
    const history = (await api.get(`/api/v1/appointments/${id}/results/history`, key)).body;
    expect(history.clinical_results[0].versions.map((version: { value: number }) => version.value)).toEqual([2.5, 2.1]);
    expect(eventBridge.entries().filter((e) => e.DetailType === 'LabResultsCorrected' && e.Detail!.includes(id))).toHaveLength(1);
  });

  it('is refused when its correction is older than the value stored, naming the test, and keeps the file for the dead-letter replay', async () => {
    const { id, barcode } = await drawn();
    await send(
      oruR01({ control_id: 'NEWER-FINAL', barcode, reported_at: new Date().toISOString(), clinical_results: [tsh(2.1, 'final')], documents: [] }, loinc),
    );
    const older = new Date(Date.now() - 3_600_000).toISOString();
    const s3Key = await upload(
      oruR01({ control_id: 'OLDER-CORR', barcode, reported_at: older, clinical_results: [tsh(2.5, 'corrected')], documents: [] }, loinc),
    );
    await expect(notify(s3Key)).rejects.toThrow('biomarker 3: it is older than the final value stored');
    expect([(await clinical(id, 3)).value, await exists(s3Key)]).toEqual([2.1, true]);
  });

  it('completes the appointment when every planned test has its final value', async () => {
    const { id, barcode } = await drawn();
    await send(fixture('final-with-notes', barcode));
    expect([(await results(id)).status, (await api.get(`/api/v1/appointments/${id}`, key)).body.status]).toEqual(['completed', 'completed']);
  });

  it('reads OBX-11 P and the HH flag as a preliminary critical value, publishing CriticalResultReported', async () => {
    const { id, barcode } = await drawn();
    await send(fixture('preliminary-critical', barcode));
    expect(await clinical(id, 2)).toMatchObject({ value: 24.6, result_status: 'preliminary', interpretation: 'critical_high' });
    expect(eventBridge.entries().some((e) => e.DetailType === 'CriticalResultReported' && e.Detail!.includes(id))).toBe(true);
  });

  it('rejects the whole specimen for OBR-25 X, with the reason of SPM-21 (RH: haemolysed)', async () => {
    const { id, barcode } = await drawn();
    await send(fixture('rejected-haemolysed', barcode));
    const items = (await results(id)).clinical_results.map((r: { status: string; comment: string }) => [r.status, r.comment]);
    expect(items).toEqual(Array(3).fill(['not_performed', 'Haemolysed in transit']));
  });

  it('marks only the tests with OBX-11 X not performed', async () => {
    const { id, barcode } = await drawn();
    const message = oruR01(
      { control_id: 'X-ONLY', barcode, reported_at: new Date().toISOString(), rejection: { reason_code: 'clotted', biomarker_ids: [3] } },
      loinc,
    );
    await send(message);
    const statuses = (await results(id)).clinical_results.map((r: { biomarker_id: number; status: string }) => [r.biomarker_id, r.status]);
    expect(statuses).toEqual([
      [1, 'planned'],
      [2, 'planned'],
      [3, 'not_performed'],
    ]);
  });

  it('files the PDF embedded in an ED observation as a document of the results', async () => {
    const { id, barcode } = await drawn();
    const pdf = Buffer.from(
      await renderLabReport({ patientInitials: 'E.M.', appointmentId: id, barcode, reportedAt: new Date().toISOString(), sampleDate: '2026-11-20', lines: [] }),
    );
    await send(
      oruR01({ control_id: 'WITH-PDF', barcode, reported_at: new Date().toISOString(), documents: [{ file_name: 'zlb-report.pdf', bytes: pdf }] }, loinc),
    );
    const [document] = (await results(id)).documents;
    expect(document.file_name).toBe('zlb-report.pdf');
    expect((await bytesOf(`/api/v1/documents/${document.id}`)).equals(pdf)).toBe(true);
  });

  it('deletes the message file once its report is stored', async () => {
    const { barcode } = await drawn();
    const s3Key = await upload(fixture('final-with-notes', barcode));
    await notify(s3Key);
    expect(await exists(s3Key)).toBe(false);
  });

  it('stores a message sent twice (the same MSH-10) once, the second changing nothing', async () => {
    const { id, barcode } = await drawn();
    await send(fixture('preliminary-critical', barcode, 'RESENT-0001'));
    const before = await results(id);
    const events = eventBridge.entries().length;
    expect(await send(fixture('preliminary-critical', barcode, 'RESENT-0001'))).toEqual({ outcome: 'duplicate' });
    expect([await results(id), eventBridge.entries().length]).toEqual([before, events]);
  });

  it('acknowledges a notification whose file is already gone (S3 notifies at least once)', async () => {
    expect(await notify(`${HL7_PREFIX}${randomUUID()}.hl7`)).toEqual({ outcome: 'gone' });
  });
});

describe('the same results as HL7 and as JSON', () => {
  it('give identical results, FHIR and PDF report', async () => {
    const reportedAt = new Date().toISOString();
    const values: Hl7ClinicalResult[] = [
      {
        biomarker_id: 1,
        value: 212,
        value_operator: 'eq',
        unit_id: null,
        unit: 'ng/mL',
        reference_range_lab: { normal_min: 30, normal_max: null },
        tested_at: '2026-11-20',
        comment: 'Consider inflammation.\nRepeat in 3 months.',
      },
      {
        biomarker_id: 2,
        value: 24.6,
        value_operator: 'eq',
        unit_id: 7,
        unit: 'g/dL',
        reference_range_lab: { normal_min: 12, normal_max: 16 },
        tested_at: '2026-11-20',
        result_status: 'preliminary',
      },
      {
        biomarker_id: 3,
        value: 0.01,
        value_operator: 'lt',
        unit_id: null,
        unit: 'mIU/L',
        reference_range_lab: { normal_min: 0.4, normal_max: 4 },
        tested_at: '2026-11-20',
        interpretation: 'low',
        comment: 'a | b ^ c & d ~ e \\ f',
      },
    ];
    const pdf = Buffer.from(
      await renderLabReport({ patientInitials: 'E.M.', appointmentId: 'x', barcode: 'x', reportedAt, sampleDate: '2026-11-20', lines: [] }),
    );
    const json = await drawn();
    const hl7 = await drawn();
    const withRanges = values.map((r) => ({
      comment: null,
      result_status: 'final',
      interpretation: null,
      ...r,
      reference_range_lab: { ...r.reference_range_lab!, optimal_min: null, optimal_max: null },
    }));
    await deliver(
      report(json.id, {
        reported_at: reportedAt,
        clinical_results: withRanges,
        documents: [{ s3_key: await uploadIncoming(pdf), file_name: 'lab.pdf', content_type: 'application/pdf' }],
      }),
    );
    await send(
      oruR01(
        {
          control_id: 'SAME-AS-JSON',
          barcode: hl7.barcode,
          reported_at: reportedAt,
          clinical_results: values,
          documents: [{ file_name: 'lab.pdf', bytes: pdf }],
        },
        loinc,
      ),
    );

    // Ids, barcodes, draw times and the instants each report was stored and read differ by construction: each read names them in the same places.
    const [a, b] = await Promise.all([json, hl7].map((appointment) => readAll(appointment.id)));
    expect(normalised(a!, json)).toEqual(normalised(b!, hl7));
  });
});

async function readAll(id: string) {
  const [resultsBody, fhir, pdf] = await Promise.all([
    results(id),
    api.get(`/api/v1/appointments/${id}/results/fhir`, key),
    bytesOf(`/api/v1/appointments/${id}/results/report`),
  ]);
  const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' });
  // When each document was filed (created_at; reported_at before issue #48 named it so) differs by construction.
  const documents = resultsBody.documents.map(
    ({ created_at: _created, reported_at: _filed, ...document }: { created_at?: string; reported_at?: string }) => document,
  );
  const critical = { ...resultsBody.critical, reported_at: 'STORED' };
  return {
    results: JSON.stringify({ ...resultsBody, documents, critical }),
    fhir: String(fhir.body)
      .replace(/"creation":"[^"]+"/g, '"creation":"FILED"')
      .replace(/"(lastUpdated|timestamp)":"[^"]+"/g, '"$1":"READ"'),
    pdf: text,
  };
}

/** Every UUID numbered in order of first appearance, the barcode and the draw time named: what must then be equal is everything else. */
function normalised(read: Awaited<ReturnType<typeof readAll>>, appointment: { barcode: string }) {
  const seen = new Map<string, string>();
  const ids = (text: string) =>
    text.replace(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
      (uuid) => seen.get(uuid) ?? (seen.set(uuid, `#${seen.size}`), `#${seen.size - 1}`),
    );
  const named = (text: string) => ids(text.replaceAll(appointment.barcode, 'BARCODE')).replace(/"effectiveDateTime":"[^"]+"/g, '"effectiveDateTime":"DRAWN"');
  return { results: named(read.results), fhir: named(read.fhir), pdf: named(read.pdf) };
}

describe('a message that cannot be stored', () => {
  /** Sends it and answers what the ingest threw, what it logged, and whether the results changed. */
  async function refused(message: string | Buffer, id: string) {
    const before = await results(id);
    const s3Key = await upload(message);
    const logs = captureLogs();
    let error: unknown;
    try {
      await notify(s3Key);
    } catch (thrown) {
      error = thrown;
    } finally {
      logs.stop();
    }
    return {
      error: error as Error,
      logs: logs.lines().join('\n'),
      unchanged: JSON.stringify(await results(id)) === JSON.stringify(before),
      kept: await exists(s3Key),
    };
  }

  it('is refused when it is no ORU^R01, naming MSH-9, and changes nothing', async () => {
    const { id, barcode } = await drawn();
    const outcome = await refused(fixture('final-with-notes', barcode).replace('ORU^R01^ORU_R01', 'ADT^A01^ADT_A01'), id);
    expect([outcome.error?.name, outcome.error?.message, outcome.unchanged]).toEqual([
      'ReportRejected',
      'HL7: MSH-9 must be ORU^R01 (an observation result), got ADT^A01',
      true,
    ]);
  });

  it('is refused when it declares UTF-8 and is not, rather than stored with replacement characters', async () => {
    const { id, barcode } = await drawn();
    const latin1 = Buffer.from(fixture('final-with-notes', barcode).replace('lipaemic', 'hämolytisch'), 'latin1');
    const outcome = await refused(latin1, id);
    expect([outcome.error?.message, outcome.unchanged, outcome.kept]).toEqual([
      "HL7: MSH-18 declares UTF-8 (UNICODE UTF-8, or empty), but the message's bytes are not UTF-8: Latin-1 text is sent with MSH-18 8859/1",
      true,
      true,
    ]);
  });

  it.each([
    ['an encoded surrogate (\\XEDA080\\)', '\\XEDA080\\'],
    ['a byte that is never UTF-8 (\\XFF\\)', '\\XFF\\'],
  ])('is refused when a comment holds %s, storing nothing rather than U+FFFD', async (_case, escape) => {
    const { id, barcode } = await drawn();
    const outcome = await refused(fixture('final-with-notes', barcode).replace('lipaemic', `lip${escape}aemic`), id);
    expect([outcome.error?.message, outcome.unchanged, outcome.kept]).toEqual([
      'HL7: NTE-3: an \\X..\\ escape names bytes that are no UTF-8 text (the character set of MSH-18)',
      true,
      true,
    ]);
  });

  it('is refused when it declares 8859/1 and holds UTF-8 (ß: bytes C3 9F, 0x9F no Latin-1 character), storing nothing', async () => {
    const { id, barcode } = await drawn();
    const outcome = await refused(Buffer.from(fixture('final-with-notes', barcode).replace('UNICODE UTF-8', '8859/1'), 'utf8'), id);
    expect([outcome.error?.message, outcome.unchanged, outcome.kept]).toEqual([
      'HL7: MSH-18 declares 8859/1 (Latin-1), but the message holds bytes 0x80-0x9F, which are no Latin-1 characters: UTF-8 text is sent with MSH-18 UNICODE UTF-8',
      true,
      true,
    ]);
  });

  it('is refused when it declares 8859/1 and holds UTF-8 with no byte 0x80-0x9F (ä: bytes C3 A4), storing nothing', async () => {
    const { id, barcode } = await drawn();
    const text = fixture('final-with-notes', barcode)
      .replace('UNICODE UTF-8', '8859/1')
      .replace('Friedrichstraße', 'Hauptstr.')
      .replace('lipaemic', 'hämolytisch');
    const outcome = await refused(Buffer.from(text, 'utf8'), id);
    expect([outcome.error?.message, outcome.unchanged, outcome.kept]).toEqual([
      "HL7: MSH-18 declares 8859/1 (Latin-1), but the message's non-ASCII bytes are UTF-8: UTF-8 text is sent with MSH-18 UNICODE UTF-8",
      true,
      true,
    ]);
  });

  it('is refused when an OBX-5 has 100,000 digits, naming OBX-5, and stores nothing', async () => {
    const { id, barcode } = await drawn();
    const outcome = await refused(fixture('final-with-notes', barcode).replace('||14.2|', `||${'9'.repeat(100_000)}|`), id);
    expect([outcome.error?.message, outcome.unchanged, outcome.kept]).toEqual(['HL7: OBX 1: OBX-5 must be a number of at most 200 characters', true, true]);
  });

  it('is refused when an OBX-5 is a number the table cannot hold, naming OBX-5, and stores nothing', async () => {
    const { id, barcode } = await drawn();
    const outcome = await refused(fixture('final-with-notes', barcode).replace('||14.2|', `||1${'0'.repeat(126)}|`), id);
    expect([outcome.error?.message, outcome.unchanged]).toEqual([`HL7: OBX 1: OBX-5 ${STORABLE_NUMBER}`, true]);
  });

  it('is refused when an OBX-5 lies just beyond 2^53 - 1 (1E+16), the bound in force, naming OBX-5, and stores nothing', async () => {
    const { id, barcode } = await drawn();
    const outcome = await refused(fixture('final-with-notes', barcode).replace('||14.2|', '||10000000000000000|'), id);
    expect([outcome.error?.message, outcome.unchanged]).toEqual([`HL7: OBX 1: OBX-5 ${STORABLE_NUMBER}`, true]);
  });

  it('is refused when it is not HL7 at all', async () => {
    const { id } = await drawn();
    expect((await refused('{"not":"hl7"}', id)).error?.message).toBe('HL7: an HL7 v2 message starts with its MSH segment');
  });

  it('is not refused when no sample has its barcode: kept as an unmatched result (issue #51), its file deleted, no appointment changed', async () => {
    const { id } = await drawn();
    const before = await results(id);
    const s3Key = await upload(fixture('final-with-notes', 'NO-SUCH-SAMPLE'));
    expect(await notify(s3Key)).toEqual({ outcome: 'unmatched' });
    expect([await exists(s3Key), JSON.stringify(await results(id)) === JSON.stringify(before)]).toEqual([false, true]);
  });

  it('is refused when an OBX names no biomarker of the catalog', async () => {
    const { id, barcode } = await drawn();
    const outcome = await refused(fixture('final-with-notes', barcode).replace('718-7^', '99999-9^'), id);
    expect([outcome.error?.message, outcome.unchanged]).toEqual([
      'HL7: OBX 1: OBX-3 names no biomarker of the catalog (LOINC in system LN, or our id in 99LAB)',
      true,
    ]);
  });

  it('is refused when a value is not a number', async () => {
    const { id, barcode } = await drawn();
    expect((await refused(fixture('final-with-notes', barcode).replace('||14.2|', '||fourteen|'), id)).error?.message).toBe(
      'HL7: OBX 1: OBX-5 is not a number (with an optional <, <=, >, >=)',
    );
  });

  it('logs why it was refused with no value, name or barcode of the message', async () => {
    const { id, barcode } = await drawn();
    const { logs } = await refused(fixture('final-with-notes', barcode).replace('||14.2|', '||fourteen|'), id);
    expect(logs).toContain('lab report rejected');
    for (const secret of ['fourteen', 'Muster', 'Erika', barcode, 'lipaemic']) expect(logs).not.toContain(secret);
  });

  it('is refused when its key is outside incoming/hl7/<name>.hl7', async () => {
    await expect(notify('incoming/other/x.hl7')).rejects.toThrow('HL7 message keys are incoming/hl7/<letters, digits, . _ ->.hl7');
  });
});
