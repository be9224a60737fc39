/**
 * Reads a fetched font file (shared/report/font-files.ts) from S3. A module of its own so that, deployed, it
 * is a bundle of its own beside the report's (`font-object.mjs`, SIDE_MODULES in infra/route-classes.ts): the
 * S3 client is 235 KB of the report's minified bundle, which every cold start would parse (about 50 ms) for
 * the Chinese and Korean fonts few reports need. The report imports it by that bundle's name, which esbuild
 * leaves to run time there, and which tsx, vitest and TypeScript resolve to this `.mts` source elsewhere.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../documents/s3-client';

export async function readFontObject(bucket: string, key: string): Promise<Uint8Array> {
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if (!Body) throw new Error(`The font object ${key} has no body`);
  return Body.transformToByteArray();
}
