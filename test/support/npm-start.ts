/**
 * `npm start` as a user runs it, for the e2e suite: started in its own process group, so that the tests
 * can stop it the way Ctrl-C in a terminal does (SIGINT to the whole group) or the way a supervisor or an
 * IDE does (a signal to the npm process alone), and then check that no process of that group is left.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';

export interface NpmStart {
  process: ChildProcess;
  output: () => string;
  baseUrl: string;
}

/** Runs `npm start` with these environment variables in its own process group; resolves once it has started. */
export function spawnNpmStart(env: Record<string, string>): { process: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn('npm', ['start'], {
    // The simulated lab and the SES emulator on free ports unless the test names them: stacks of parallel test
    // files never share 2575 or 8005.
    env: { ...process.env, LAB_MLLP_PORT: '0', SES_PORT: '0', ...env },
    detached: true, // its own process group, so a signal reaches it the way Ctrl-C in a terminal does
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { process: child, output: () => output };
}

/** Starts `npm start` with these environment variables (PORT included) and resolves once it is ready. */
export async function npmStart(env: Record<string, string> & { PORT: string }): Promise<NpmStart> {
  const started = spawnNpmStart(env);
  const deadline = Date.now() + 60_000;
  while (!started.output().includes('Lab API ready at')) {
    if (started.process.exitCode !== null) throw new Error(`npm start exited early:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`npm start was not ready within 60 s:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ...started, baseUrl: `http://127.0.0.1:${env.PORT}` };
}

/** Ctrl-C: SIGINT to the whole process group. Resolves once no process of that group is left. */
export async function interrupt(stack: NpmStart): Promise<void> {
  process.kill(-(stack.process.pid as number), 'SIGINT');
  await groupGone(stack, 'SIGINT to the group');
}

/** The pid of the Node process running infra/local/start.ts: npm's one child (the script execs into it). */
export function startScriptPid(stack: Pick<NpmStart, 'process'>): number {
  return Number(execFileSync('pgrep', ['-P', String(stack.process.pid)], { encoding: 'utf8' }).trim());
}

/**
 * Resolves once no process of the stack's group is left (npm, start.ts, DynamoDB Local's watchdog and
 * java, esbuild). The 20 s deadline only guards against a hang; it is not a timing requirement.
 */
export async function groupGone(stack: Pick<NpmStart, 'process' | 'output'>, after: string): Promise<void> {
  const groupId = stack.process.pid as number;
  const deadline = Date.now() + 20_000;
  while (groupAlive(groupId)) {
    if (Date.now() > deadline) {
      const left = execFileSync('ps', ['-o', 'pid,ppid,args', '-g', String(groupId)], { encoding: 'utf8' }).slice(0, 2_000);
      throw new Error(`processes of npm start still running 20 s after ${after}:\n${left}\n${stack.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}
