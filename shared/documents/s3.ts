/**
 * shared/documents owns the lab report files in S3: the lab uploads to `incoming/`, ingest moves each
 * file to its final key under `documents/`, and the API serves it (bytes, or a short-lived presigned URL
 * for large files). The client is s3-client.ts, which the report's CJK fonts (shared/report/font-object.mts) use too.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound as S3NotFound,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config, requireSetting } from '../config';
import { NotFound } from '../errors';

const bucket = requireSetting(config.documentsBucket, 'DOCUMENTS_BUCKET');

import { s3 } from './s3-client';

export { s3 };

export { INCOMING_PREFIX } from './bucket-layout';

/** Size in bytes of an object, or undefined when there is none. */
export async function objectSize(key: string): Promise<number | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return head.ContentLength ?? 0;
  } catch (error) {
    if (error instanceof S3NotFound || error instanceof NoSuchKey) return undefined;
    throw error;
  }
}

export async function copyObject(from: string, to: string, contentType: string): Promise<void> {
  await s3.send(
    new CopyObjectCommand({
      Bucket: bucket,
      CopySource: `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
      Key: to,
      ContentType: contentType,
      MetadataDirective: 'REPLACE',
    }),
  );
}

/** Deletes an object; with `versionId`, that version only (the one read: a newer upload of the key stays). */
export async function deleteObject(key: string, versionId?: string): Promise<void> {
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: versionId }));
}

/**
 * An object's bytes (that version of it, when one is named), or undefined when it is gone: a document's
 * file, a lab's upload. Above `maxBytes` it is not read (RangeError).
 */
export async function objectBytes(key: string, maxBytes: number, versionId?: string): Promise<Buffer | undefined> {
  let object;
  try {
    object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: versionId }));
  } catch (error) {
    // A version deleted for good answers NoSuchVersion; S3 emulators may say NoSuchKey for both.
    if (error instanceof NoSuchKey || (error instanceof Error && error.name === 'NoSuchVersion')) return undefined;
    throw error;
  }
  if ((object.ContentLength ?? 0) > maxBytes) {
    object.Body?.transformToWebStream().cancel();
    throw new RangeError(`larger than ${maxBytes} bytes`);
  }
  if (!object.Body) throw new Error('S3 object has no body');
  return Buffer.from(await object.Body.transformToByteArray());
}

/** Puts a file under `incoming/` (what ingest extracts from an HL7 message, then files like any upload). */
export async function putUpload(key: string, bytes: Buffer, contentType: string): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType }));
}

/** The lifecycle rule deletes lab report files after their retention period (docs/privacy.md "Privacy"); their records stay. */
export const DOCUMENT_FILE_DELETED = 'The file of this document was deleted after its retention period';

/** A document's file; 404 when it is gone (deleted after its retention period). */
export async function readObject(key: string): Promise<Buffer> {
  const bytes = await objectBytes(key, Number.POSITIVE_INFINITY);
  if (!bytes) throw new NotFound(DOCUMENT_FILE_DELETED);
  return bytes;
}

/** A GET URL for one object, valid for `seconds`, that makes the browser save it under its file name. */
export async function presignDownload(key: string, fileName: string, contentType: string, seconds: number): Promise<string> {
  return getSignedUrl(
    s3,
    new GetObjectCommand({
      Bucket: bucket,
      Key: key,
      ResponseContentType: contentType,
      ResponseContentDisposition: contentDisposition(fileName),
      ResponseCacheControl: 'no-store',
    }),
    { expiresIn: seconds },
  );
}

/** `attachment; filename="…"` with an RFC 5987 fallback for names that are not plain ASCII. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
