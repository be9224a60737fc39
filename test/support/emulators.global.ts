/**
 * Starts DynamoDB Local (in memory), the S3 emulator and the SES emulator (aws-ses-v2-local, issue #52) once for
 * the integration suite; stops them after. The SES emulator's endpoint is what a test sets SES_ENDPOINT to; what
 * it received reads back with `GET <endpoint>/store` (every file's emails together: tell yours by the address).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, startS3Emulator, startSesEmulator } from '../../infra/local/emulators';
import { freePort } from '../../infra/local/free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    s3Endpoint: string;
    sesEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const s3Dir = mkdtempSync(join(tmpdir(), 'lab-s3-'));
  const [dynamodb, s3, ses] = await Promise.all([
    freePort().then((port) => startDynamoDbLocal({ port })),
    freePort().then((port) => startS3Emulator({ port, dataDir: s3Dir })),
    startSesEmulator({ port: 0 }),
  ]);
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('sesEndpoint', ses.endpoint);
  return async () => {
    await Promise.all([dynamodb.stop(), s3.stop(), ses.stop()]);
    rmSync(s3Dir, { recursive: true, force: true });
  };
}
