/**
 * The bundles part of `npm run bench`: bench/bundles-process.ts measures every deployed function in a
 * process of its own, with the environment the bench started with (none of the local stack's variables)
 * and within `limitSeconds` (BENCH_BUNDLES_TIMEOUT_S); this turns its rows into the printed table, the
 * figures with their targets and the rows kept in results.json's notes.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { BUNDLE_RATIO_TARGET, type BundleRow, formatBundleTable, IMPORT_RATIO_TARGET, REPORT_IMPORT_RATIO_TARGET, rendersReport } from './bundles';
import { type Figure, median } from './report';

/** Bundle size and cold import of every deployed function against the floor of its AWS clients (bench/bundles.ts). */
export async function bundleFigures(notes: Record<string, unknown>, environment: NodeJS.ProcessEnv, limitSeconds: number): Promise<Figure[]> {
  const child = fork(join(import.meta.dirname, 'bundles-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: environment,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const rows = await new Promise<BundleRow[] | undefined>((resolveRows) => {
    const timer = setTimeout(() => child.kill(), limitSeconds * 1000);
    child.once('message', (message: BundleRow[]) => (clearTimeout(timer), resolveRows(message)));
    child.once('exit', () => (clearTimeout(timer), resolveRows(undefined)));
  });
  if (!rows) {
    // Not a reason to lose every other figure: said in the output and in results.json.
    console.error(`bundles: no rows within ${limitSeconds} s (BENCH_BUNDLES_TIMEOUT_S); not measured in this run`);
    notes.bundles = `not measured: no rows within ${limitSeconds} s`;
    return [];
  }
  console.log(
    '\nper function: minified bundle and cold import (median of fresh processes), against the bare handler of its AWS clients (x floor: the target) and the bare GetItem one (x bare)',
  );
  console.log(formatBundleTable(rows));
  notes.bundles = rows.map(({ topInputs, packages, ...row }) => ({ ...row, top_inputs: topInputs }));
  const section = 'per function: bundle size and cold import against the bare handler of its AWS clients';
  const measured = rows.filter((row) => !row.bare && !rendersReport(row.name));
  // The PDF renderers, each with the report's own targets: the results report, then the requisition forms (issue #50).
  const renderers = rows.filter((row) => rendersReport(row.name));
  const rendererLabel = (row: BundleRow) => (row.name === 'getAppointmentResultsReport' ? 'results report' : `${row.name} (requisition form)`);
  const worst = (ratio: (row: BundleRow) => number) => measured.reduce((max, row) => Math.max(max, ratio(row)), 0);
  return [
    ...measured.flatMap((row): Figure[] => [
      { section, name: `${row.name} bundle / its floor`, value: row.bytesRatio, unit: '×', target: { kind: 'max', limit: BUNDLE_RATIO_TARGET }, hidden: true },
      { section, name: `${row.name} cold import / its floor`, value: row.importRatio, unit: '×', target: { kind: 'max', limit: IMPORT_RATIO_TARGET }, hidden: true },
    ]),
    ...renderers.flatMap((row): Figure[] => [
      { section, name: `${rendererLabel(row)} bundle / bare (its own target: the zipped asset, see note)`, value: row.bytesRatio, unit: '×' },
      {
        section,
        name: `${rendererLabel(row)} cold import / bare`,
        value: row.importRatio,
        unit: '×',
        target: { kind: 'max', limit: REPORT_IMPORT_RATIO_TARGET },
      },
    ]),
    {
      section,
      name: `largest bundle / its floor (${measured.length} functions but the PDF renderers)`,
      value: worst((row) => row.bytesRatio),
      unit: '×',
      target: { kind: 'max', limit: BUNDLE_RATIO_TARGET },
    },
    { section, name: 'slowest cold import / its floor', value: worst((row) => row.importRatio), unit: '×', target: { kind: 'max', limit: IMPORT_RATIO_TARGET } },
    // The same against the DynamoDB floor alone, as the ratios were before the floors of the other clients: no target.
    {
      section,
      name: `bundles within ${BUNDLE_RATIO_TARGET}× the bare GetItem handler (no target)`,
      value: measured.filter((row) => row.bytesRatioBare <= BUNDLE_RATIO_TARGET).length,
      unit: `of ${measured.length}`,
    },
    { section, name: 'median bundle / bare GetItem handler (no target)', value: median(measured.map((row) => row.bytesRatioBare)), unit: '×' },
    // Absolute too, the trend beside the ratios: a lighter floor (infra/bundling.ts's credentials) raises every ratio.
    ...Object.entries({
      ...Object.fromEntries(rows.filter((row) => row.bare).map((row) => [row.name.slice(1, -1), [row]])),
      'functions but the PDF renderers, median': measured,
    })
      .filter(([, of]) => of.length > 0)
      .flatMap(([what, of]): Figure[] => [
        { section, name: `${what}: bundle`, value: median(of.map((row) => row.bytes)) / 1024, unit: 'KB' },
        { section, name: `${what}: cold import CPU`, value: median(of.map((row) => row.importMs)), unit: 'ms' },
      ]),
  ];
}
