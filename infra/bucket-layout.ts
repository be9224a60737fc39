/**
 * The documents bucket's two prefixes (shared/documents/s3.ts): the lab uploads report files to
 * `incoming/`, results-ingest files each one under `documents/` and deletes the upload. Only the API
 * serves `documents/`; nothing serves `incoming/`. test/infra checks these against shared/.
 */
export const INCOMING_PREFIX = 'incoming/';
export const DOCUMENTS_PREFIX = 'documents/';

/** As IAM resource patterns (`arn:…:bucket/incoming/*`). */
export const INCOMING_PREFIX_PATTERN = `${INCOMING_PREFIX}*`;
export const DOCUMENTS_PREFIX_PATTERN = `${DOCUMENTS_PREFIX}*`;
