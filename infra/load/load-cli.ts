/**
 * `npm run load`: partners' mixed traffic against the local stack for a while, the invariants checked afterwards,
 * and the figures per route class printed and written to load/results.json (issue #54; infra/load/README.md).
 *
 *   npm run load                               # 120 s at 20 requests/s against a stack of its own
 *   npm run load -- --faults                   # DynamoDB Local, the S3 emulator and the webhook receivers taken away mid-run
 *   npm run load -- --duration 600             # the soak: the server's memory and p99, first minute against last
 *   npm run load -- --base http://127.0.0.1:3000 --key <key>   # a running stack (API invariants only)
 *
 * Exit code 0 when every invariant held, 1 when one broke, 2 for a usage error.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { asUsage, runCli, UsageError } from '../cli/usage';
import { type LoadResult, runLoad } from './run';

const USAGE = `usage: npm run load -- [--duration <seconds, 120>] [--rate <requests/s, 20>] [--partners <n, 4>] [--faults]
                      [--base <url> --key <api key>] [--out <file, load/results.json>] [--data-dir <folder, load/data>]`;

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} takes a positive number: ${value}`);
  return n;
}

function print(result: LoadResult): void {
  const rows = Object.entries(result.classes).map(([cls, f]) => [
    cls,
    String(f.requests),
    f.throughput.toFixed(1),
    f.p50.toFixed(1),
    f.p95.toFixed(1),
    f.p99.toFixed(1),
    Object.entries(f.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' '),
  ]);
  const header = ['route class', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'statuses'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${line(header)}`);
  for (const row of rows) console.log(line(row));
  const g = result.generator;
  console.log(`\ngenerator: ${g.started} started on schedule, ${g.dropped} dropped, at most ${g.maxInFlight} in flight`);
  for (const o of result.outages) console.log(`outage: ${o.part} ${(o.from / 1000).toFixed(1)}–${(o.to / 1000).toFixed(1)} s`);
  if (result.outages.length > 0) {
    const d = result.duringOutage;
    console.log(`during the DynamoDB and S3 outages: ${d.requests} requests, ${d.unavailable} answered 503 with Retry-After, slowest ${d.maxMs} ms`);
    console.log(
      `  slowest: ${d.slowest
        .slice(0, 3)
        .map((x) => `${x.cls} ${x.status} at ${x.atS} s in ${x.ms} ms`)
        .join('; ')}`,
    );
  }
  const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
  const { afterFirstMinute: first, atEnd: end } = result.memory;
  if (first) console.log(`server memory after 1 minute: RSS ${mb(first.rss)}, heap ${mb(first.heapUsed)} (after a GC)`);
  if (end) console.log(`server memory at the end:      RSS ${mb(end.rss)}, heap ${mb(end.heapUsed)} (after a GC)`);
  if (result.soak)
    console.log(
      `soak: p99 first minute ${result.soak.firstMinuteP99} ms, last minute ${result.soak.lastMinuteP99} ms (${result.soak.p99Ratio}x); RSS ${result.soak.rssRatio}x, heap ${result.soak.heapRatio}x`,
    );
  console.log(
    `counts: ${Object.entries(result.counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  for (const [name, violations] of Object.entries(result.invariants)) {
    console.log(`${violations.length === 0 ? 'ok  ' : 'FAIL'} ${name}${violations.length ? `: ${violations.slice(0, 10).join('; ')}` : ''}`);
  }
}

runCli('load', USAGE, async () => {
  const { values } = asUsage(() =>
    parseArgs({
      options: {
        duration: { type: 'string' },
        rate: { type: 'string' },
        partners: { type: 'string' },
        faults: { type: 'boolean', default: false },
        base: { type: 'string' },
        key: { type: 'string' },
        out: { type: 'string' },
        'data-dir': { type: 'string' },
      },
    }),
  );
  if (values.base && !values.key) throw new UsageError('--base needs --key, a key of that stack with every scope');
  if (values.base && values.faults) throw new UsageError("--faults needs the run's own stack (it stops its emulators): leave out --base");
  const out = resolve(values.out ?? 'load/results.json');
  const result = await runLoad({
    durationMs: positive('duration', values.duration, 120) * 1000,
    rate: positive('rate', values.rate, 20),
    partners: Math.round(positive('partners', values.partners, 4)),
    faults: values.faults,
    base: values.base,
    key: values.key,
    dataDir: resolve(values['data-dir'] ?? 'load/data'),
    log: (line) => console.log(line),
  });
  print(result);
  mkdirSync(resolve(out, '..'), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwritten: ${out}`);
  process.exit(result.ok ? 0 : 1);
});
