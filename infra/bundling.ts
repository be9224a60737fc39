/**
 * How every function is bundled (infra/lab-function.ts, in one build: infra/bundle-all.ts): the repository
 * root, the esbuild settings the bundle benchmark builds with too, the package files copied beside a bundle
 * that reads them at run time, and the side modules bundled beside one that imports them at run time
 * (SIDE_MODULES).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
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
  // no-svg-colors.ts); and the schema library `ics` checks a calendar entry with, whose facts are ours and typed
  // (shared/email/no-yup.ts), and its character splitter, by Node's own (shared/email/graphemes.ts).
  alias: {
    'brotli/decompress.js': 'shared/report/brotli-decompress.ts',
    'html-entities': 'shared/report/no-html.ts',
    'node-html-better-parser': 'shared/report/no-html.ts',
    culori: 'shared/report/no-svg-colors.ts',
    yup: 'shared/email/no-yup.ts',
    runes2: 'shared/email/graphemes.ts',
    '@aws-sdk/credential-provider-node': 'shared/lambda-credentials.ts',
    'node:http': 'shared/node-http.ts',
  },
} as const;

/**
 * LAMBDA_BUNDLE.alias as esbuild takes it: absolute paths on this machine. The stack always bundles with
 * the local esbuild (a devDependency, through its JavaScript API: infra/bundle-all.ts), never in Docker.
 */
export const bundleAliases = (): Record<string, string> =>
  Object.fromEntries(Object.entries(LAMBDA_BUNDLE.alias).map(([from, to]) => [from, join(REPO_ROOT, to)]));

/** Packages as installed in the repository, resolved as Node resolves them from its root. */
export const resolveFromRepo = createRequire(join(REPO_ROOT, 'package.json'));

/** Files of installed packages, by package name, that a function reads at run time (PACKAGE_FILES). */
export type PackageFiles = Readonly<Record<string, readonly string[]>>;

/**
 * Modules a function imports from beside its bundle (SIDE_MODULES): the name it imports (`./<name>`, left
 * external in its bundle) and the source, relative to the repository root, bundled on its own.
 */
export type SideModules = Readonly<Record<string, string>>;

/** How a function's bundle imports a side module, as esbuild's `external` takes it. */
export const sideModuleImports = (modules: SideModules): string[] => Object.keys(modules).map((name) => `./${name}`);

/**
 * LAMBDA_BUNDLE as esbuild's build API takes it: for the stack's one build (infra/bundle-all.ts) and the
 * bundles the benchmark and the tests build (infra/bench/bundle-build.ts). Every setting is mapped, so a
 * new one fails the type check here until it is.
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
