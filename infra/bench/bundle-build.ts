/**
 * A function's bundle built as the stack builds it (LAMBDA_BUNDLE through infra/bundling.ts esbuildOptions,
 * the settings NodejsFunction passes), with esbuild's metafile: what the bundle benchmark (bench/bundles.ts)
 * measures and the bundle tests (test/infra/bundles.test.ts, stack.test.ts) read.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions, REPO_ROOT, sideModuleImports, type SideModules } from '../bundling';

export interface BundleInput {
  /** A package (`@aws-sdk/client-dynamodb`) or a file of ours (`shared/http/handler.ts`). */
  readonly input: string;
  readonly bytes: number;
}

/**
 * Runs `work` in a fresh directory under node_modules/.cache, removed after it: inside the repository, so
 * that a bundle built there resolves the same installed packages; git-ignored scratch space.
 */
export async function inScratchDirectory<T>(prefix: string, work: (directory: string) => Promise<T>): Promise<T> {
  const cache = join(REPO_ROOT, 'node_modules/.cache');
  await mkdir(cache, { recursive: true });
  const directory = await mkdtemp(join(cache, prefix));
  try {
    return await work(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * One bundle as the construct builds it: `outdir/index.mjs` and its map, with the metafile. Its side modules
 * stay out of it, imported at run time (the stack bundles them on their own, beside it); they are neither
 * built nor counted here.
 */
export async function buildBundle(entry: string, outdir: string, sideModules: SideModules = {}): Promise<{ outfile: string; metafile: Metafile }> {
  const outfile = join(outdir, 'index.mjs');
  const settings = esbuildOptions();
  const { metafile } = await build({
    ...settings,
    entryPoints: [entry],
    outfile,
    external: [...(settings.external ?? []), ...sideModuleImports(sideModules)],
    metafile: true,
    logLevel: 'silent',
  });
  return { outfile, metafile };
}

/** `node_modules/@aws-sdk/client-dynamodb/dist-es/…` → `@aws-sdk/client-dynamodb`; our files stay files. */
export function packageOf(input: string): string {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return input;
  const [scope, name] = input.slice(at + 'node_modules/'.length).split('/');
  return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
}

/** Bytes in the output per package (or file of ours), heaviest first. */
export function inputsByPackage(metafile: Metafile): BundleInput[] {
  const output = Object.entries(metafile.outputs).find(([file]) => file.endsWith('.mjs'))![1];
  const sums = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const key = packageOf(input);
    sums.set(key, (sums.get(key) ?? 0) + bytesInOutput);
  }
  return [...sums].map(([input, bytes]) => ({ input, bytes })).sort((a, b) => b.bytes - a.bytes);
}
