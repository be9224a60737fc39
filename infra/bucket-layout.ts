/**
 * The documents bucket's two prefixes: the lab uploads report files to `incoming/` (defined in
 * shared/documents/bucket-layout.ts, which the report schema uses too), results-ingest files each one
 * under `documents/` and deletes the upload. Only the API serves `documents/`; nothing serves
 * `incoming/`. test/infra checks these against shared/.
 */
import { HL7_DOCUMENTS_PREFIX, INCOMING_PREFIX, UNMATCHED_PREFIX } from '../shared/documents/bucket-layout';

export { INCOMING_PREFIX, UNMATCHED_PREFIX };
export const DOCUMENTS_PREFIX = 'documents/';

/** As IAM resource patterns (`arn:…:bucket/incoming/*`). */
export const INCOMING_PREFIX_PATTERN = `${INCOMING_PREFIX}*`;
export const DOCUMENTS_PREFIX_PATTERN = `${DOCUMENTS_PREFIX}*`;
export const HL7_DOCUMENTS_PREFIX_PATTERN = `${HL7_DOCUMENTS_PREFIX}*`;
export const UNMATCHED_PREFIX_PATTERN = `${UNMATCHED_PREFIX}*`;
