/**
 * The load's clock and its record. Open model: request n is due at start + n / rate whatever happened to the
 * requests before it, as partners' traffic arrives whatever our latency; a timer fires for the next due time
 * and starts every request already due (a late timer starts the overdue ones at once, and their latency is
 * counted from when they were due, so a stalled server is not hidden: no coordinated omission). autocannon is
 * not used: each of its connections sends its next request only when the previous one is answered (a closed
 * model — a slow server slows the load), and its rate option caps that loop rather than scheduling arrivals;
 * a mixed scenario whose next request depends on earlier answers fits neither. The record keeps every
 * request's class, status, latency and start, for the tables, the fault windows and the soak's minutes.
 */

export interface Sample {
  /** The route class, e.g. `POST /appointments`. */
  cls: string;
  /** HTTP status, or `timeout` (no answer within the client's limit) or `error` (a failure of the connection or the call). */
  status: number | 'timeout' | 'error';
  /** From when it was due to its answer's end. */
  ms: number;
  /** When it was due, ms from the start of the run. */
  at: number;
  /** A 503 carried Retry-After. */
  retryAfter?: boolean;
}

export class LoadRecord {
  readonly samples: Sample[] = [];
  readonly t0 = performance.now();
  add(sample: Sample): void {
    this.samples.push(sample);
  }
  /** ms since the run's start. */
  now(): number {
    return performance.now() - this.t0;
  }
}

/**
 * Starts `launch(dueAt)` `rate` times a second for `durationMs`, not waiting for any of them; resolves when
 * the last has been started and every started one has settled. At most `maxInFlight` run at once: one due
 * beyond that is counted as dropped (the generator's own limit, reported, never silently slowed down).
 */
export async function runOpenModel(options: {
  rate: number;
  durationMs: number;
  record: LoadRecord;
  launch: (dueAt: number) => Promise<void>;
  maxInFlight?: number;
}): Promise<{ started: number; dropped: number; maxInFlight: number }> {
  const { rate, durationMs, record, launch, maxInFlight = 2_000 } = options;
  const interval = 1_000 / rate;
  const total = Math.floor((durationMs / 1_000) * rate);
  const inFlight = new Set<Promise<void>>();
  let started = 0;
  let dropped = 0;
  let peak = 0;
  const begin = record.now();
  while (started + dropped < total) {
    const due = begin + (started + dropped) * interval;
    const wait = due - record.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    // Every request due by now.
    while (started + dropped < total && begin + (started + dropped) * interval <= record.now()) {
      const dueAt = begin + (started + dropped) * interval;
      if (inFlight.size >= maxInFlight) {
        dropped++;
        continue;
      }
      const running: Promise<void> = launch(dueAt)
        .catch(() => undefined)
        .finally(() => inFlight.delete(running));
      inFlight.add(running);
      started++;
      peak = Math.max(peak, inFlight.size);
    }
  }
  await Promise.all(inFlight);
  return { started, dropped, maxInFlight: peak };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface ClassFigures {
  requests: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  statuses: { [status: string]: number };
}

/** Per route class (and `all`): requests, requests per second over `seconds`, latency percentiles (ms), statuses. */
export function figures(samples: Sample[], seconds: number): { [cls: string]: ClassFigures } {
  const groups = new Map<string, Sample[]>([['all', samples]]);
  for (const sample of samples) {
    const group = groups.get(sample.cls);
    if (group) group.push(sample);
    else groups.set(sample.cls, [sample]);
  }
  const out: { [cls: string]: ClassFigures } = {};
  for (const [cls, group] of [...groups].sort(([a], [b]) => (a === 'all' ? 1 : b === 'all' ? -1 : a.localeCompare(b)))) {
    const sorted = group.map((s) => s.ms).sort((a, b) => a - b);
    const statuses: { [status: string]: number } = {};
    for (const s of group) statuses[String(s.status)] = (statuses[String(s.status)] ?? 0) + 1;
    const round = (n: number) => Math.round(n * 10) / 10;
    out[cls] = {
      requests: group.length,
      throughput: round(group.length / seconds),
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? 0),
      statuses,
    };
  }
  return out;
}
