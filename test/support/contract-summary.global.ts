/**
 * Global setup of the suites that call the API: clears the contract check counts of the previous run and,
 * at the end, prints how many responses were checked against docs/openapi.json (test/support/contract.ts).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { OUTPUT_DIR } from './contract';

export default function setup(project: TestProject) {
  const file = join(OUTPUT_DIR, `contract-${project.name}.jsonl`);
  rmSync(file, { force: true });
  return () => {
    if (!existsSync(file)) return;
    const files = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { validated: number; observed: string[] });
    const validated = files.reduce((sum, entry) => sum + entry.validated, 0);
    const pairs = new Set(files.flatMap((entry) => entry.observed));
    console.log(`contract (${project.name}): ${validated} responses matched docs/openapi.json; ${pairs.size} operation/status pairs observed`);
  };
}
