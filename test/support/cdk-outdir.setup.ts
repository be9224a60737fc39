/**
 * Runs before each test file that may synthesize: a CDK App without an outdir writes its cloud assembly
 * to a new temporary folder (`cdk.outXXXX`) and never removes it. CDK_OUTDIR (read by App) points every
 * App of the file at one folder of its own, removed when the file is done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const outdir = mkdtempSync(join(tmpdir(), 'lab-cdk-out-'));
process.env.CDK_OUTDIR = outdir;
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
