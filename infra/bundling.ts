/**
 * How every function is bundled (infra/lab-function.ts): the repository root, the esbuild settings the
 * bundle benchmark builds with too, the package files copied beside a bundle that reads them at run time, and
 * the side modules bundled beside one that imports them at run time (SIDE_MODULES).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/** Route handler paths are relative to the repository root, whatever directory cdk runs in. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The esbuild settings of every bundle, in one place so that the bundle-size test builds exactly what
 * the construct deploys.
 */
export const LAMBDA_BUNDLE = {
  format: 'esm',
  target: 'node24',
  minify: true,
  sourceMap: true,
  // Stack traces need the mappings only; embedding the sources would double the asset for nothing.
  sourcesContent: false,
  // The AWS SDK is bundled, not taken from the runtime: the SDK team advises against relying on the
  // runtime's pinned copy, and only bundling guarantees that @aws-sdk/lib-dynamodb and
  // s3-request-presigner are there in the versions the tests ran. Tree-shaken and minified, a bundle
  // stays at 0.4–0.6 MB, one file to load (no module resolution across the runtime's node_modules).
  externalModules: [] as string[],
  // Prefer the ESM build of dependencies: it tree-shakes, the CJS one does not.
  mainFields: ['module', 'main'],
  // CJS dependencies bundled into an ES module still call require() for Node built-ins.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  // Packages replaced by a module of ours (relative to the repository root): fontkit's pure-JavaScript
  // Brotli decoder, 475 KB with its dictionary, by Node's built-in one; the SDK's default credential
  // chain, 135 KB with the STS and SSO clients, by the environment Lambda gives every function
  // (shared/lambda-credentials.ts); and node:http, which @middy/util imports for STATUS_CODES, by the same
  // module taken with require(), since its ES import loads Node's undici, 20–30 ms of every cold start
  // (shared/node-http.ts); and the HTML parser and entity tables pdf-lib imports for SVG, XFA and PDF/A,
  // and the CSS color parser it imports for SVG, which the report never draws (shared/report/no-html.ts,
  // no-svg-colors.ts).
  alias: {
    'brotli/decompress.js': 'shared/report/brotli-decompress.ts',
    'html-entities': 'shared/report/no-html.ts',
    'node-html-better-parser': 'shared/report/no-html.ts',
    culori: 'shared/report/no-svg-colors.ts',
    '@aws-sdk/credential-provider-node': 'shared/lambda-credentials.ts',
    'node:http': 'shared/node-http.ts',
  },
} as const;

/**
 * LAMBDA_BUNDLE.alias as esbuild takes it: absolute paths on this machine. The stack always bundles with
 * the local esbuild (a devDependency; forceDockerBundling false in infra/lab-function.ts), never in Docker,
 * where these paths would not exist.
 */
export const bundleAliases = (): Record<string, string> =>
  Object.fromEntries(Object.entries(LAMBDA_BUNDLE.alias).map(([from, to]) => [from, join(REPO_ROOT, to)]));

/** Packages as installed in the repository, resolved as Node resolves them from its root. */
export const resolveFromRepo = createRequire(join(REPO_ROOT, 'package.json'));

/** Files of installed packages, by package name, that a function reads at run time (PACKAGE_FILES). */
export type PackageFiles = Readonly<Record<string, readonly string[]>>;

const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/**
 * The shell commands (NodejsFunction's afterBundling hook) that copy package files beside a bundle:
 * `<outputDir>/node_modules/<package>/<file>`, from the package as installed in the repository, for each
 * file this installed version has. inputDir is the repository root as the bundler sees it (local or Docker).
 */
export function copyPackageFiles(packages: PackageFiles, inputDir: string, outputDir: string): string[] {
  return Object.entries(packages).flatMap(([name, files]) => {
    const installed = dirname(resolveFromRepo.resolve(`${name}/package.json`));
    const source = posix.join(inputDir, relative(REPO_ROOT, installed).split(sep).join('/'));
    const target = `${outputDir}/node_modules/${name}`;
    const present = files.filter((file) => existsSync(join(installed, file)));
    // Every folder a file lands in, created first: files may sit in sub-folders of the package (a font's
    // `400Regular/`), and `cp` creates none.
    const folders = [...new Set([target, ...present.map((file) => posix.dirname(`${target}/${file}`))])];
    return [`mkdir -p ${folders.map(quote).join(' ')}`, ...present.map((file) => `cp ${quote(`${source}/${file}`)} ${quote(`${target}/${file}`)}`)];
  });
}

/**
 * Modules a function imports from beside its bundle (SIDE_MODULES): the name it imports (`./<name>`, left
 * external in its bundle) and the source, relative to the repository root, bundled on its own.
 */
export type SideModules = Readonly<Record<string, string>>;

/** How a function's bundle imports a side module, as esbuild's `external` takes it. */
export const sideModuleImports = (modules: SideModules): string[] => Object.keys(modules).map((name) => `./${name}`);

/**
 * LAMBDA_BUNDLE as esbuild's build API takes it, as NodejsFunction passes it to esbuild: for the bundles
 * the benchmark and the tests build (infra/bench/bundle-build.ts). Every setting is mapped, so a new one
 * fails the type check here until it is.
 */
export function esbuildOptions(): BuildOptions {
  const mapped: { [Setting in keyof typeof LAMBDA_BUNDLE]: BuildOptions } = {
    format: { format: LAMBDA_BUNDLE.format },
    target: { target: LAMBDA_BUNDLE.target },
    minify: { minify: LAMBDA_BUNDLE.minify },
    sourceMap: { sourcemap: LAMBDA_BUNDLE.sourceMap },
    sourcesContent: { sourcesContent: LAMBDA_BUNDLE.sourcesContent },
    externalModules: { external: [...LAMBDA_BUNDLE.externalModules] },
    mainFields: { mainFields: [...LAMBDA_BUNDLE.mainFields] },
    banner: { banner: { js: LAMBDA_BUNDLE.banner } },
    alias: { alias: bundleAliases() },
  };
  return Object.assign({ bundle: true, platform: 'node' }, ...Object.values(mapped)) as BuildOptions;
}

/**
 * The shell commands (NodejsFunction's afterBundling hook) that bundle each side module beside the function's
 * bundle, with the same esbuild and settings (LAMBDA_BUNDLE, every one mapped to its flag), into
 * `<outputDir>/<name>` with its source map. The stack bundles locally only (infra/lab-function.ts), so the
 * aliases' paths are this machine's.
 */
export function sideModuleCommands(modules: SideModules, inputDir: string, outputDir: string): string[] {
  if (Object.keys(modules).length === 0) return [];
  const esbuild = join(dirname(resolveFromRepo.resolve('esbuild/package.json')), 'bin', 'esbuild');
  const flags: { [Setting in keyof typeof LAMBDA_BUNDLE]: string[] } = {
    format: [`--format=${LAMBDA_BUNDLE.format}`],
    target: [`--target=${LAMBDA_BUNDLE.target}`],
    minify: LAMBDA_BUNDLE.minify ? ['--minify'] : [],
    sourceMap: LAMBDA_BUNDLE.sourceMap ? ['--sourcemap'] : [],
    sourcesContent: [`--sources-content=${LAMBDA_BUNDLE.sourcesContent}`],
    externalModules: LAMBDA_BUNDLE.externalModules.map((name) => `--external:${name}`),
    mainFields: [`--main-fields=${LAMBDA_BUNDLE.mainFields.join(',')}`],
    banner: [`--banner:js=${LAMBDA_BUNDLE.banner}`],
    alias: Object.entries(bundleAliases()).map(([from, to]) => `--alias:${from}=${to}`),
  };
  const settings = ['--bundle', '--platform=node', ...Object.values(flags).flat(), '--log-level=warning'];
  return Object.entries(modules).map(([name, source]) =>
    [esbuild, posix.join(inputDir, source), ...settings, `--outfile=${outputDir}/${name}`].map(quote).join(' '),
  );
}
