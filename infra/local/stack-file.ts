/**
 * `<LAB_DATA_DIR>/stack.json`: where a running `npm start` tells the CLIs (keys, lab) its ports, so that a
 * second terminal needs no exported variables. Written when the stack is ready, removed when it stops. A
 * file whose process is gone (the stack was killed outright) is ignored; a variable set explicitly wins.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocalSettings, localSettings } from './environment';

export interface StackFile {
  pid: number;
  api_url: string;
  port: number;
  dynamodb_port: number;
  s3_port: number;
  /** Where the simulated lab listens for MLLP (absent in a stack file of an older start). */
  lab_mllp_port?: number;
  /** Where the SES emulator listens (absent in a stack file of an older start). */
  ses_port?: number;
  started_at: string;
}

export const stackFilePath = (dataDir: string) => join(dataDir, 'stack.json');

export function writeStackFile(dataDir: string, stack: StackFile): void {
  // Written beside it, then renamed: a CLI reading at that moment sees the old file or the new one, never half of one.
  const path = stackFilePath(dataDir);
  writeFileSync(`${path}.${process.pid}.tmp`, `${JSON.stringify(stack, null, 2)}\n`);
  renameSync(`${path}.${process.pid}.tmp`, path);
}

/** Removes the file only if this process wrote it: a second `npm start` that refused to start leaves the first one's. */
export function removeStackFile(dataDir: string): void {
  if (readStackFile(dataDir)?.pid === process.pid) rmSync(stackFilePath(dataDir), { force: true });
}

function readStackFile(dataDir: string): StackFile | undefined {
  try {
    return JSON.parse(readFileSync(stackFilePath(dataDir), 'utf8')) as StackFile;
  } catch {
    return undefined;
  }
}

function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The stack running on this data directory, if any. */
export function runningStack(dataDir: string): StackFile | undefined {
  const stack = readStackFile(dataDir);
  // pid 0 and -1 mean "my process group" and "every process" to kill(): never a stack's.
  return stack && Number.isInteger(stack.pid) && stack.pid > 0 && processRunning(stack.pid) ? stack : undefined;
}

/** The CLIs' settings: each port from its variable when set, else from the running stack, else the default. */
export function runningStackSettings(env: NodeJS.ProcessEnv = process.env): LocalSettings {
  const settings = localSettings(env);
  const stack = runningStack(settings.dataDir);
  if (!stack) return settings;
  const unset = (name: string) => env[name] === undefined || env[name] === '';
  return {
    ...settings,
    port: unset('PORT') ? stack.port : settings.port,
    dynamodbPort: unset('DYNAMODB_PORT') ? stack.dynamodb_port : settings.dynamodbPort,
    s3Port: unset('S3_PORT') ? stack.s3_port : settings.s3Port,
    labMllpPort: unset('LAB_MLLP_PORT') ? (stack.lab_mllp_port ?? settings.labMllpPort) : settings.labMllpPort,
    sesPort: unset('SES_PORT') ? (stack.ses_port ?? settings.sesPort) : settings.sesPort,
  };
}
