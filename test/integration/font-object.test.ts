/**
 * The read of a fetched font (shared/report/font-object.mts), imported as the report imports it: by the name
 * of the bundle it is deployed as (`./font-object.mjs`), which vitest, like tsx, resolves to the `.mts`
 * source. The deployed path, a bundle beside the report's, is test/integration/deployable.test.ts's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { expect, it } from 'vitest';
import { s3 } from '../../shared/documents/s3-client';

it('reads a font file from S3 by the name the report imports it by', async () => {
  const bytes = randomBytes(64 * 1024);
  const [bucket, key] = [process.env.DOCUMENTS_BUCKET!, `fonts/${randomUUID()}.ttf`];
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
  const { readFontObject } = await import('../../shared/report/font-object.mjs');
  expect(Buffer.from(await readFontObject(bucket, key)).equals(bytes)).toBe(true);
});
