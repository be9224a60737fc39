/**
 * The critical results check (issue #29): critical values no clinician acknowledged within the stage's
 * criticalAckMinutes are counted every 5 minutes, and the prod alarm watches that count (test/infra).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CRITICAL_UNACKNOWLEDGED_LOG } from '../../shared/domain/results';
import { overdueCriticalResults } from '../../shared/usecases/overdue-critical-results';
import { useApi } from '../support/api';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData } from '../support/fixtures';
import { clinical, deliver, report } from '../support/lab';
import { captureLogs } from '../support/log-capture';
import { confirmDraw, scheduleAppointment } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;
const ACK_MINUTES = 60;
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

/** A drawn appointment whose haemoglobin (2) came back at `value` g/dL (critical above 20). */
async function resultedAppointment(value: number): Promise<string> {
  const id = await scheduleAppointment(api, key);
  await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [2] }, key);
  await confirmDraw(api, key, id);
  await deliver(report(id, { clinical_results: [{ ...clinical(2, value), result_status: 'final' }] }));
  return id;
}
const acknowledge = (id: string) => api.post(`/api/v1/appointments/${id}/results/acknowledge`, undefined, key);
const overdueIds = async (at: Date) => (await overdueCriticalResults(at, ACK_MINUTES)).map((waiting) => waiting.appointment_id);

describe('the critical results check', () => {
  it('counts a critical value nobody acknowledged within the time allowed', async () => {
    const id = await resultedAppointment(25);
    expect(await overdueIds(minutesFromNow(ACK_MINUTES + 1))).toContain(id);
  });

  it('does not count a critical value still inside the time allowed', async () => {
    const id = await resultedAppointment(25);
    expect(await overdueIds(minutesFromNow(ACK_MINUTES - 1))).not.toContain(id);
  });

  it('does not count results without a critical value', async () => {
    const id = await resultedAppointment(14);
    expect(await overdueIds(minutesFromNow(ACK_MINUTES * 10))).not.toContain(id);
  });

  it('stops counting critical values once acknowledged', async () => {
    const id = await resultedAppointment(25);
    expect((await acknowledge(id)).status).toBe(200);
    expect(await overdueIds(minutesFromNow(ACK_MINUTES * 10))).not.toContain(id);
  });

  it('counts again when a new critical value arrives after the acknowledgement', async () => {
    const id = await resultedAppointment(25);
    await acknowledge(id);
    await deliver(report(id, { clinical_results: [{ ...clinical(2, 27), result_status: 'corrected' }] }));
    expect(await overdueIds(minutesFromNow(ACK_MINUTES + 1))).toContain(id);
  });

  it('measures the wait from the oldest unacknowledged critical value, however many arrive after it', async () => {
    const id = await resultedAppointment(25);
    const first = (await api.get(`/api/v1/appointments/${id}/results`, key)).body.critical.reported_at as string;
    await deliver(report(id, { clinical_results: [{ ...clinical(2, 27), result_status: 'corrected' }] }));
    await deliver(report(id, { clinical_results: [{ ...clinical(2, 28), result_status: 'corrected' }] }));
    const overdue = await overdueCriticalResults(minutesFromNow(ACK_MINUTES + 1), ACK_MINUTES);
    expect(overdue.find((waiting) => waiting.appointment_id === id)?.waiting_since).toBe(first);
  });
});

describe('the critical results check function', () => {
  const level = process.env.POWERTOOLS_LOG_LEVEL;
  afterEach(() => {
    delete process.env.LAB_CLOCK;
    process.env.POWERTOOLS_LOG_LEVEL = level;
    vi.resetModules();
  });

  it('logs how many appointments wait too long and which, never a value', async () => {
    const id = await resultedAppointment(23.7);
    // Its clock two hours ahead, at the deployed log level: shared/config.ts and shared/logger.ts read
    // LAB_CLOCK and POWERTOOLS_LOG_LEVEL when the handler's modules load again.
    process.env.LAB_CLOCK = minutesFromNow(120).toISOString();
    process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
    vi.resetModules();
    const { handler } = await import('../../functions/events/critical-results-check');
    const logs = captureLogs();
    let answer: { unacknowledged: number };
    try {
      answer = await handler();
    } finally {
      logs.stop();
    }
    const line = logs
      .lines()
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.message === CRITICAL_UNACKNOWLEDGED_LOG);
    expect(line).toMatchObject({ count: answer.unacknowledged, ack_minutes: ACK_MINUTES, oldest_waiting_since: expect.any(String) });
    expect(line!.appointment_ids).toContain(id);
    expect(JSON.stringify(line)).not.toContain('23.7');
  });
});
