/**
 * GET /api/v1/appointments/{id}/requisition and GET /api/v1/home-kit-orders/{id}/requisition (issue #50):
 * the form that travels with a sample, read back from the real route as the lab would read it: its barcodes
 * decoded from the page printed at 200 dpi (zxing-wasm, test/support/barcodes.ts), its words with poppler's
 * pdftotext. The layout itself is tested in test/unit/requisition-form.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUISITION_NUMBER_PATTERN } from '../../shared/domain/requisition';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { code128On } from '../support/barcodes';
import { assertDocumented } from '../support/contract';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, BERLIN_MITTE, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { confirmDraw, createProfile, drawableAppointment, newBarcode, scheduleAppointment, storedAppointment } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;
const dir = mkdtempSync(join(tmpdir(), 'lab-requisition-'));

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Download {
  status: number;
  headers: Headers;
  body: Buffer;
  /** The JSON of an error answer. */
  json?: { error: string };
}

/** The raw answer of a requisition route (a PDF, or an error), checked against docs/openapi.json like every other. */
async function download(path: string, withKey = key): Promise<Download> {
  const res = await fetch(`${api.url()}${path}`, { headers: { 'x-api-key': withKey } });
  const body = Buffer.from(await res.arrayBuffer());
  const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(body.toString()) : undefined;
  assertDocumented('GET', path, { status: res.status, headers: res.headers, body: json ?? body });
  return { status: res.status, headers: res.headers, body, json };
}

const appointmentForm = (id: string, withKey = key) => download(`/api/v1/appointments/${id}/requisition`, withKey);
const kitForm = (id: string, withKey = key) => download(`/api/v1/home-kit-orders/${id}/requisition`, withKey);

function textOf(pdf: Buffer): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

const requisitionNumberOf = async (path: string): Promise<string> => (await api.get(path, key)).body.requisition.number;

/** A barcode of the longest length a draw accepts (32), unique in the table. */
const longBarcode = () => `${newBarcode()}-`.padEnd(32, 'X');

describe('GET /api/v1/appointments/{id}/requisition', () => {
  let profileId: string;
  let appointmentId: string;
  let barcode: string;
  let number: string;
  let form: Download;
  let text: string;

  beforeAll(async () => {
    // A Finnish-speaking patient: the form is in English, the lab's language, whatever the patient's.
    const profile = await api.post(
      '/api/v1/profiles',
      { profile_group_slug: 'demo-clinic', first_name: 'Aino', last_name: 'Virtanen', date_of_birth: '1985-03-14', sex: 2, language: 'fi' },
      key,
    );
    profileId = profile.body.id;
    appointmentId = await scheduleAppointment(api, key, { profileId });
    expect((await api.post(`/api/v1/appointments/${appointmentId}/biomarkers`, { biomarker_ids: [1, 2, 11] }, key)).status).toBe(200);
    barcode = await confirmDraw(api, key, appointmentId, longBarcode());
    number = await requisitionNumberOf(`/api/v1/appointments/${appointmentId}`);
    form = await appointmentForm(appointmentId);
    text = textOf(form.body);
  });

  it('answers an English PDF attachment named by the requisition number alone', () => {
    expect(form.status).toBe(200);
    expect(form.headers.get('content-type')).toBe('application/pdf');
    expect(form.headers.get('content-language')).toBe('en');
    expect(form.headers.get('content-disposition')).toBe(`attachment; filename="requisition-${number}.pdf"`);
    expect(number).toMatch(REQUISITION_NUMBER_PATTERN);
    expect(form.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('draws the requisition number and the 32-character sample barcode as Code 128 barcodes a scanner decodes', async () => {
    expect(barcode).toHaveLength(32);
    expect(await code128On(form.body)).toEqual([number, barcode]);
  });

  it('prints the requisition number and the sample barcode as text', () => {
    expect(text).toContain(number);
    expect(text).toContain(barcode);
  });

  it("prints the patient's name, date of birth and sex", () => {
    expect(text).toMatch(/Aino Virtanen\s+1985-03-14\s+Female/);
  });

  it("prints each test's LOINC code and container", () => {
    const lines = text.split('\n');
    expect(lines.find((line) => line.includes('2276-4'))).toContain('SST (gold)');
    expect(lines.find((line) => line.includes('718-7'))).toContain('EDTA (lavender)');
    expect(lines.find((line) => line.includes('34714-6'))).toContain('sodium citrate (light blue)');
  });

  it("prints when the sample was taken, in UTC and Berlin's time, and where: the location's name and address", async () => {
    const drawnAt = String((await storedAppointment(appointmentId)).blood_drawn_at);
    expect(text).toContain(`${drawnAt.slice(0, 10)} ${drawnAt.slice(11, 16)} UTC`);
    expect(text).toContain('Europe/Berlin');
    expect(text).toContain('Berlin Mitte');
    expect(text).toContain('Friedrichstraße 123');
  });

  it('names the clinic that ordered as the ordering party', () => {
    expect(text).toContain('Demo Clinic');
  });

  it('is recorded in the access log as a read of the appointment’s requisition', async () => {
    const log = await api.get(`/api/v1/profiles/${profileId}/access-log`, key);
    expect(log.body).toContainEqual(
      expect.objectContaining({ route: 'getAppointmentRequisition', resource: `appointment ${appointmentId} requisition`, profile_id: profileId }),
    );
  });

  it('answers 409 before the draw, saying the requisition is made when the draw is confirmed', async () => {
    const scheduled = await drawableAppointment(api, key);
    const answer = await appointmentForm(scheduled);
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ error: 'The appointment has no requisition yet: it is made when the blood draw is confirmed' });
  });

  it('answers 409 for a sample drawn before requisitions existed, saying so', async () => {
    const drawn = await drawableAppointment(api, key);
    await confirmDraw(api, key, drawn);
    // As a draw confirmed before issue #50 left it: no requisition stored.
    await dynamo.send(new UpdateCommand({ TableName: tableName, Key: keys.appointment(drawn), UpdateExpression: 'REMOVE requisition' }));
    const answer = await appointmentForm(drawn);
    expect(answer.status).toBe(409);
    expect(answer.json?.error).toMatch(/taken before requisitions existed/);
  });

  it("prints none of an erased person's name, birth date or sex, and still the sample's barcode and tests", async () => {
    const erased = await api.post(
      '/api/v1/profiles',
      { profile_group_slug: 'demo-clinic', first_name: 'Erasmus', last_name: 'Vergessen', date_of_birth: '1971-06-30', sex: 1 },
      key,
    );
    const id = await scheduleAppointment(api, key, { profileId: erased.body.id });
    await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2] }, key);
    const drawnBarcode = await confirmDraw(api, key, id);
    expect((await api.post(`/api/v1/profiles/${erased.body.id}/erase`, {}, key)).status).toBe(200);
    const after = await appointmentForm(id);
    expect(after.status).toBe(200);
    const printed = textOf(after.body);
    expect(printed).not.toMatch(/Erasmus|Vergessen|1971-06-30|Male/);
    expect(printed).toContain(drawnBarcode);
    expect(printed).toContain('718-7');
  });

  it('answers 404 for an unknown appointment', async () => {
    expect((await appointmentForm(UNKNOWN_ID)).status).toBe(404);
  });

  it('answers 403 to a key of another tenant, before saying whether the appointment has a requisition', async () => {
    const partner = await apiKey({ profileGroups: ['partner-clinic'], locationGroups: ['helsinki'] });
    expect((await appointmentForm(appointmentId, partner)).status).toBe(403);
    expect((await appointmentForm(await scheduleAppointment(api, key), partner)).status).toBe(403);
  });
});

describe('GET /api/v1/home-kit-orders/{id}/requisition', () => {
  /** A dispatched kit with vitamin D (5) and HbA1c (6), which a home kit can take. */
  async function dispatchedKit(): Promise<string> {
    const created = await api.post(
      '/api/v1/home-kit-orders',
      { profile_id: await createProfile(api, key), delivery_address: { location_id: BERLIN_MITTE } },
      key,
    );
    const kitId = created.body.id as string;
    expect((await api.post(`/api/v1/home-kit-orders/${kitId}/biomarkers`, { biomarker_ids: [5, 6] }, key)).status).toBe(200);
    expect((await api.post(`/api/v1/home-kit-orders/${kitId}/dispatch`, { tracking_number: 'DHL-REQ-0001' }, key)).status).toBe(200);
    return kitId;
  }

  let kitId: string;
  let barcode: string;
  let form: Download;

  beforeAll(async () => {
    kitId = await dispatchedKit();
    barcode = newBarcode();
    expect((await api.post(`/api/v1/home-kit-orders/${kitId}/activate`, { barcode }, key)).status).toBe(200);
    form = await kitForm(kitId);
  });

  it("answers the PDF of the kit's sample, its barcodes decoded back to the requisition number and the kit's barcode", async () => {
    expect(form.status).toBe(200);
    const number = await requisitionNumberOf(`/api/v1/home-kit-orders/${kitId}`);
    expect(form.headers.get('content-disposition')).toBe(`attachment; filename="requisition-${number}.pdf"`);
    expect(await code128On(form.body)).toEqual([number, barcode]);
  });

  it('reads "Home test kit" as the place, with the tests a kit can take', () => {
    const text = textOf(form.body);
    expect(text).toContain('Home test kit');
    expect(text).toContain('62292-8');
    expect(text).toContain('dried blood spot card');
  });

  it('answers 409 before the kit is activated, saying the requisition is made at the activation', async () => {
    const answer = await kitForm(await dispatchedKit());
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ error: 'The home kit order has no requisition yet: it is made when the kit is activated' });
  });

  it('answers 404 for an unknown order', async () => {
    expect((await kitForm(UNKNOWN_ID)).status).toBe(404);
  });

  it('answers 403 to a key of another tenant', async () => {
    const partner = await apiKey({ profileGroups: ['partner-clinic'], locationGroups: ['helsinki'] });
    expect((await kitForm(kitId, partner)).status).toBe(403);
  });
});
