/**
 * Handler CPU per request, measured in a process of its own (bench/handler-cpu-process.ts): the real
 * GET /api/v1/profiles/{id} handler against bare handlers doing only its DynamoDB calls, to DynamoDB Local
 * over loopback.
 * BENCH_PROFILE=1 runs that process under `node --cpu-prof` (profile in bench/profiles/).
 *
 * The subjects run bundled as deployed (bench/handler-cpu-subjects.ts; since issue #33's last round): the
 * minified bundle is what Lambda runs. BENCH_CPU_SOURCE=1 runs them from the sources under tsx instead, for a
 * profile whose frames carry our names and files.
 */
import { fork } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildBundle, inScratchDirectory } from './bundle-build';
import type { CpuInput, CpuResult } from './handler-cpu-process';
import { median, type Figure } from './report';

const here = dirname(fileURLToPath(import.meta.url));

export async function measureHandlerCpu(input: Omit<CpuInput, 'subjects'>, profile: boolean): Promise<{ figures: Figure[]; notes: Record<string, unknown> }> {
  const subjects = join(here, 'handler-cpu-subjects.ts');
  if (process.env.BENCH_CPU_SOURCE === '1') return measure({ ...input, subjects: pathToFileURL(subjects).href }, profile, true);
  return inScratchDirectory('bench-cpu-', async (directory) =>
    measure({ ...input, subjects: pathToFileURL((await buildBundle(subjects, directory)).outfile).href }, profile, false),
  );
}

async function measure(input: CpuInput, profile: boolean, fromSource: boolean): Promise<{ figures: Figure[]; notes: Record<string, unknown> }> {
  const profileDir = resolve(here, '../../bench/profiles');
  const child = fork(join(here, 'handler-cpu-process.ts'), [], {
    execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    // INFO, as deployed: the request's log line is part of its cost; the lines themselves go nowhere.
    // BENCH_CPU_LOG_LEVEL=ERROR shows what the INFO line costs, BENCH_CPU_METRICS_DISABLED=true the metrics line.
    env: {
      ...process.env,
      POWERTOOLS_LOG_LEVEL: process.env.BENCH_CPU_LOG_LEVEL ?? 'INFO',
      POWERTOOLS_METRICS_DISABLED: process.env.BENCH_CPU_METRICS_DISABLED ?? 'false',
      POWERTOOLS_SERVICE_NAME: 'lab-api',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const result = await new Promise<CpuResult>((resolveResult, reject) => {
    child.once('message', (message: CpuResult) => resolveResult(message));
    child.once('exit', (code) => reject(new Error(`the handler CPU process exited with code ${code} before answering`)));
    child.send(input);
  });
  await new Promise((resolveExit) => (child.exitCode === null ? child.once('exit', resolveExit) : resolveExit(undefined)));
  // Each subject's CPU less the harness's (the empty invocation of the same round), round by round.
  const net = (subject: keyof CpuResult) => result[subject].map((cpu, round) => cpu - result.empty[round]!);
  const [handler, bareGet, bareGetPut] = [net('handler'), net('bareGet'), net('bareGetPut')];
  // The medians of the rounds' own ratios and differences: each round interleaves the subjects (handler-cpu-process.ts).
  const perRound = (figure: (round: number) => number) => median(handler.map((_, round) => figure(round)));
  const section = `handler CPU per request to DynamoDB Local over loopback, ${input.rounds} rounds × ${input.iterations} sequential requests${fromSource ? ', from the sources (BENCH_CPU_SOURCE)' : ', bundled as deployed'}`;
  return {
    figures: [
      {
        section,
        name: 'GET /profiles/{id} handler / bare GetItem handler',
        value: perRound((round) => handler[round]! / bareGet[round]!),
        unit: '×',
        note: 'no target: the route also makes the access-log PutItem, which this bare handler does not',
      },
      {
        section,
        name: 'GET /profiles/{id} handler / bare GetItem + PutItem handler',
        value: perRound((round) => handler[round]! / bareGetPut[round]!),
        unit: '×',
        target: { kind: 'max', limit: 1.1 },
        note: 'issue #33: what the Middy stack, auth, validation, logging and the response add to the same two SDK calls',
      },
      {
        section,
        name: 'our code per request: handler − bare GetItem + PutItem handler',
        value: perRound((round) => handler[round]! - bareGetPut[round]!),
        unit: 'µs',
        note: 'what the ratio is made of, whatever the floor costs on the machine',
      },
      { section, name: 'handler CPU per request', value: median(handler), unit: 'µs' },
      { section, name: 'bare GetItem handler CPU per request', value: median(bareGet), unit: 'µs' },
      { section, name: 'bare GetItem + PutItem handler CPU per request', value: median(bareGetPut), unit: 'µs' },
      {
        section,
        name: 'the harness per request (taken off each of the above)',
        value: median(result.empty),
        unit: 'µs',
        note: 'an invocation that answers at once: the event, the two CPU readings, a turn of the event loop',
      },
    ],
    notes: { handler_cpu_rounds_us: Object.fromEntries(Object.entries(result).map(([name, rounds]) => [name, rounds.map(Math.round)])) },
  };
}
