/** Starts DynamoDB Local (in memory) and the S3 emulator once for the integration suite; stops both after. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, startS3Emulator } from '../../infra/local/emulators';
import { freePort } from '../../infra/local/free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    s3Endpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const s3Dir = mkdtempSync(join(tmpdir(), 'lab-s3-'));
  const [dynamodb, s3] = await Promise.all([
    freePort().then((port) => startDynamoDbLocal({ port })),
    freePort().then((port) => startS3Emulator({ port, dataDir: s3Dir })),
  ]);
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  return async () => {
    await Promise.all([dynamodb.stop(), s3.stop()]);
    rmSync(s3Dir, { recursive: true, force: true });
  };
}
