/**
 * How the CLIs find a running `npm start` (infra/local/stack-file.ts): its ports from
 * `<LAB_DATA_DIR>/stack.json` unless a variable says otherwise, and never from a stack that has ended.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runningStackSettings, writeStackFile } from '../../infra/local/stack-file';

let dataDir: string;
const stack = (pid: number) => ({
  pid,
  api_url: 'http://127.0.0.1:3101',
  port: 3101,
  dynamodb_port: 8101,
  s3_port: 4601,
  started_at: '2026-11-23T10:00:00.000Z',
});
const portsOf = (settings: { port: number; dynamodbPort: number; s3Port: number }) => [settings.port, settings.dynamodbPort, settings.s3Port];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'lab-stack-file-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('runningStackSettings', () => {
  it('takes the ports of the running stack when no port variable is set', () => {
    writeStackFile(dataDir, stack(process.pid));
    expect(portsOf(runningStackSettings({ LAB_DATA_DIR: dataDir }))).toEqual([3101, 8101, 4601]);
  });

  it('lets a port variable that is set win over the stack file', () => {
    writeStackFile(dataDir, stack(process.pid));
    expect(portsOf(runningStackSettings({ LAB_DATA_DIR: dataDir, DYNAMODB_PORT: '8200' }))).toEqual([3101, 8200, 4601]);
  });

  it("takes the simulated lab's MLLP port from the running stack, unless LAB_MLLP_PORT is set", () => {
    writeStackFile(dataDir, { ...stack(process.pid), lab_mllp_port: 40123 });
    expect(runningStackSettings({ LAB_DATA_DIR: dataDir }).labMllpPort).toBe(40123);
    expect(runningStackSettings({ LAB_DATA_DIR: dataDir, LAB_MLLP_PORT: '2576' }).labMllpPort).toBe(2576);
  });

  it("takes the SES emulator's port from the running stack, unless SES_PORT is set", () => {
    writeStackFile(dataDir, { ...stack(process.pid), ses_port: 40125 });
    expect(runningStackSettings({ LAB_DATA_DIR: dataDir }).sesPort).toBe(40125);
    expect(runningStackSettings({ LAB_DATA_DIR: dataDir, SES_PORT: '8006' }).sesPort).toBe(8006);
  });

  it('ignores a stack file whose process has ended', () => {
    const ended = spawnSync(process.execPath, ['-e', '']).pid as number;
    writeStackFile(dataDir, stack(ended));
    expect(portsOf(runningStackSettings({ LAB_DATA_DIR: dataDir }))).toEqual([3000, 8000, 4569]);
  });
});
