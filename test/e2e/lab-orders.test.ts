/**
 * The lab order over MLLP against `npm start` (issue #51), as a developer tries it: a confirmed draw's order
 * reaches the simulated lab (read back with `npm run lab -- orders --json` and @medplum/core's Hl7Message),
 * `npm run lab -- refuse-next` makes the next one refused with its text, and a lab down for a minute gets
 * the order once it is back, once.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Hl7Message } from '@medplum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/free-port';
import { startTestLab, type TestLab } from '../support/hl7-lab';
import { interrupt, type NpmStart, npmStart } from '../support/npm-start';
import { slotIn } from '../support/slots';

const run = promisify(execFile);
const BERLIN_MITTE = '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01';
const ESSENTIALS_PANEL = '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b01';
const KEY = 'lab_e2e_lab_orders';
const dataDirs: string[] = [];

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function startStack(env: Record<string, string> = {}): Promise<{ stack: NpmStart; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lab-orders-e2e-'));
  dataDirs.push(dataDir);
  const ports = { PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), S3_PORT: String(await freePort()) };
  const stack = await npmStart({ ...ports, LAB_MLLP_PORT: String(await freePort()), LAB_DATA_DIR: dataDir, DEV_API_KEY: KEY, ...env });
  return { stack, dataDir };
}

async function call(stack: NpmStart, method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A draw of the essentials panel confirmed with `barcode`: the appointment id. */
async function confirmedDraw(stack: NpmStart, barcode: string): Promise<string> {
  const profile = await call(stack, 'POST', '/api/v1/profiles', {
    profile_group_slug: 'demo-clinic',
    first_name: 'Zoë',
    last_name: 'Müller',
    date_of_birth: '1984-08-12',
  });
  const booked = await call(stack, 'POST', '/api/v1/appointments', { profile_id: profile.body.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(1) });
  expect((await call(stack, 'POST', `/api/v1/appointments/${booked.body.id}/panels`, { panel_ids: [ESSENTIALS_PANEL] })).status).toBe(200);
  expect((await call(stack, 'POST', `/api/v1/appointments/${booked.body.id}/confirm`, { barcode })).status).toBe(200);
  return booked.body.id as string;
}

/** The appointment's lab_order once its status is no longer pending (or null), waiting at most `ms`. */
async function answeredLabOrder(stack: NpmStart, id: string, ms = 10_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { body } = await call(stack, 'GET', `/api/v1/appointments/${id}`);
    if (body.lab_order && body.lab_order.status !== 'pending') return body.lab_order;
    if (Date.now() > deadline) throw new Error(`lab_order still ${JSON.stringify(body.lab_order)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const lab = (dataDir: string, ...args: string[]) => run('npm', ['run', '--silent', 'lab', '--', ...args], { env: { ...process.env, LAB_DATA_DIR: dataDir } });

describe('lab orders with the simulated lab of npm start', () => {
  let stack: NpmStart;
  let dataDir: string;

  beforeAll(async () => {
    ({ stack, dataDir } = await startStack());
  });
  afterAll(async () => {
    if (stack) await interrupt(stack);
  });

  it('delivers one order message per confirmed draw, with its requisition, barcode and every LOINC code, and shows it accepted', async () => {
    const id = await confirmedDraw(stack, 'E2E-ORDER-0001');
    const labOrder = await answeredLabOrder(stack, id);
    const { body: appointment } = await call(stack, 'GET', `/api/v1/appointments/${id}`);
    const { body: biomarkers } = await call(stack, 'GET', '/api/v1/biomarkers');
    const panelLoincs = [1, 2, 5, 6].map((biomarkerId) => biomarkers.find((b: { id: number }) => b.id === biomarkerId).loinc as string);

    const { stdout } = await lab(dataDir, 'orders', '--json');
    const received = (JSON.parse(stdout) as { received_at: string; control_id: string; message: string }[]).filter(
      (order) => order.control_id === labOrder.message_control_id,
    );
    expect(received).toHaveLength(1);
    const message = Hl7Message.parse(received[0]!.message);
    expect(message.getSegment('MSH')!.getField(9).toString()).toBe('OML^O21^OML_O21');
    expect(message.getSegment('PID')!.getField(5).toString()).toBe('Müller^Zoë');
    expect(message.getAllSegments('ORC').map((orc) => [orc.getComponent(2, 1), orc.getComponent(4, 1)])).toEqual(
      panelLoincs.map(() => ['E2E-ORDER-0001', appointment.requisition.number]),
    );
    expect(message.getAllSegments('OBR').map((obr) => obr.getComponent(4, 1))).toEqual(panelLoincs);
    expect(labOrder).toEqual({
      status: 'accepted',
      message_control_id: appointment.requisition.number.replaceAll('-', ''),
      acknowledged_at: expect.any(String),
      error: null,
    });
  });

  it("shows the next order refused with the lab's text after npm run lab -- refuse-next", async () => {
    await lab(dataDir, 'refuse-next', '--text', 'Unknown test code 9999-9 | please call');
    const id = await confirmedDraw(stack, 'E2E-ORDER-0002');

    expect(await answeredLabOrder(stack, id)).toMatchObject({ status: 'refused', error: 'Unknown test code 9999-9 | please call' });
    // Once: the order after it is accepted again.
    expect(await answeredLabOrder(stack, await confirmedDraw(stack, 'E2E-ORDER-0003'))).toMatchObject({ status: 'accepted' });
  });

  it('lists the messages received, newest first, one line each', async () => {
    const { stdout } = await lab(dataDir, 'orders');
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('barcode E2E-ORDER-0003');
    expect(lines[2]).toContain('barcode E2E-ORDER-0001');
  });
});

describe('lab orders while the lab is down', () => {
  let stack: NpmStart;
  let labPort: number;
  let theLab: TestLab | undefined;

  beforeAll(async () => {
    labPort = await freePort();
    // The lab's engine on this machine (LAB_MLLP_HOST), not running yet; the schedule compressed 100-fold (0.3 s, 0.6 s, … 9 s).
    ({ stack } = await startStack({ LAB_MLLP_HOST: '127.0.0.1', LAB_MLLP_PORT: String(labPort), LAB_ORDER_RETRY_SCALE: '0.01' }));
  });
  afterAll(async () => {
    await theLab?.stop();
    if (stack) await interrupt(stack);
  });

  it('delivers the order once the lab is back a minute later, once, and shows it accepted', { timeout: 180_000 }, async () => {
    const id = await confirmedDraw(stack, 'E2E-ORDER-0004');
    await new Promise((r) => setTimeout(r, 60_000));
    const { body: waiting } = await call(stack, 'GET', `/api/v1/appointments/${id}`);
    expect(waiting.lab_order).toMatchObject({ status: 'pending', error: 'connection failed (ECONNREFUSED)' });

    theLab = await startTestLab(undefined, labPort);
    const labOrder = await answeredLabOrder(stack, id, 30_000);

    expect(labOrder).toMatchObject({ status: 'accepted', error: null });
    expect(theLab.controlIds()).toEqual([labOrder.message_control_id]);
  });
});
