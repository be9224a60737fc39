/**
 * The synth part of `npm run bench` (issue #49): what DevOps and the pipeline wait for, `npm run synth` (dev)
 * and `npx cdk synth -c stage=prod`, each run as they run it (bundling every function), timed from the
 * command's start to its end, with the environment the bench started with. Target: 30 s per stage on a
 * 2-core machine. Seconds, not a ratio: there is no floor to divide by, and the figure is what a person waits.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../bundling';
import type { Figure } from './report';

const run = promisify(execFile);

/** Issue #49: a stage's synth, bundling included, within 30 s here. */
export const SYNTH_TARGET_SECONDS = 30;

const COMMANDS = [
  { stage: 'dev', command: 'npm', args: ['run', 'synth', '--'] },
  { stage: 'prod', command: 'npx', args: ['cdk', 'synth', '--quiet', '-c', 'stage=prod'] },
] as const;

export async function synthFigures(environment: NodeJS.ProcessEnv): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const { stage, command, args } of COMMANDS) {
    const outdir = mkdtempSync(join(tmpdir(), `lab-bench-synth-${stage}-`));
    try {
      const started = performance.now();
      await run(command, [...args, '-o', outdir], { cwd: REPO_ROOT, env: environment, maxBuffer: 64 * 1024 * 1024 });
      figures.push({
        section: 'synth: a stage as DevOps synthesize it, every function bundled',
        name: `${stage}: ${command} ${args.join(' ')}`,
        value: (performance.now() - started) / 1000,
        unit: 's',
        target: { kind: 'max', limit: SYNTH_TARGET_SECONDS },
        note: 'seconds from the command to the cloud assembly, one build of every function (infra/bundle-all.ts)',
      });
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }
  return figures;
}
