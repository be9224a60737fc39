/**
 * The documents bucket's upload prefix: the lab puts report files under `incoming/`, ingest moves each
 * one to its final key. A pure constant with no imports, so infra/ (the CDK app, where the Lambda
 * environment is absent) can use it without loading the S3 client or shared/config.ts.
 */
export const INCOMING_PREFIX = 'incoming/';

/** Where the lab puts HL7 v2 result messages (S3 tells EventBridge, which invokes results-ingest). */
export const HL7_PREFIX = `${INCOMING_PREFIX}hl7/`;
/** Where results-ingest puts the PDFs an HL7 message embeds, before filing them like any upload. */
export const HL7_DOCUMENTS_PREFIX = `${INCOMING_PREFIX}hl7-documents/`;
/**
 * Where results-ingest keeps the files of a report whose barcode matched no order (issue #51), copied from
 * the lab's upload as `unmatched/<unmatched result id>/<n>.pdf` (ids only, never the lab's names), until the
 * report is matched (filed under `documents/` like any report's) or discarded (deleted); a lifecycle rule
 * deletes what is left a day after the unmatched result itself expires (infra/storage.ts).
 */
export const UNMATCHED_PREFIX = 'unmatched/';
