/**
 * Latency and throughput of the main routes through the in-process local server: p50, p95, req/s and
 * DynamoDB calls per request. The milliseconds are DynamoDB Local's and this machine's; compare runs on one
 * machine only. Requests that change state get their own resources, made before the clock starts.
 */
import { type Answer, BERLIN_MITTE, type Call, ESSENTIALS_PANEL, idOf, labReport, nextWeekday } from './api-client';
import type { Figure } from './report';
import { createSlotPicker } from '../local/slot-picker';

export interface LatencySettings {
  requests: number;
  concurrency: number;
  /** Drawn appointments of the person whose export is measured. */
  exportedAppointments: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Scenario {
  name: string;
  /** Fewer requests, or fewer at a time, than the other routes: for a route that is itself many reads. */
  requests?: number;
  concurrency?: number;
  prepare?: () => Promise<string[]>;
  run: (input: string | undefined) => Promise<unknown>;
}

export async function measureLatency(call: Call, roundTrips: { reset(): void; count(): number }, settings: LatencySettings): Promise<Figure[]> {
  const { requests: REQUESTS, concurrency: CONCURRENCY, exportedAppointments } = settings;
  const profile = { profile_group_slug: 'demo-clinic', first_name: 'Bench', last_name: 'Mark', date_of_birth: '1980-01-01' };
  const id = idOf(await call('POST', '/api/v1/profiles', profile));

  let barcodes = 0;
  const slotIn = createSlotPicker();
  // Each its own person by default: one person's bookings serialise (shared/usecases/slot-booking.ts), and
  // these are booked in parallel.
  const scheduleAppointment = async (drawn: boolean, profileId?: string) => {
    const appointment = idOf(
      await call('POST', '/api/v1/appointments', {
        profile_id: profileId ?? idOf(await call('POST', '/api/v1/profiles', profile)),
        location_id: BERLIN_MITTE,
        scheduled_at: slotIn(1),
      }),
    );
    await call('POST', `/api/v1/appointments/${appointment}/panels`, { panel_ids: [ESSENTIALS_PANEL] });
    if (drawn) await call('POST', `/api/v1/appointments/${appointment}/confirm`, { barcode: `BENCH-L-${(barcodes += 1)}` });
    return appointment;
  };
  const appointments = (drawn: boolean) => () => Promise.all(Array.from({ length: REQUESTS + 1 }, () => scheduleAppointment(drawn)));

  /** A person with `exportedAppointments` drawn appointments, each with the lab's results for its 4 tests. */
  const { ingestLabReport } = await import('../../shared/usecases/ingest-lab-report');
  const personWithAppointments = async () => {
    const person = idOf(await call('POST', '/api/v1/profiles', profile));
    // Booked one after the other: one person's bookings serialise (each checks the others for overlap).
    const appointmentIds: string[] = [];
    for (let i = 0; i < exportedAppointments; i += 1) appointmentIds.push(await scheduleAppointment(true, person));
    await Promise.all(appointmentIds.map((appointmentId) => ingestLabReport(labReport(appointmentId), new Date())));
    return [person];
  };

  const scenarios: Scenario[] = [
    { name: 'GET /locations', run: () => call('GET', '/api/v1/locations') },
    { name: 'POST /profiles', run: () => call('POST', '/api/v1/profiles', profile) },
    { name: 'GET /profiles/{id}', run: () => call('GET', `/api/v1/profiles/${id}`) },
    { name: 'PATCH /profiles/{id}', run: () => call('PATCH', `/api/v1/profiles/${id}`, { language: 'de' }) },
    { name: 'GET /biomarkers', run: () => call('GET', '/api/v1/biomarkers') },
    {
      name: 'POST /shipments',
      run: () =>
        call('POST', '/api/v1/shipments', { location_id: BERLIN_MITTE, pickup_date: nextWeekday(), pickup_time_from: '10:00', pickup_time_till: '12:00' }),
    },
    { name: 'GET /shipments (2 groups)', run: () => call('GET', '/api/v1/shipments') },
    {
      name: 'GET /appointments/{id}/results',
      prepare: async () => [await scheduleAppointment(true)],
      run: (appointmentId) => call('GET', `/api/v1/appointments/${appointmentId}/results`),
    },
    {
      name: 'GET /appointments/{id}',
      prepare: async () => [await scheduleAppointment(false)],
      run: (appointmentId) => call('GET', `/api/v1/appointments/${appointmentId}`),
    },
    {
      name: 'POST /appointments/{id}/confirm',
      prepare: appointments(false),
      run: (appointmentId) => call('POST', `/api/v1/appointments/${appointmentId}/confirm`, { barcode: `BENCH-L-${(barcodes += 1)}` }),
    },
    {
      name: 'POST /appointments/pickup (1 id)',
      prepare: appointments(true),
      run: (appointmentId) => call('POST', '/api/v1/appointments/pickup', { appointment_ids: [appointmentId] }),
    },
    {
      name: `GET /profiles/{id}/export (${exportedAppointments} appointments)`,
      requests: 20,
      concurrency: 1,
      prepare: personWithAppointments,
      run: (profileId) => call('GET', `/api/v1/profiles/${profileId}/export`),
    },
  ];

  const figures: Figure[] = [];
  const section = `latency through the in-process local server: ${REQUESTS} requests per route, ${CONCURRENCY} at a time (milliseconds are this machine's)`;
  console.log(`\n${section}`);
  console.log('  ' + 'route'.padEnd(44), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'req/s'.padStart(7), 'DDB calls'.padStart(10));
  for (const scenario of scenarios) {
    const inputs = (await scenario.prepare?.()) ?? [];
    const requests = scenario.requests ?? REQUESTS;
    const input = (i: number) => inputs[inputs.length === 1 ? 0 : i];
    await scenario.run(input(requests)); // warm the handler module and the key cache
    roundTrips.reset();
    const durations: number[] = [];
    let bytes = 0;
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: scenario.concurrency ?? CONCURRENCY }, async () => {
        while (next < requests) {
          const i = next;
          next += 1;
          const t0 = performance.now();
          bytes = ((await scenario.run(input(i))) as Answer).bytes;
          durations.push(performance.now() - t0);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    durations.sort((a, b) => a - b);
    figures.push(
      { section, name: `${scenario.name} p50`, value: percentile(durations, 50), unit: 'ms', hidden: true },
      { section, name: `${scenario.name} p95`, value: percentile(durations, 95), unit: 'ms', hidden: true },
      { section, name: `${scenario.name} req/s`, value: durations.length / elapsed, unit: 'req/s', hidden: true },
      { section, name: `${scenario.name} DynamoDB calls/req`, value: roundTrips.count() / durations.length, unit: '', hidden: true },
    );
    console.log(
      '  ' + scenario.name.padEnd(44),
      percentile(durations, 50).toFixed(1).padStart(8),
      percentile(durations, 95).toFixed(1).padStart(8),
      (durations.length / elapsed).toFixed(0).padStart(7),
      (roundTrips.count() / durations.length).toFixed(2).padStart(10),
    );
    if (scenario.name.includes('export')) {
      figures.push({ section, name: `${scenario.name} size per appointment`, value: bytes / 1024 / exportedAppointments, unit: 'KB', hidden: true });
    }
  }
  return figures;
}
