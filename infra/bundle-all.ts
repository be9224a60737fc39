/**
 * Every function bundled by ONE esbuild build (issue #49). NodejsFunction ran one `esbuild` process per
 * function — 66 processes, 1–3 minutes per stage on 2 cores, and four lines of output each. Here the first
 * function a synth bundles builds every handler under functions/ and every side module (SIDE_MODULES) at
 * once, with esbuild's JavaScript API and the settings of infra/bundling.ts (esbuildOptions: the same
 * options and aliases), into a scratch folder the process removes at exit; each function's asset is then a
 * copy of its own output, with the package files it reads beside it. What an asset holds is what
 * NodejsFunction put there: `index.mjs` and its map, side modules (`font-object.mjs` and its map) and
 * package files under `node_modules/<package>/`.
 *
 * The copy runs as CDK's local bundling (`tryBundle`), so CDK still decides when to bundle (never for a
 * stack outside `aws:cdk:bundling-stacks`, as in the infra tests) and hashes each asset by its output.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { buildSync } from 'esbuild';
import type { BundlingOptions, ILocalBundling } from 'aws-cdk-lib';
import { esbuildOptions, type PackageFiles, REPO_ROOT, resolveFromRepo, sideModuleImports, type SideModules } from './bundling';
import { SIDE_MODULES } from './route-classes';

/**
 * Where a handler's bundle lands in the shared build: `functions~appointments~create/index.mjs`, one folder
 * deep as an asset's `index.mjs` is, so that its source map names the same relative sources
 * (`../../node_modules/…`, `../../shared/…`) as a bundle built straight into `cdk.out/` did.
 */
/** A source's path without its extension, as one folder name: `functions/appointments/create.ts` → `functions~appointments~create`. */
const folderOf = (source: string) => source.replace(/\.[cm]?ts$/, '').replaceAll('/', '~');
const handlerOut = (handlerFile: string) => `${folderOf(handlerFile)}/index`;
/** Where a side module lands: `side~shared~report~font-object/font-object.mjs`, beside the handler under its own name. */
const sideOut = (source: string) => `side~${folderOf(source)}/${basename(source).replace(/\.[cm]?ts$/, '')}`;

function handlerFiles(directory = 'functions'): string[] {
  return readdirSync(join(REPO_ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return handlerFiles(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The build's folder, and each output's side-module imports (`./<name>`, left external). */
let built: { directory: string; outputs: Map<string, string[]> } | undefined;
const stats = { entries: 0, ms: 0 };

/** Removes the build's folder (at the process's exit; a test runner's worker may never fire that, so its tests call it). */
export function removeBuild(): void {
  if (built) rmSync(built.directory, { recursive: true, force: true });
  built = undefined;
}

/** How many bundles this process built, and in how long (the synth summary prints it). */
export const bundlingStats = (): Readonly<typeof stats> => ({ ...stats });

/**
 * The shared build, made at the first call: every handler under functions/ and every side module, plus any
 * entry asked for that is not among them (built then, in a build of its own). Entries are `[out, source]`.
 */
function buildOutputs(wanted: readonly (readonly [string, string])[]): string {
  const first = !built;
  if (!built) {
    // At the repository's top (git-ignored: .lab-bundles-*), so that each bundle sits two levels below the
    // repository as one built into cdk.out/ did, and its source map names the same sources.
    const directory = mkdtempSync(join(REPO_ROOT, '.lab-bundles-'));
    process.once('exit', removeBuild);
    built = { directory, outputs: new Map() };
  }
  const known = first
    ? [
        ...handlerFiles().map((file) => [handlerOut(file), file] as const),
        ...Object.values(SIDE_MODULES).flatMap((modules) => Object.values(modules ?? {}).map((source) => [sideOut(source), source] as const)),
      ]
    : [];
  const entries = Object.fromEntries([...known, ...wanted].filter(([out]) => !built!.outputs.has(out)).map(([out, source]) => [out, join(REPO_ROOT, source)]));
  if (Object.keys(entries).length > 0) {
    const settings = esbuildOptions();
    // Every side module's import stays external in every bundle: only the function that has it imports it.
    const sideImports = Object.values(SIDE_MODULES).flatMap((modules) => sideModuleImports(modules ?? {}));
    const started = performance.now();
    const { metafile } = buildSync({
      ...settings,
      entryPoints: entries,
      outdir: built.directory,
      outExtension: { '.js': '.mjs' },
      external: [...(settings.external ?? []), ...sideImports],
      metafile: true,
      logLevel: 'warning',
    });
    for (const out of Object.keys(entries)) {
      const output =
        metafile.outputs[
          relative(process.cwd(), join(built.directory, `${out}.mjs`))
            .split(sep)
            .join('/')
        ];
      built.outputs.set(out, output?.imports.filter((i) => i.external && i.path.startsWith('./')).map((i) => i.path) ?? []);
    }
    stats.entries += Object.keys(entries).length;
    stats.ms += performance.now() - started;
  }
  return built.directory;
}

/**
 * A bundle that imports a side module its function does not ship would fail at run time, on the first call
 * that needs it (every side module's import is external in every bundle of the one build): refused here.
 */
function assertSideModulesShipped(handlerFile: string, sideModules: SideModules): void {
  const missing = (built?.outputs.get(handlerOut(handlerFile)) ?? []).filter((path) => !sideModuleImports(sideModules).includes(path));
  if (missing.length > 0)
    throw new Error(`${handlerFile} imports ${missing.join(', ')} at run time, but its function ships no such side module (SIDE_MODULES)`);
}

/** A file and its source map, from the shared build into an asset folder under a name of the asset's. */
function copyWithMap(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(`${from}.mjs`, to);
  cpSync(`${from}.mjs.map`, `${to}.map`);
}

/**
 * The package files a function reads at run time, as `node_modules/<package>/<file>` beside its bundle,
 * from the package as installed in the repository; a file this installed version lacks is skipped.
 */
export function copyPackageFiles(packages: PackageFiles, outputDir: string): void {
  for (const [name, files] of Object.entries(packages)) {
    const installed = dirname(resolveFromRepo.resolve(`${name}/package.json`));
    for (const file of files) {
      const from = join(installed, file);
      if (existsSync(from)) cpSync(from, join(outputDir, 'node_modules', name, file));
    }
  }
}

/**
 * One function's asset, as CDK's local bundling: its handler's bundle as `index.mjs`, its side modules under
 * their own names, its package files. Its fields are what CDK's asset cache keys the staging by (two
 * functions of one handler and the same files share one asset).
 */
export class PrebuiltBundle implements ILocalBundling {
  constructor(
    readonly handlerFile: string,
    readonly sideModules: SideModules = {},
    readonly packageFiles: PackageFiles = {},
  ) {}

  tryBundle(outputDir: string, _options: BundlingOptions): boolean {
    const sides = Object.entries(this.sideModules);
    const directory = buildOutputs([[handlerOut(this.handlerFile), this.handlerFile], ...sides.map(([, source]) => [sideOut(source), source] as const)]);
    assertSideModulesShipped(this.handlerFile, this.sideModules);
    copyWithMap(join(directory, handlerOut(this.handlerFile)), join(outputDir, 'index.mjs'));
    for (const [name, source] of sides) copyWithMap(join(directory, sideOut(source)), join(outputDir, name));
    copyPackageFiles(this.packageFiles, outputDir);
    return true;
  }
}
