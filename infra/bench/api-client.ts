import { randomUUID } from 'node:crypto';

/** The bench's HTTP caller of the in-process local server: JSON (or a form) in, JSON out, a failure for any 4xx or 5xx. */
export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined for a body that is not JSON (a PDF, a docs page). */
  json: unknown;
  bytes: number;
}

export type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

export function apiCaller(baseUrl: string, key: string): Call {
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      redirect: 'manual',
      // A request that hangs fails the bench with its route named, rather than stalling it.
      signal: AbortSignal.timeout(60_000),
      // A form (the unsubscribe link's one-click POST) goes as fetch encodes it, with its own content type.
      headers: { 'x-api-key': key, ...(body === undefined || body instanceof URLSearchParams ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : body instanceof URLSearchParams ? body : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    let json: unknown;
    if ((res.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(bytes.toString('utf8'));
    if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${bytes.toString('utf8').slice(0, 200)}`);
    return { status: res.status, headers: res.headers, json, bytes: bytes.length };
  };
}

/** The id of a created resource. */
export const idOf = (answer: Answer): string => (answer.json as { id: string }).id;

/** A weekday at least two days ahead: always a valid pickup date, whatever the hour in Berlin. */
export function nextWeekday(): string {
  const day = new Date(Date.now() + 2 * 86_400_000);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

export { BERLIN_MITTE } from '../local/slot-picker';
export const ESSENTIALS_PANEL = '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b01'; // biomarkers 1, 2, 5, 6
/** A panel a home kit can take (saliva; issue #50): the Essentials hold venous tests. */
export const CARDIOGENETICS_PANEL = '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b04'; // biomarkers 100, 102

/** The lab's report of the 4 tests of the essentials panel, each 4.2 mmol/L, with these documents. */
export const labReport = (appointmentId: string, documents: { s3_key: string; file_name: string; content_type: 'application/pdf' }[] = []) => ({
  event_id: randomUUID(),
  appointment_id: appointmentId,
  reported_at: new Date().toISOString(),
  clinical_results: [1, 2, 5, 6].map((biomarker_id) => ({
    biomarker_id,
    value: 4.2,
    value_operator: 'eq' as const,
    unit_id: 1,
    unit: 'mmol/L',
    reference_range_lab: { normal_min: 1, normal_max: 10, optimal_min: null, optimal_max: null },
    tested_at: '2026-11-20',
    comment: null,
    result_status: 'final' as const,
    interpretation: null,
  })),
  genetic_results: [],
  documents,
});
