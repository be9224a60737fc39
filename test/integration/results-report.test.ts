/**
 * GET /api/v1/appointments/{id}/results/report: the PDF the service renders, read back with poppler's
 * pdftotext (the renderer's layout is tested in test/unit/results-report.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { assertDocumented } from '../support/contract';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { apoe, deliver, report } from '../support/lab';
import { confirmDraw, scheduleAppointment, THYROID_PANEL } from '../support/scenario';

const api = useApi();
let key: string;
const dir = mkdtempSync(join(tmpdir(), 'lab-report-'));

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The raw response (a PDF), checked against docs/openapi.json like every other. */
async function download(id: string, withKey = key): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const path = `/api/v1/appointments/${id}/results/report`;
  const res = await fetch(`${api.url()}${path}`, { headers: { 'x-api-key': withKey } });
  const type = res.headers.get('content-type') ?? '';
  const body = Buffer.from(await res.arrayBuffer());
  assertDocumented('GET', path, { status: res.status, headers: res.headers, body: type.startsWith('application/json') ? JSON.parse(body.toString()) : body });
  return { status: res.status, headers: res.headers, body };
}

function textOf(pdf: Buffer): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

const tsh = (value: number) => ({
  biomarker_id: 3,
  value,
  value_operator: 'eq',
  unit_id: 3,
  unit: 'mIU/L',
  reference_range_lab: { normal_min: 0.4, normal_max: 4, optimal_min: null, optimal_max: null },
  tested_at: '2026-11-20',
  comment: null,
});

describe('GET /api/v1/appointments/{id}/results/report', () => {
  let appointmentId: string;
  let response: Awaited<ReturnType<typeof download>>;
  let pdf: Buffer;

  beforeAll(async () => {
    const profile = await api.post(
      '/api/v1/profiles',
      { profile_group_slug: 'demo-clinic', first_name: 'Γιώργος', last_name: 'Παπαδόπουλος', date_of_birth: '1985-03-14' },
      key,
    );
    appointmentId = await scheduleAppointment(api, key, { profileId: profile.body.id });
    await api.post(`/api/v1/appointments/${appointmentId}/panels`, { panel_ids: [THYROID_PANEL] }, key);
    await api.post(`/api/v1/appointments/${appointmentId}/biomarkers`, { biomarker_ids: [100] }, key);
    await confirmDraw(api, key, appointmentId, 'REPORT-0001');
    await deliver(report(appointmentId, { clinical_results: [tsh(5.2)], genetic_results: [apoe] }));
    response = await download(appointmentId);
    pdf = response.body;
  });

  it('answers a PDF attachment', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="results-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('names the patient in their own script, with birth date and barcode', () => {
    const text = textOf(pdf);
    expect(text).toContain('Γιώργος Παπαδόπουλος');
    expect(text).toContain('14 Mar 1985');
    expect(text).toContain('REPORT-0001');
  });

  it('shows a high value flagged H and the test still pending as pending', () => {
    const lines = textOf(pdf).split('\n');
    expect(lines.find((line) => line.includes('TSH'))).toMatch(/5\.2.*mIU\/L.*\bH\b/);
    expect(lines.find((line) => line.includes('Free T4'))).toContain('pending');
  });

  it('states the genetic finding in plain words', () => {
    expect(textOf(pdf)).toMatch(/APOE: genotype e3\/e4/);
  });

  it('answers 403 to a key of another tenant and 404 for an unknown appointment', async () => {
    const partner = await apiKey({ profileGroups: ['partner-clinic'] });
    expect((await download(appointmentId, partner)).status).toBe(403);
    expect((await download(UNKNOWN_ID)).status).toBe(404);
  });
});

describe("the report in the profile's language", () => {
  /** A report for a profile speaking `language`, TSH 5.25 reported; its answer and text. */
  async function reportIn(language: 'en' | 'de' | 'fi') {
    const profile = await api.post(
      '/api/v1/profiles',
      { profile_group_slug: 'demo-clinic', first_name: 'Aino', last_name: 'Virtanen', date_of_birth: '1985-03-14', language },
      key,
    );
    const id = await scheduleAppointment(api, key, { profileId: profile.body.id });
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [3] }, key);
    await confirmDraw(api, key, id);
    await deliver(report(id, { clinical_results: [tsh(5.25)] }));
    const answer = await download(id);
    return { language: answer.headers.get('content-language'), text: textOf(answer.body) };
  }

  it.each([
    ['en', ['Results report', '14 Mar 1985', '5.25 mIU/L']],
    ['de', ['Befundbericht', '14.03.1985', '5,25 mIU/L', 'Seite 1 von 1']],
    ['fi', ['Tulosraportti', '14.03.1985', '5,25 mIU/L', 'Sivu 1 / 1']],
  ] as const)("renders a %s profile's report in its language and says so in Content-Language", async (language, words) => {
    const answer = await reportIn(language);
    expect(answer.language).toBe(language);
    for (const word of words) expect(answer.text).toContain(word);
  });
});
