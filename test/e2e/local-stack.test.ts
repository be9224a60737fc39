/**
 * Black-box test of `npm start`: the README's command, started as a user would, called over HTTP and
 * through the CLIs from "a second terminal", stopped as Ctrl-C stops it (SIGINT to the whole process
 * group), started again on the same data. Other ways to stop it: npm-start-lifecycle.test.ts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient, { type Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../docs/lab-api';
import { freePort } from '../../infra/local/free-port';
import { Webhook } from 'standardwebhooks';
import { assertDocumented, recordContractChecks } from '../support/contract';
import { slotIn } from '../support/slots';
import { type Receiver, startReceiver } from '../support/webhook-receiver';
import { interrupt, type NpmStart, npmStart } from '../support/npm-start';

const run = promisify(execFile);

const dataDir = mkdtempSync(join(tmpdir(), 'lab-e2e-'));
const devKey = `lab_e2e_${randomBytes(16).toString('hex')}`;
let ports: { PORT: string; DYNAMODB_PORT: string; S3_PORT: string };

const startStack = (extraEnv: Record<string, string>) => npmStart({ ...ports, LAB_DATA_DIR: dataDir, ...extraEnv });

/** A second terminal: no port variable exported, only the data directory (README's default there). */
function secondTerminal(): NodeJS.ProcessEnv {
  const { PORT: _port, DYNAMODB_PORT: _dynamodb, S3_PORT: _s3, ...env } = process.env;
  return { ...env, LAB_DATA_DIR: dataDir };
}

function portOpen(port: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function javaProcessesOnPort(port: string): string[] {
  const table = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return table.split('\n').filter((line) => line.includes('DynamoDBLocal') && line.includes(`-port ${port}`));
}

async function call(stack: NpmStart, method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const parsed = (await response.json()) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  assertDocumented(method, path, { status: response.status, headers: response.headers, body: parsed });
  return { status: response.status, body: parsed };
}

/** openapi-fetch's hook on every response: checked against docs/openapi.json like any other. */
const checkedAgainstContract: Middleware = {
  async onResponse({ request, response }) {
    const type = response.headers.get('content-type') ?? '';
    const copy = response.clone();
    const body = type.startsWith('application/json') ? await copy.json() : Buffer.from(await copy.arrayBuffer());
    assertDocumented(request.method, new URL(request.url).pathname, { status: response.status, headers: response.headers, body });
  },
};

recordContractChecks('e2e');

beforeAll(async () => {
  ports = { PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), S3_PORT: String(await freePort()) };
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  let first: NpmStart;
  let second: NpmStart;
  let profileId: string;
  let appointmentId: string;
  let criticalAppointmentId: string;
  let receiver: Receiver;
  let webhookSecret: string;

  afterAll(async () => {
    await receiver?.close();
  });

  /** Resolves with the first webhook whose data matches, waiting at most 5 s. */
  async function webhookWhere(match: (message: { type: string; data: Record<string, unknown> }) => boolean) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = receiver.received.find((r) => match(JSON.parse(r.body)));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching webhook within 5 s (received ${receiver.received.length})`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('answers GET /api/v1/locations with the seeded locations for DEV_API_KEY', async () => {
    // Verbose: the functions' own JSON request lines, which one test reads.
    first = await startStack({ DEV_API_KEY: devKey, LAB_VERBOSE: '1' });
    const res = await call(first, 'GET', '/api/v1/locations', devKey);
    expect(res.status).toBe(200);
    expect(res.body.map((l: { name: string }) => l.name)).toEqual(['Berlin Mitte', 'Berlin Prenzlauer Berg', 'Helsinki Kamppi']);
  });

  it("prints the SES emulator's address, whose store holds every email the stack sent", async () => {
    const line = /\nEmail \(SES\): {4}(http:\/\/127\.0\.0\.1:\d+) \(every email the stack sent\)\n/.exec(first.output());
    expect(line, first.output()).not.toBeNull();
    const store = await fetch(`${line![1]}/store`);
    expect(store.status).toBe(200);
    expect(await store.json()).toMatchObject({ emails: expect.any(Array) });
  });

  it("names DEV_API_KEY in the ready line's curl, never its value (a fixed key is the caller's own)", () => {
    expect(first.output()).toContain(`try: curl -H "x-api-key: $DEV_API_KEY" ${first.baseUrl}/api/v1/locations\n`);
    expect(first.output()).not.toContain(devKey);
  });

  it('creates and reads back a profile over HTTP', async () => {
    const created = await call(first, 'POST', '/api/v1/profiles', devKey, {
      profile_group_slug: 'demo-clinic',
      first_name: 'Ada',
      last_name: 'Example',
      date_of_birth: '1990-03-04',
    });
    expect(created.status).toBe(201);
    profileId = created.body.id;
    const read = await call(first, 'GET', `/api/v1/profiles/${profileId}`, devKey);
    expect(read.body).toMatchObject({ id: profileId, first_name: 'Ada', transactional_emails_enabled: null });
  });

  it("logs each of many requests at once with its own route's function name, as if each had a Lambda container", async () => {
    const headers = { 'x-api-key': devKey, 'content-type': 'application/json' };
    const requests = [
      () => fetch(`${first.baseUrl}/api/v1/locations`, { headers }),
      () => fetch(`${first.baseUrl}/api/v1/profiles/${profileId}`, { headers }),
      () => fetch(`${first.baseUrl}/api/v1/profiles`, { method: 'POST', headers, body: '{}' }), // refused: 400
    ];
    const logged = first.output().length;
    await Promise.all(Array.from({ length: 30 }, (_, i) => (requests[i % 3] as () => Promise<Response>)().then((res) => res.text())));
    const accessLines = () =>
      first
        .output()
        .slice(logged)
        .split('\n')
        .filter((line) => line.startsWith('{') && line.includes('"message":"request"'))
        .map((line) => JSON.parse(line) as { route: string; function_name: string });
    const deadline = Date.now() + 5000; // the lines travel through a pipe after the answers
    while (accessLines().length < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const lines = accessLines();
    expect(lines).toHaveLength(30);
    expect(lines.filter((line) => line.function_name !== `lab-api-local-${line.route}`)).toEqual([]);
  });

  // The latency is printed, not asserted (timings belong to npm run bench): each webhook must arrive, signed.
  it('delivers a signed webhook for every change to a receiver on this machine', async () => {
    receiver = await startReceiver();
    const subscribed = await call(first, 'POST', '/api/v1/webhooks', devKey, {
      url: receiver.url,
      event_types: ['AppointmentStatusChanged', 'LabResultsAvailable'],
    });
    expect(subscribed.status).toBe(201);
    webhookSecret = subscribed.body.secret;
    const latencies: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const started = Date.now();
      const booked = await call(first, 'POST', '/api/v1/appointments', devKey, {
        profile_id: profileId,
        location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
        scheduled_at: slotIn(1),
      });
      const arrived = await webhookWhere((m) => m.data.appointment_id === booked.body.id);
      new Webhook(webhookSecret).verify(arrived.body, arrived.headers as Record<string, string>);
      latencies.push(arrived.at - started);
    }
    latencies.sort((a, b) => a - b);
    const p50 = latencies[9] as number;
    const p95 = latencies[18] as number;
    console.log(`webhook latency, request start to receiver (npm start, 20 bookings): p50 ${p50} ms, p95 ${p95} ms`);
    expect(latencies).toHaveLength(20);
  });

  it("appends a confirmed draw's LabOrderRequested to the local event log", async () => {
    const scheduled = await call(first, 'POST', '/api/v1/appointments', devKey, {
      profile_id: profileId,
      location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
      scheduled_at: slotIn(1),
    });
    expect(scheduled.status).toBe(201);
    appointmentId = scheduled.body.id;
    const thyroidPanel = '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b03';
    expect((await call(first, 'POST', `/api/v1/appointments/${appointmentId}/panels`, devKey, { panel_ids: [thyroidPanel] })).status).toBe(200);
    const confirmed = await call(first, 'POST', `/api/v1/appointments/${scheduled.body.id}/confirm`, devKey, { barcode: 'E2E-000001' });
    expect(confirmed.status).toBe(200);
    const lines = readFileSync(join(dataDir, 'events.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const event = lines.find((line) => line.DetailType === 'LabOrderRequested' && JSON.parse(line.Detail).appointment_id === scheduled.body.id);
    expect(event).toMatchObject({ Source: 'lab-api', DetailType: 'LabOrderRequested' });
  });

  it('npm run lab -- report stores plausible results and a real PDF report for the appointment', async () => {
    const lab = await run('npm', ['run', '--silent', 'lab', '--', 'report', appointmentId], { env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir } });
    expect(lab.stdout).toContain('Reported 2 of 2 planned result(s) (2 of 2 clinical, 0 of 0 genetic)');
    const results = await call(first, 'GET', `/api/v1/appointments/${appointmentId}/results`, devKey);
    expect(results.body.clinical_results.map((r: { status: string }) => r.status)).toEqual(['received', 'received']);
    const pdf = await fetch(`${first.baseUrl}/api/v1/documents/${results.body.documents[0].id}`, { headers: { 'x-api-key': devKey } });
    const bytes = Buffer.from(await pdf.arrayBuffer());
    assertDocumented('GET', '/api/v1/documents/x', { status: pdf.status, headers: pdf.headers, body: bytes });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(bytes.subarray(0, 4).toString()).toBe('%PDF');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes, encoding: 'utf8' });
    expect(text).toMatch(/Sample taken/);
    expect(text).toMatch(/Reference range\s+Flag/);
  });

  it('npm run lab -- report reports every planned genetic test too, so a Cardiogenetics appointment completes', async () => {
    const booked = await call(first, 'POST', '/api/v1/appointments', devKey, {
      profile_id: profileId,
      location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
      scheduled_at: slotIn(1),
    });
    const cardiogenetics = '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b04';
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/panels`, devKey, { panel_ids: [cardiogenetics] });
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/confirm`, devKey, { barcode: 'E2E-000002' });
    const lab = await run('npm', ['run', '--silent', 'lab', '--', 'report', booked.body.id], { env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir } });
    expect(lab.stdout).toContain('Reported 2 of 2 planned result(s) (0 of 0 clinical, 2 of 2 genetic)');
    const results = await call(first, 'GET', `/api/v1/appointments/${booked.body.id}/results`, devKey);
    expect(results.body.status).toBe('completed');
    expect(results.body.genetic_results.map((r: { gene: string; status: string }) => `${r.gene}:${r.status}`)).toEqual(['APOE:received', 'F5:received']);
  });

  it('npm run lab -- report --preliminary --critical 2 leaves the results in progress with a critical haemoglobin', async () => {
    const booked = await call(first, 'POST', '/api/v1/appointments', devKey, {
      profile_id: profileId,
      location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
      scheduled_at: slotIn(1),
    });
    criticalAppointmentId = booked.body.id;
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/biomarkers`, devKey, { biomarker_ids: [2] });
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/confirm`, devKey, { barcode: 'E2E-000003' });
    await run('npm', ['run', '--silent', 'lab', '--', 'report', booked.body.id, '--preliminary', '--critical', '2'], {
      env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir },
    });
    const results = (await call(first, 'GET', `/api/v1/appointments/${booked.body.id}/results`, devKey)).body;
    expect([results.status, results.clinical_results[0].result_status, results.clinical_results[0].interpretation, results.critical.biomarker_ids]).toEqual([
      'in_progress',
      'preliminary',
      'critical_high',
      [2],
    ]);
  });

  it('npm run lab -- correct replaces a value as corrected, keeping the one it replaced in the history', async () => {
    await run('npm', ['run', '--silent', 'lab', '--', 'correct', criticalAppointmentId, '2=13.4'], {
      env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir },
    });
    const history = (await call(first, 'GET', `/api/v1/appointments/${criticalAppointmentId}/results/history`, devKey)).body;
    expect(history.clinical_results[0].versions.map((v: { result_status: string; value: number }) => v.result_status)).toEqual(['corrected', 'preliminary']);
    expect(history.clinical_results[0].versions[0].value).toBe(13.4);
  });

  it('npm run lab -- correct --reported-at in the future is refused with its reason, exit code 1, and changes nothing', async () => {
    const failed = await run('npm', ['run', '--silent', 'lab', '--', 'correct', criticalAppointmentId, '2=99', '--reported-at', '9999-12-31T00:00:00Z'], {
      env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir },
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining("reported_at is more than 5 minutes ahead of the service's clock") });
    const history = (await call(first, 'GET', `/api/v1/appointments/${criticalAppointmentId}/results/history`, devKey)).body;
    expect(history.clinical_results[0].versions.map((v: { value: number }) => v.value)[0]).toBe(13.4);
  });

  it('npm run lab -- reject leaves the rejected tests not performed', async () => {
    const booked = await call(first, 'POST', '/api/v1/appointments', devKey, {
      profile_id: profileId,
      location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
      scheduled_at: slotIn(1),
    });
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/biomarkers`, devKey, { biomarker_ids: [3] });
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/confirm`, devKey, { barcode: 'E2E-000004' });
    await run('npm', ['run', '--silent', 'lab', '--', 'reject', booked.body.id, '--reason', 'haemolysed'], {
      env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir },
    });
    const results = (await call(first, 'GET', `/api/v1/appointments/${booked.body.id}/results`, devKey)).body;
    expect(results.clinical_results.map((r: { status: string; comment: string }) => [r.status, r.comment])).toEqual([
      ['not_performed', 'Specimen rejected: haemolysed'],
    ]);
  });

  it('npm run lab -- report --format hl7 stores the results and the PDF through the HL7 v2 path', async () => {
    const booked = await call(first, 'POST', '/api/v1/appointments', devKey, {
      profile_id: profileId,
      location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
      scheduled_at: slotIn(1),
    });
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/biomarkers`, devKey, { biomarker_ids: [2, 3] });
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/confirm`, devKey, { barcode: 'E2E-000005' });
    await run('npm', ['run', '--silent', 'lab', '--', 'report', booked.body.id, '--format', 'hl7', '--critical', '2'], {
      env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir },
    });
    const results = (await call(first, 'GET', `/api/v1/appointments/${booked.body.id}/results`, devKey)).body;
    expect([
      results.status,
      results.clinical_results.map((r: { status: string; result_status: string }) => `${r.status}:${r.result_status}`),
      results.critical.biomarker_ids,
      results.documents.length,
    ]).toEqual(['completed', ['received:final', 'received:final'], [2], 1]);
  });

  it("npm run lab -- report-unsolicited --format hl7 is listed as an unmatched result, matched, and then reads as the appointment's results", async () => {
    const booked = await call(first, 'POST', '/api/v1/appointments', devKey, {
      profile_id: profileId,
      location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
      scheduled_at: slotIn(1),
    });
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/biomarkers`, devKey, { biomarker_ids: [2, 3] });
    await call(first, 'POST', `/api/v1/appointments/${booked.body.id}/confirm`, devKey, { barcode: 'E2E-000006' });
    const lab = await run('npm', ['run', '--silent', 'lab', '--', 'report-unsolicited', 'E2E-MISLABELLED-1', '--like', booked.body.id, '--format', 'hl7'], {
      env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir },
    });
    const id = /unmatched result ([0-9a-f-]{36})/.exec(lab.stdout)?.[1];
    expect(lab.stdout).toContain(`under barcode E2E-MISLABELLED-1, which no order holds (unmatched: unmatched result ${id})`);
    const listed = (await call(first, 'GET', '/api/v1/lab/unmatched-results', devKey)).body.find((item: { id: string }) => item.id === id);
    expect(listed).toMatchObject({ barcode: 'E2E-MISLABELLED-1', source: 'hl7', patient: { name: expect.stringContaining(', ') }, status: 'waiting' });
    expect(listed.biomarkers.map((biomarker: { code: string }) => biomarker.code)).toEqual(['718-7', '3016-3']);
    const matched = await call(first, 'POST', `/api/v1/lab/unmatched-results/${id}/match`, devKey, { appointment_id: booked.body.id });
    expect([matched.status, matched.body.status, matched.body.patient]).toEqual([200, 'matched', null]);
    const results = (await call(first, 'GET', `/api/v1/appointments/${booked.body.id}/results`, devKey)).body;
    expect([results.status, results.clinical_results.map((r: { status: string }) => r.status), results.documents.length]).toEqual([
      'completed',
      ['received', 'received'],
      1,
    ]);
  });

  it('npm run lab -- report-unsolicited sends a JSON report naming the person, kept unmatched; a barcode an order holds is refused with exit code 2', async () => {
    const like = (await call(first, 'GET', '/api/v1/lab/unmatched-results', devKey)).body.length;
    const lab = await run('npm', ['run', '--silent', 'lab', '--', 'report-unsolicited', 'E2E-MISLABELLED-2', '--like', appointmentId], {
      env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir },
    });
    const id = /unmatched result ([0-9a-f-]{36})/.exec(lab.stdout)?.[1];
    const listed = (await call(first, 'GET', '/api/v1/lab/unmatched-results', devKey)).body;
    expect([listed.length, listed.find((item: { id: string }) => item.id === id)]).toEqual([
      like + 1,
      expect.objectContaining({ barcode: 'E2E-MISLABELLED-2', source: 'json', patient: { name: expect.any(String), date_of_birth: expect.any(String) } }),
    ]);
    const held = await run('npm', ['run', '--silent', 'lab', '--', 'report-unsolicited', 'E2E-000001', '--like', appointmentId], {
      env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir },
    }).catch((e: { code: number; stderr: string }) => e);
    expect(held).toMatchObject({ code: 2, stderr: expect.stringContaining('an order holds barcode E2E-000001: use report') });
  });

  it('delivers the LabResultsAvailable that npm run lab caused from its own process', async () => {
    const arrived = await webhookWhere((m) => m.type === 'LabResultsAvailable' && m.data.appointment_id === appointmentId);
    expect(new Webhook(webhookSecret).verify(arrived.body, arrived.headers as Record<string, string>)).toMatchObject({
      data: { appointment_id: appointmentId, profile_group_slug: 'demo-clinic' },
    });
  });

  it('walks booking → confirm → pickup → results → PDF through the client typed from docs/openapi.json', async () => {
    const client = createClient<paths>({ baseUrl: first.baseUrl, headers: { 'x-api-key': devKey } });
    client.use(checkedAgainstContract);
    const profile = await client.POST('/api/v1/profiles', {
      body: { profile_group_slug: 'demo-clinic', first_name: 'Grace', last_name: 'Typed', date_of_birth: '1985-12-09' },
      headers: { 'Idempotency-Key': `e2e-${randomBytes(8).toString('hex')}` },
    });
    if (!profile.data) throw new Error(`create profile answered ${profile.response.status}`);
    const booked = await client.POST('/api/v1/appointments', {
      body: {
        profile_id: profile.data.id,
        location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
        scheduled_at: slotIn(1),
      },
    });
    if (!booked.data) throw new Error(`book answered ${booked.response.status}`);
    const id = booked.data.id;
    const withId = { params: { path: { id } } };
    await client.POST('/api/v1/appointments/{id}/panels', { ...withId, body: { panel_ids: ['7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b03'] } });
    const confirmed = await client.POST('/api/v1/appointments/{id}/confirm', { ...withId, body: { barcode: 'E2E-TYPED-01' } });
    expect(confirmed.data?.success).toBe(true);
    const picked = await client.POST('/api/v1/appointments/pickup', { body: { appointment_ids: [id] } });
    expect(picked.data?.success).toBe(true);
    // As in the README's walkthrough: from a second terminal, which exports no port variable.
    await run('npm', ['run', '--silent', 'lab', '--', 'report', id], { env: secondTerminal() });
    const results = await client.GET('/api/v1/appointments/{id}/results', withId);
    expect(results.data?.status).toBe('completed');
    const documentId = results.data?.documents[0]?.id as string;
    const pdf = await client.GET('/api/v1/documents/{id}', { params: { path: { id: documentId } }, parseAs: 'arrayBuffer' });
    expect(
      Buffer.from(pdf.data as ArrayBuffer)
        .subarray(0, 4)
        .toString(),
    ).toBe('%PDF');
  });

  it('npm run keys, run with no port variable set, finds the running stack and issues a key it accepts', async () => {
    const created = await run('npm', ['run', '--silent', 'keys', '--', 'create', '--scopes', 'LOCATIONS_VIEW', '--location-groups', 'berlin'], {
      env: secondTerminal(),
    });
    const key = created.stdout.trim().split('\n').at(-1) as string;
    expect((await call(first, 'GET', '/api/v1/locations', key)).status).toBe(200);
  });

  it('npm run lab exits with code 2 for an id that is not an appointment id', async () => {
    const failed = await run('npm', ['run', '--silent', 'lab', '--', 'report', 'not-an-id'], {
      env: { ...process.env, ...ports, LAB_DATA_DIR: dataDir },
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('not an appointment id') });
  });

  it('stops every part on Ctrl-C, leaving no DynamoDB Local process and no open port behind', async () => {
    await interrupt(first);
    expect(await portOpen(ports.PORT)).toBe(false);
    expect(await portOpen(ports.DYNAMODB_PORT)).toBe(false);
    expect(await portOpen(ports.S3_PORT)).toBe(false);
    expect(javaProcessesOnPort(ports.DYNAMODB_PORT)).toEqual([]);
  });

  it("prints a generated dev key when DEV_API_KEY is not set, in the ready line's curl too, and keeps the data of the last run", async () => {
    second = await startStack({ DEV_API_KEY: '' });
    const generated = /Dev API key \(shown once\): (\S+)/.exec(second.output())?.[1] as string;
    expect(generated).toMatch(/^lab_/);
    expect(second.output()).toContain(`try: curl -H "x-api-key: ${generated}" ${second.baseUrl}/api/v1/locations\n`);
    const read = await call(second, 'GET', `/api/v1/profiles/${profileId}`, generated);
    expect(read.status).toBe(200);
    expect(read.body.first_name).toBe('Ada');
    // Without --verbose: one short line per request, no function's JSON request line.
    const deadline = Date.now() + 5000; // the line travels through a pipe after the answer
    while (!second.output().includes(`200 GET /api/v1/profiles/${profileId} `) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(second.output()).toMatch(new RegExp(`\\n200 GET /api/v1/profiles/${profileId} \\d+ ms\\n`));
    expect(second.output()).not.toContain('"message":"request"');
    await interrupt(second);
    expect(javaProcessesOnPort(ports.DYNAMODB_PORT)).toEqual([]);
  });
});
