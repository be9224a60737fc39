/**
 * Runs before each test file that may synthesize: a CDK App without an outdir writes its cloud assembly
 * to a new temporary folder (`cdk.outXXXX`) and never removes it. testApp() (test/infra/synth.ts) writes
 * every App of the file to one folder of its own instead, removed when the file is done.
 *
 * Not CDK_OUTDIR: an App that finds that variable synthesizes again by itself when the process is about
 * to exit (autoSynth), by then into the folder removed here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const outdir = mkdtempSync(join(tmpdir(), 'lab-cdk-out-'));
process.env.LAB_TEST_CDK_OUTDIR = outdir;
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
