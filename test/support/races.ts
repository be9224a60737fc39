/**
 * What the race suites (test/integration/races-*.test.ts) share: firing N conflicting requests at once,
 * counting their answers, and reading back what they left — the status history, the status-change
 * events put on the (mocked) bus, and items straight from the table.
 */
import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { expect } from 'vitest';
import type { ApiResponse, TestApi } from './api';

/** Requests per race; RACE_PARALLEL overrides it (the README's proofs are stated for the default 20). */
export const N = Number(process.env.RACE_PARALLEL ?? 20);

/** `n` requests started together, answered in request order. */
export const race = (n: number, request: (i: number) => Promise<ApiResponse>): Promise<ApiResponse[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => request(i)));

/** How many answers had each status, e.g. `{ 200: 1, 409: 19 }`. */
export function tally(responses: ApiResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Every refusal among them is exactly `{ error: string }` (no 5xx passes this: it is not in `allowed`). */
export function expectOnly(responses: ApiResponse[], allowed: number[]): void {
  expect(responses.map((r) => r.status).filter((s) => !allowed.includes(s))).toEqual([]);
  for (const r of responses.filter((x) => x.status >= 400)) {
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(typeof r.body.error).toBe('string');
  }
}

export const indexesOf = (responses: ApiResponse[], status: number) => responses.flatMap((r, i) => (r.status === status ? [i] : []));

/** A resource's history as from→to moves, oldest first (∅ for its creation). */
export async function historyMoves(api: TestApi, key: string, path: string): Promise<string[]> {
  const res = await api.get(`/api/v1/${path}/history?limit=100`, key);
  expect(res.status).toBe(200);
  return (res.body as { from_status: string | null; status: string }[]).map((e) => `${e.from_status ?? '∅'}→${e.status}`);
}

export async function historyEntries(api: TestApi, key: string, path: string) {
  const res = await api.get(`/api/v1/${path}/history?limit=100`, key);
  expect(res.status).toBe(200);
  return res.body as { from_status: string | null; status: string; reason: string | null; actor: string | null }[];
}

/** The details of the entries of one detail-type that name `id` in `idField`. */
export function eventDetails(entries: PutEventsRequestEntry[], detailType: string, idField: string, id: string): Record<string, unknown>[] {
  return entries
    .filter((e) => e.DetailType === detailType)
    .map((e) => JSON.parse(e.Detail as string) as Record<string, unknown>)
    .filter((detail) => detail[idField] === id);
}

/** The status-change events of one resource as from→to moves, in the order they were put. */
export const eventMoves = (entries: PutEventsRequestEntry[], detailType: string, idField: string, id: string): string[] =>
  eventDetails(entries, detailType, idField, id).map((d) => `${(d.from_status as string | null) ?? '∅'}→${d.status as string}`);

/** Items of the table that match a filter: the one scanner (test/support/table.ts). */
export { scanItems } from './table';

export const IN_PROGRESS = { error: 'A request with this Idempotency-Key is still in progress; retry it shortly' };
export const REUSED = { error: 'This Idempotency-Key was already used for a different request' };

/** The answers of a race on one Idempotency-Key: 201s that all name one id (one create, the rest replays), or 409 in progress. */
export function expectOneCreated(results: ApiResponse[]): string {
  expectOnly(results, [201, 409]);
  for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual(IN_PROGRESS);
  const created = results.filter((r) => r.status === 201);
  expect(created.length).toBeGreaterThan(0);
  expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
  expect(created.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
  return created[0]?.body.id as string;
}
