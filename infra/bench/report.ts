/**
 * What `npm run bench` reports: every figure with its target and whether it met it, printed as one table
 * beside the previous committed run's figure, and written to bench/results.json with the machine, the date
 * and the commit. The file is committed: the run a change was measured with is in its commit, and the next
 * run prints it beside its own, so a regression shows in review (issue #33).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Target {
  /** `max`: the figure must not exceed the limit; `min`: it must reach it. */
  kind: 'min' | 'max';
  limit: number;
}

export interface Figure {
  /** Which measurement it belongs to: throughput, handler-cpu, round-trips, bundles, latency, input-cost. */
  section: string;
  name: string;
  value: number;
  unit: string;
  target?: Target;
  /** What the figure means or how it was counted, one line. */
  note?: string;
  /** Printed in a table of its own (latency, per route), not in the figures table; written to results.json all the same. */
  hidden?: boolean;
}

export const meets = (figure: Figure): boolean | undefined =>
  figure.target === undefined ? undefined : figure.target.kind === 'min' ? figure.value >= figure.target.limit : figure.value <= figure.target.limit;

const targetText = (target: Target | undefined) => (target === undefined ? '' : `${target.kind === 'min' ? '≥' : '≤'} ${target.limit}`);

const formatValue = (figure: Figure) => {
  const digits = Math.abs(figure.value) >= 100 ? 0 : Math.abs(figure.value) >= 10 ? 1 : 2;
  return `${figure.value.toFixed(digits)}${figure.unit === '×' ? '×' : figure.unit ? ` ${figure.unit}` : ''}`;
};

function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repositoryRoot, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: repositoryRoot, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

/** The machine as the figures depend on it; the load average says how busy it was (other work on it). */
export function machine() {
  const cores = cpus();
  return {
    cpu: cores[0]?.model ?? 'unknown',
    cores: cores.length,
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    free_memory_gb: Math.round((freemem() / 2 ** 30) * 10) / 10,
    load_average_1_5_15: loadavg().map((load) => Math.round(load * 100) / 100),
    platform: `${platform()} ${release()}`,
    node: process.version,
  };
}

/** The run committed in bench/results.json at HEAD, if any: what this run is compared with. */
export interface PreviousRun {
  date: string;
  git_commit: string;
  figures: readonly Figure[];
}

export function previousRun(): PreviousRun | undefined {
  try {
    const committed = execFileSync('git', ['show', `HEAD:${RESULTS_FILE}`], { cwd: repositoryRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return JSON.parse(committed) as PreviousRun;
  } catch {
    return undefined;
  }
}

/**
 * A figure's identity across runs: its name within its kind of measurement. A section's title also says
 * the run's settings (`8 at a time, 5 rounds × 400`): only what comes before its first comma or colon counts.
 */
const figureKey = (figure: Pick<Figure, 'section' | 'name'>) => `${figure.section.split(/[,:]/)[0]} / ${figure.name}`;

/**
 * Prints the figures as one table, section by section, each beside the previous committed run's value of
 * the same figure. Returns how many targets were missed.
 */
export function printFigures(figures: readonly Figure[], previous?: PreviousRun): number {
  const before = new Map((previous?.figures ?? []).map((figure) => [figureKey(figure), figure]));
  if (previous) console.log(`\nprevious: the committed run of ${previous.date} (${previous.git_commit.slice(0, 12)})`);
  const width = Math.max(40, ...figures.map((figure) => figure.name.length));
  let section = '';
  let missed = 0;
  for (const figure of figures) {
    if (figure.hidden) {
      if (meets(figure) === false) missed += 1;
      continue;
    }
    if (figure.section !== section) {
      section = figure.section;
      console.log(`\n${section}`);
      console.log('  ' + 'figure'.padEnd(width), 'value'.padStart(12), 'previous'.padStart(12), 'target'.padStart(8), '');
    }
    const met = meets(figure);
    if (met === false) missed += 1;
    const verdict = met === undefined ? '' : met ? 'pass' : 'MISS';
    const earlier = before.get(figureKey(figure));
    console.log(
      '  ' + figure.name.padEnd(width),
      formatValue(figure).padStart(12),
      (earlier ? formatValue(earlier) : '—').padStart(12),
      targetText(figure.target).padStart(8),
      verdict,
    );
  }
  return missed;
}

export interface Results {
  settings: Record<string, number | string>;
  figures: readonly Figure[];
  /** Anything measured beside the figures (the confirm's calls in order, a route that could not be measured). */
  notes: Record<string, unknown>;
  startedAt: Date;
  /** The load average when the run began (the one in `machine` is taken at its end). */
  loadAtStart: number[];
}

const RESULTS_FILE = 'bench/results.json';

/** Writes bench/results.json at the repository root (commit it with the change it measured); returns its path. */
export function writeResults(results: Results): string {
  const file = join(repositoryRoot, RESULTS_FILE);
  mkdirSync(dirname(file), { recursive: true });
  const body = {
    date: results.startedAt.toISOString(),
    duration_s: Math.round((Date.now() - results.startedAt.getTime()) / 100) / 10,
    git_commit: gitCommit(),
    machine: { ...machine(), load_average_at_start: results.loadAtStart.map((load) => Math.round(load * 100) / 100) },
    settings: results.settings,
    figures: results.figures.map((figure) => ({ ...figure, pass: meets(figure) ?? null })),
    notes: results.notes,
  };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
