/**
 * Synthesizing as DevOps do, for the tests: `npm run synth` or `npx cdk synth` in the repository, with no AWS
 * credentials; the assembly it leaves is read by infra/cloud-assembly.ts.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../infra/api-function';

export * from '../../infra/cloud-assembly';

const run = promisify(execFile);

/** Runs a synth command (`npm run synth -- …`, `npx cdk synth …`) in the repository, with no AWS credentials. */
export async function synthesize(command: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !name.startsWith('CDK_')));
  return run(command, [...args], { cwd: REPO_ROOT, env, maxBuffer: 64 * 1024 * 1024 });
}
