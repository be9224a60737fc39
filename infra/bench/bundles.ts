/**
 * Bundle size and cold import time of every function the stack deploys, beside the bare handler of the AWS
 * clients it bundles (bench/bundle-floors.ts: one GetItem, JSON back, plus a PutEvents or an S3 GetObject
 * where the function has those clients), as ratios.
 *
 * Each bundle is built with the construct's own esbuild settings (bench/bundle-build.ts: LAMBDA_BUNDLE as
 * NodejsFunction passes it, one `index.mjs` with its source map), with a metafile for the heaviest inputs. A
 * function's side modules (SIDE_MODULES), which it loads only when it needs them, are neither built nor
 * counted: the figures are what a cold start loads. The list of functions comes from the synthesized stack
 * (bundling skipped), not from a list of our own, so a new route or event function is measured with no edit here.
 *
 * Cold import: a fresh `node` (the project's Node 24, as Lambda runs) per sample, which times `import()`
 * of the bundle in the process, in the deployed environment (`--enable-source-maps` included): the CPU time
 * the process spent in it (process.cpuUsage, user + system, every thread) and the wall time
 * (performance.now()). The target is on the CPU time: on a shared machine the wall time mostly measures
 * waiting for a core (near-identical bundles differed by 1.4x under load), while a Lambda's init has its
 * core to itself, so there the two agree. Samples alternate between the functions round by round, each
 * round starting one further on, so load elsewhere hits them all alike; the median of each is reported.
 *
 *   npx tsx infra/bench/bundles.ts                # every function, 20 imports each
 *   BENCH_IMPORT_RUNS=5 BENCH_BUNDLES=health,getProfile npx tsx infra/bench/bundles.ts
 */
import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { LabFunction, REPO_ROOT } from '../api-function';
import type { SideModules } from '../bundling';
import { type BundleInput, buildBundle, inputsByPackage, inScratchDirectory } from './bundle-build';
import { BARE_FLOOR, FLOORS, floorFor } from './bundle-floors';
import { median } from './report';
import { LabApiStack } from '../lab-api-stack';
import { REPORT_RENDERERS } from '../route-classes';

const run = promisify(execFile);

/** Targets of issues #17 and #33: a bundle, and its cold import, at most 1.3 times the bare handler's. */
export const BUNDLE_RATIO_TARGET = 1.3;
export const IMPORT_RATIO_TARGET = 1.3;
/**
 * The results report's own targets (issue #33), for the functions of its class (REPORT_RENDERERS): a PDF
 * writer and a font engine make its bundle a multiple of the bare handler's by nature. Its zipped asset stays
 * at most 3 MB (test/integration/deployable.test.ts), and its cold import at most 3 times the bare one.
 */
export const rendersReport = (name: string): boolean => (REPORT_RENDERERS as readonly string[]).includes(name);
export const REPORT_IMPORT_RATIO_TARGET = 3;

/** The environment of a deployed function, as far as loading its module needs (shared/config.ts); nothing here calls AWS. */
const FUNCTION_ENVIRONMENT = {
  TABLE_NAME: 'lab-table',
  DOCUMENTS_BUCKET: 'lab-documents',
  EVENT_BUS_NAME: 'lab-bus',
  AWS_REGION: 'eu-central-1',
  CURSOR_SECRET: 'bench-cursor-secret-bench-cursor-secret',
  POWERTOOLS_SERVICE_NAME: 'lab-api',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  NODE_OPTIONS: '--enable-source-maps',
};

export interface DeployedFunction {
  /** The route name, or the construct path of a non-HTTP function (e.g. "OutboxRelay"). */
  readonly name: string;
  /** Relative to the repository root. */
  readonly handlerFile: string;
  /** What its bundle imports from beside it (SIDE_MODULES), left out of the bundle as the stack leaves it. */
  readonly sideModules: SideModules;
}

export interface BundleRow {
  readonly name: string;
  readonly handlerFile: string;
  /** Bytes of the minified `index.mjs`, source map excluded. */
  readonly bytes: number;
  /** The bare handler of its AWS clients (bench/bundle-floors.ts) that its ratios are against. */
  readonly floor: string;
  readonly bytesRatio: number;
  /** bytes against the DynamoDB floor's (BARE_FLOOR), whatever its own: no target. */
  readonly bytesRatioBare: number;
  /** Median CPU time of `import()` of the bundle in a fresh process, in ms (NaN when BENCH_IMPORT_RUNS=0). */
  readonly importMs: number;
  /** importMs against its floor's: the figure the target is on. */
  readonly importRatio: number;
  /** importMs against the DynamoDB floor's: no target. */
  readonly importRatioBare: number;
  /** Median wall time of the same imports, in ms: load on the machine inflates it. */
  readonly importWallMs: number;
  /** The heaviest inputs by bytes in the output, packages summed. */
  readonly topInputs: readonly BundleInput[];
  /** Every input package, for checks such as "GET /health carries no DynamoDB client". */
  readonly packages: readonly string[];
  readonly bare: boolean;
  readonly pass: boolean;
}

export interface BundleOptions {
  /** Fresh processes per function for the import time (default BENCH_IMPORT_RUNS or 20). */
  readonly importRuns?: number;
  /** Heaviest inputs listed per function (default 5). */
  readonly topInputs?: number;
  /** Only these functions (names or handler files); default BENCH_BUNDLES (comma-separated) or all. */
  readonly only?: readonly string[];
  /** The Node.js binary that imports the bundles: the project's Node 24 by default. */
  readonly node?: string;
  /** Progress lines (stderr by default). */
  readonly log?: (line: string) => void;
}

/** Every Lambda of the stack with the module it bundles, from a synthesis that skips bundling. */
export async function deployedFunctions(): Promise<DeployedFunction[]> {
  const cdkJson = JSON.parse(await readFile(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
  const stack = new LabApiStack(app, 'LabApi-bench', { stage: 'dev' });
  return stack.node
    .findAll()
    .filter((c): c is LabFunction => c instanceof LabFunction)
    .map((fn) => ({
      name: 'routeName' in fn ? String(fn.routeName) : fn.node.path.split('/').slice(1).join('/'),
      handlerFile: fn.handlerFile,
      sideModules: fn.sideModules,
    }));
}

interface ImportSample {
  readonly cpuMs: number;
  readonly wallMs: number;
}

/** What one fresh process spends importing the module, as it measures it. */
async function importOnce(node: string, outfile: string): Promise<ImportSample> {
  const script =
    `const c = process.cpuUsage(), t = performance.now(); await import(${JSON.stringify(pathToFileURL(outfile).href)}); ` +
    `const wallMs = performance.now() - t, { user, system } = process.cpuUsage(c); ` +
    `process.stdout.write(JSON.stringify({ cpuMs: (user + system) / 1000, wallMs }));`;
  const { stdout } = await run(node, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, ...FUNCTION_ENVIRONMENT },
    cwd: REPO_ROOT,
  });
  return JSON.parse(stdout) as ImportSample;
}

/** Node 24, the Lambda runtime: the pinned devDependency, whatever Node runs this script. */
const projectNode = () => join(REPO_ROOT, 'node_modules/.bin/node');

export async function measureBundles(options: BundleOptions = {}): Promise<BundleRow[]> {
  const importRuns = options.importRuns ?? Number(process.env.BENCH_IMPORT_RUNS ?? 20);
  const top = options.topInputs ?? 5;
  const only = options.only ?? process.env.BENCH_BUNDLES?.split(',').filter(Boolean);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const node = options.node ?? projectNode();

  const functions = (await deployedFunctions()).filter((fn) => !only || only.includes(fn.name) || only.includes(fn.handlerFile));
  // In the repository's scratch space, so that the bare handler resolves the same installed SDK.
  return inScratchDirectory('bench-bundles-', async (workdir) => {
    const floors = await Promise.all(
      FLOORS.map(async (floor, i) => {
        const entry = join(workdir, `floor-${i}.mjs`);
        await writeFile(entry, floor.source);
        return { name: floor.name, handlerFile: relative(REPO_ROOT, entry), sideModules: {}, entry, bare: true };
      }),
    );
    const entries = [...floors, ...functions.map((fn) => ({ ...fn, entry: join(REPO_ROOT, fn.handlerFile), bare: false }))];
    log(`bundles: building ${entries.length} bundles`);
    const built = await Promise.all(
      entries.map(async (e, i) => {
        const { outfile, metafile } = await buildBundle(e.entry, join(workdir, String(i)), e.sideModules);
        return { ...e, outfile, bytes: (await stat(outfile)).size, inputs: inputsByPackage(metafile) };
      }),
    );

    log(`bundles: ${importRuns} cold imports each, ${built.length * importRuns} processes`);
    const samples = built.map(() => [] as ImportSample[]);
    // One import first, not counted: the first process after the builds pays for the node binary's pages.
    if (importRuns > 0) await importOnce(node, built[0]!.outfile);
    for (let round = 0; round < importRuns; round += 1) {
      // Each round starts one function further on, so that no function is always first (or last) of a round.
      for (let k = 0; k < built.length; k += 1) {
        const i = (k + round) % built.length;
        samples[i]!.push(await importOnce(node, built[i]!.outfile));
      }
      if ((round + 1) % 5 === 0) log(`bundles: round ${round + 1}/${importRuns}`);
    }

    const medianOf = (i: number, figure: keyof ImportSample) => (importRuns > 0 ? median(samples[i]!.map((sample) => sample[figure])) : Number.NaN);
    const indexOf = (name: string) => built.findIndex((b) => b.name === name);
    const bareIndex = indexOf(BARE_FLOOR.name);
    return built.map((b, i) => {
      // By the clients left in the bundle after tree shaking (a package esbuild emptied does not count).
      const floorIndex = b.bare ? i : indexOf(floorFor(b.inputs.filter((input) => input.bytes > 0).map((input) => input.input)).name);
      const importMs = medianOf(i, 'cpuMs');
      const bytesRatio = b.bytes / built[floorIndex]!.bytes;
      const importRatio = importMs / medianOf(floorIndex, 'cpuMs');
      return {
        name: b.name,
        handlerFile: b.handlerFile,
        bytes: b.bytes,
        floor: built[floorIndex]!.name,
        bytesRatio,
        bytesRatioBare: b.bytes / built[bareIndex]!.bytes,
        importMs,
        importRatio,
        importRatioBare: importMs / medianOf(bareIndex, 'cpuMs'),
        importWallMs: medianOf(i, 'wallMs'),
        topInputs: b.inputs.slice(0, top),
        packages: b.inputs.map((input) => input.input).filter((input) => !/\.[cm]?[jt]sx?$|\.json$/.test(input)),
        bare: b.bare,
        // Without import samples (BENCH_IMPORT_RUNS=0), the size alone decides.
        pass: rendersReport(b.name)
          ? Number.isNaN(importRatio) || importRatio <= REPORT_IMPORT_RATIO_TARGET
          : bytesRatio <= BUNDLE_RATIO_TARGET && (Number.isNaN(importRatio) || importRatio <= IMPORT_RATIO_TARGET),
      };
    });
  });
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** What a floor adds to the DynamoDB one, for the table: `+ PutEvents`, or nothing. */
const floorLabel = (floor: string) => floor.replace('(bare GetItem', '').replace(' handler)', '').trim();

/** The rows as a plain-text table: function, KB, ratios to its floor and to the DynamoDB floor, import ms, ratios, pass/miss, floor, heaviest inputs. */
export function formatBundleTable(rows: readonly BundleRow[], options: { inputs?: number } = {}): string {
  const inputs = options.inputs ?? 3;
  const header = [
    'function',
    'KB',
    'x floor',
    'x bare',
    'import CPU ms',
    'x floor',
    'x bare',
    'wall ms',
    'target',
    'floor: bare +',
    `top ${inputs} inputs (KB)`,
  ];
  const ratio = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(2));
  const lines = rows.map((r) => [
    r.name,
    kb(r.bytes),
    ratio(r.bytesRatio),
    ratio(r.bytesRatioBare),
    Number.isNaN(r.importMs) ? '-' : r.importMs.toFixed(1),
    ratio(r.importRatio),
    ratio(r.importRatioBare),
    Number.isNaN(r.importWallMs) ? '-' : r.importWallMs.toFixed(1),
    r.bare ? '' : r.pass ? 'pass' : 'MISS',
    r.bare ? '' : floorLabel(r.floor),
    r.topInputs
      .slice(0, inputs)
      .map((i) => `${i.input} ${kb(i.bytes)}`)
      .join(', '),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  const numeric = new Set([1, 2, 3, 4, 5, 6, 7]);
  const format = (cells: string[]) =>
    cells.map((cell, c) => (c === cells.length - 1 ? cell : numeric.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ');
  return [format(header), ...lines.map(format)].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await measureBundles();
  console.log(formatBundleTable(rows));
  const misses = rows.filter((r) => !r.bare && !r.pass);
  console.log(
    `\n${rows.filter((r) => !r.bare).length} functions; ${misses.length} over ${BUNDLE_RATIO_TARGET}x (size) or ${IMPORT_RATIO_TARGET}x (import) of their floor` +
      (misses.length ? `: ${misses.map((r) => r.name).join(', ')}` : ''),
  );
}
