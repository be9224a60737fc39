/**
 * What a synth prints (issue #49): a short summary instead of a line per function — the stacks with their
 * resources against CloudFormation's 500, the largest function assets, the bundling time, and every
 * warning with what to do about it. `LAB_SYNTH_VERBOSE=1` (or `-c verbose=true`) keeps CDK's line per
 * bundled asset as well.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'aws-cdk-lib';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { bundlingStats } from './bundle-all';
import { readAssembly } from './cloud-assembly';

/** CDK's own progress line for each asset it bundles: one per function, 66 of them. */
const PER_ASSET_LINE = /^Bundling asset \S+\.\.\.\n?$/;

/** Whether the synth should print every bundled asset, as CDK does by default. */
export const verboseSynth = (app: App) => process.env.LAB_SYNTH_VERBOSE === '1' || app.node.tryGetContext('verbose') === 'true';

/** Drops CDK's line per bundled asset from stderr; everything else (esbuild's warnings, errors) passes. */
export function quietPerAssetLines(): void {
  const write = process.stderr.write.bind(process.stderr) as (chunk: unknown, ...rest: unknown[]) => boolean;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) =>
    typeof chunk === 'string' && PER_ASSET_LINE.test(chunk) ? true : write(chunk, ...rest)) as typeof process.stderr.write;
}

/** What to do about a warning of ours, by its id (Annotations addWarningV2): said beside the warning. */
const WHAT_TO_DO: Record<string, string> = {
  'lab-api:stage-settings':
    "edit the stage file it names; to deploy on purpose without (a stage nobody is on call for), acknowledge it in code: Annotations.of(stack).acknowledgeWarning('lab-api:stage-settings', '<why>')",
};

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

function folderSize(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** The summary's lines for an assembly the app just wrote. */
export function synthSummary(assembly: CloudAssembly, seconds: number): string[] {
  const read = readAssembly(assembly.directory);
  const bundling = bundlingStats();
  const lines = [
    `Synthesized ${assembly.stacks.map((stack) => stack.stackName).join(', ')} in ${seconds.toFixed(1)} s` +
      (bundling.entries > 0 ? ` (${bundling.entries} bundles built at once in ${(bundling.ms / 1000).toFixed(1)} s)` : ' (bundling skipped)'),
    '  stack resources (CloudFormation allows 500 per stack):',
    ...read.stacks.map((stack) => `    ${stack.resources.toString().padStart(4)}  ${stack.name}`),
  ];
  if (bundling.entries > 0) {
    const largest = [...new Map(read.functions.map((fn) => [fn.assetDir, fn])).values()]
      .map((fn) => ({ name: fn.path.split('/').at(-3) ?? fn.path, bytes: folderSize(fn.assetDir) }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 3);
    lines.push(`  largest function assets (unzipped): ${largest.map(({ name, bytes }) => `${name} ${megabytes(bytes)}`).join(', ')}`);
  }
  const warnings = assembly.stacks.flatMap((stack) => stack.messages.filter((message) => message.level === 'warning'));
  lines.push(warnings.length === 0 ? '  warnings: none' : `  warnings: ${warnings.length}`);
  for (const warning of warnings) {
    const text = String(warning.entry.data);
    const id = /\[ack: ([^\]]+)\]/.exec(text)?.[1] ?? Object.keys(WHAT_TO_DO).find((key) => text.includes(key));
    lines.push(`    ${text.replace(/\s*\[ack: [^\]]+\]$/, '')}`);
    if (id && WHAT_TO_DO[id]) lines.push(`      what to do: ${WHAT_TO_DO[id]}`);
  }
  return lines;
}
