/**
 * The getting-started walkthrough (docs/getting-started.md, "Walkthrough: from booking to the PDF report"),
 * executed as written against `npm start`: its shell block, run by bash with curl and jq, the lab CLI from
 * the same data directory. Only the port differs (the test's free one for 3000). Twice, since a newcomer
 * runs it again: a fixed barcode or slot would make the second run a chain of 409s.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/api-function';
import { freePort } from '../../infra/local/free-port';
import { interrupt, type NpmStart, npmStart } from '../support/npm-start';

const run = promisify(execFile);
const HEADING = '## Walkthrough: from booking to the PDF report';
const dataDir = mkdtempSync(join(tmpdir(), 'lab-walkthrough-'));
let stack: NpmStart;
let env: NodeJS.ProcessEnv;

/** The walkthrough's shell block, as the page shows it. */
function walkthroughScript(): string {
  const page = readFileSync(join(REPO_ROOT, 'docs/getting-started.md'), 'utf8');
  const section = page.slice(page.indexOf(HEADING));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error(`no sh block under "${HEADING}"`);
  return block;
}

beforeAll(async () => {
  const ports = { PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), S3_PORT: String(await freePort()) };
  stack = await npmStart({ ...ports, LAB_DATA_DIR: dataDir, DEV_API_KEY: 'lab_dev_walkthrough' });
  env = { ...process.env, ...ports, LAB_DATA_DIR: dataDir };
}, 120_000);

afterAll(async () => {
  if (stack) await interrupt(stack);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the block with bash, stopping at the first failing command; answers its output and the state it left. */
async function runWalkthrough(): Promise<{ output: string; status: string; reportBytes: string }> {
  const script = [
    'set -euo pipefail',
    walkthroughScript().replaceAll('http://127.0.0.1:3000', stack.baseUrl),
    // What the walkthrough left: the appointment's status and the size of our PDF report.
    'echo "WALKTHROUGH $(curl -s $API/appointments/$APPT -H "x-api-key: $KEY" | jq -r .status) $(head -c 5 $OUT/results.pdf) $(wc -c < $OUT/results.pdf)"',
  ].join('\n');
  const { stdout } = await run('bash', ['-c', script], { env, cwd: REPO_ROOT, timeout: 120_000 });
  const [, status = '', magic = '', bytes = ''] = /^WALKTHROUGH (\S+) (\S+) (\d+)$/m.exec(stdout) ?? [];
  return { output: stdout, status, reportBytes: `${magic} ${bytes}` };
}

describe('the getting-started walkthrough', () => {
  it.each([['the first time'], ['a second time']])(
    'runs as written %s: every call answered without an error, the appointment completed, our PDF report written',
    async () => {
      const { output, status, reportBytes } = await runWalkthrough();
      expect(output).not.toContain('"error"');
      expect(status).toBe('completed');
      expect(reportBytes).toMatch(/^%PDF- \d{4,}$/);
    },
    180_000,
  );
});
