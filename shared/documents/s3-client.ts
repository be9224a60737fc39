/**
 * The S3 client of a container, configured once: S3 in Lambda, the local emulator when S3_ENDPOINT is set.
 * Its own module so that a function reading one object (the report's CJK fonts, shared/report/font-object.mts)
 * bundles the client without the documents' presigner and bucket setting.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';

export const s3 = new S3Client({
  region: config.region,
  ...(config.s3Endpoint
    ? {
        // The local S3 emulator: path-style addressing, and no aws-chunked uploads it would store verbatim.
        endpoint: config.s3Endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        requestChecksumCalculation: 'WHEN_REQUIRED' as const,
        responseChecksumValidation: 'WHEN_REQUIRED' as const,
      }
    : {}),
});
