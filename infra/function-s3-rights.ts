/** What a function may do in the documents bucket, by class (infra/lab-function.ts), as cdk-nag names it. */
import { type CfnElement, Names, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { RouteName } from '../shared/routes';
import { DOCUMENTS_PREFIX_PATTERN, HL7_DOCUMENTS_PREFIX_PATTERN, INCOMING_PREFIX_PATTERN, UNMATCHED_PREFIX_PATTERN } from './bucket-layout';
import { type FunctionClass } from './route-classes';

/**
 * The bucket's ARN as cdk-nag names it in a finding about a policy of `scope`: `<logical id>.Arn` in the
 * bucket's own stack, and in a nested stack the parameter CDK passes the ARN in (`referenceto<unique id>Arn`).
 */
export function bucketArnAsNagSeesIt(scope: Construct, bucket: Bucket): string {
  const cfnBucket = bucket.node.defaultChild as CfnElement;
  if (Stack.of(scope) === Stack.of(bucket)) return `${Stack.of(bucket).getLogicalId(cfnBucket)}.Arn`;
  return `referenceto${Names.nodeUniqueId(cfnBucket.node)}Arn`;
}

/**
 * S3 rights by class: the document route reads filed reports; ingest files the lab's uploads, or keeps those of
 * a report that matched no order under `unmatched/`; and by route (UNMATCHED_RESULT_FILERS): a match files
 * those as ingest would, a discard deletes them.
 */
export function s3Statements(functionClass: FunctionClass, bucket: Bucket, routeName?: RouteName): PolicyStatement[] {
  const objects = (pattern: string) => bucket.arnForObjects(pattern);
  if (routeName === 'matchUnmatchedResult') {
    return [
      // The kept files: read (HeadObject, CopyObject source and its tags), deleted once filed.
      new PolicyStatement({ actions: ['s3:GetObject', 's3:GetObjectTagging', 's3:DeleteObject'], resources: [objects(UNMATCHED_PREFIX_PATTERN)] }),
      // Filed as ingest files a report's (shared/usecases/lab-report-files.ts), a failed match's copies deleted again.
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject'],
        resources: [objects(DOCUMENTS_PREFIX_PATTERN)],
      }),
      // HeadObject of a missing key answers 404, not 403, as for ingest.
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
    ];
  }
  if (routeName === 'discardUnmatchedResult') {
    return [new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [objects(UNMATCHED_PREFIX_PATTERN)] })];
  }
  if (functionClass === 'document') {
    return [
      // GetObject also signs the 60 s presigned URL of large files (S3 checks the signer's rights), and
      // allows HeadObject, which checks that a large file is still there before the URL is made.
      new PolicyStatement({ actions: ['s3:GetObject'], resources: [objects(DOCUMENTS_PREFIX_PATTERN)] }),
      // Without ListBucket, S3 answers a missing key with 403, not 404: a file the retention rule deleted
      // would be a 500 instead of the route's 404 "deleted after its retention period". Keys are ids only.
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
    ];
  }
  if (functionClass === 'ingest') {
    return [
      // Read (HeadObject, CopyObject source, an HL7 message) and delete (once filed) the lab's uploads.
      // CopyObject copies the source's tags, which needs GetObjectTagging on the source and
      // PutObjectTagging on the target. An HL7 message is read and deleted as the version S3 announced.
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:GetObjectVersion', 's3:GetObjectTagging', 's3:DeleteObject', 's3:DeleteObjectVersion'],
        resources: [objects(INCOMING_PREFIX_PATTERN)],
      }),
      // The PDFs an HL7 message embeds, put under their own prefix (filed like any upload): never where
      // the lab's messages go, so the ingest cannot announce a message to itself.
      new PolicyStatement({ actions: ['s3:PutObject'], resources: [objects(HL7_DOCUMENTS_PREFIX_PATTERN)] }),
      // A report whose barcode matched no order: its uploads copied under unmatched/<id>/ (issue #51).
      new PolicyStatement({ actions: ['s3:PutObject', 's3:PutObjectTagging'], resources: [objects(UNMATCHED_PREFIX_PATTERN)] }),
      // DeleteObject: a copy filed for a report that then failed is deleted again (ingest-lab-report.ts
      // discardCopies); the bucket is versioned, so a deleted file stays recoverable for 30 days.
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject'],
        resources: [objects(DOCUMENTS_PREFIX_PATTERN)],
      }),
      // Without ListBucket, HeadObject of a missing key answers 403 instead of 404, and ingest could not
      // tell "not uploaded yet" (a rejected report) or "already filed" (a retry) from a failure.
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
    ];
  }
  return [];
}

/** The prefixes a function's object rights name (s3Statements), each acknowledged to cdk-nag with its reason. */
export function s3Prefixes(functionClass: FunctionClass, routeName?: RouteName): string[] {
  if (routeName === 'matchUnmatchedResult') return [UNMATCHED_PREFIX_PATTERN, DOCUMENTS_PREFIX_PATTERN];
  if (routeName === 'discardUnmatchedResult') return [UNMATCHED_PREFIX_PATTERN];
  if (functionClass === 'ingest') return [INCOMING_PREFIX_PATTERN, HL7_DOCUMENTS_PREFIX_PATTERN, UNMATCHED_PREFIX_PATTERN, DOCUMENTS_PREFIX_PATTERN];
  if (functionClass === 'document') return [DOCUMENTS_PREFIX_PATTERN];
  return [];
}
