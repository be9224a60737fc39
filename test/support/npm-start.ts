/**
 * `npm start` as a user runs it, for the e2e suite: started in its own process group and stopped the way
 * Ctrl-C in a terminal stops it (SIGINT to the whole group).
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface NpmStart {
  process: ChildProcess;
  output: () => string;
  baseUrl: string;
}

/** Starts `npm start` with these environment variables (PORT included) and resolves once it is ready. */
export async function npmStart(env: Record<string, string> & { PORT: string }): Promise<NpmStart> {
  let output = '';
  const child = spawn('npm', ['start'], {
    env: { ...process.env, ...env },
    detached: true, // its own process group, so a signal reaches it the way Ctrl-C in a terminal does
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!output.includes('Lab API ready at')) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start was not ready within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { process: child, output: () => output, baseUrl: `http://127.0.0.1:${env.PORT}` };
}

/** Ctrl-C: SIGINT to the whole process group. Resolves once no process of that group is left. */
export async function interrupt(stack: NpmStart): Promise<void> {
  const groupId = stack.process.pid as number;
  process.kill(-groupId, 'SIGINT');
  const deadline = Date.now() + 20_000;
  while (groupAlive(groupId)) {
    if (Date.now() > deadline) throw new Error(`processes of npm start still running 20 s after SIGINT:\n${stack.output()}`);
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
