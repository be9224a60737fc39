/**
 * Where the service keeps what it holds (infra/lab-api-stack.ts builds the rest around them): the table, the
 * documents bucket with its server access logs and, with hipaaControls, its AWS Backup, and the event bus
 * with its 30-day archive. Created in the stack itself, so their logical ids are the stack's.
 */
import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { BlockPublicAccess, Bucket, BucketEncryption, type BucketProps, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { UNMATCHED_RETENTION_DAYS } from '../shared/domain/unmatched-results';
import { EVENT_SOURCE } from '../shared/events/event-source';
import { LAB_PARTNER_SOURCE } from '../shared/events/lab-results-reported';
import { GSI1, GSI2 } from '../shared/store/keys';
import { TTL_ATTRIBUTE } from '../shared/store/table';
import { DOCUMENTS_PREFIX, INCOMING_PREFIX, UNMATCHED_PREFIX } from './bucket-layout';
import { type HipaaControls, PatientDataBackup } from './hipaa-controls';
import type { StageName } from './settings';

export interface PatientDataStoresProps {
  readonly stage: StageName;
  readonly removalPolicy: RemovalPolicy;
  /** The stage file's documentRetentionYears: how long a lab report file is kept. */
  readonly documentRetentionYears: number;
  readonly hipaa?: HipaaControls;
  /** A HIPAA finding kept, with its reason (only where the HIPAA checks run). */
  readonly acknowledgeHipaa: (resource: IConstruct, ...acks: { id: `HIPAA.Security-${string}`; reason: string }[]) => void;
}

/**
 * What both buckets are: private (no public access, owner-enforced objects, TLS 1.2 only), encrypted with
 * SSE-S3, and retained, as S3 cannot delete a bucket that still holds objects.
 */
const PRIVATE_BUCKET = {
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  enforceSSL: true,
  minimumTLSVersion: 1.2,
  encryption: BucketEncryption.S3_MANAGED,
  objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
  removalPolicy: RemovalPolicy.RETAIN,
} as const satisfies BucketProps;

export function patientDataStores(scope: Stack, props: PatientDataStoresProps): { table: Table; bucket: Bucket; bus: EventBus } {
  const { stage, removalPolicy, hipaa, acknowledgeHipaa } = props;
  // Keys as shared/store/table.ts declares them for the local stack (test/infra checks they agree).
  const table = new Table(scope, 'Table', {
    partitionKey: { name: 'PK', type: AttributeType.STRING },
    sortKey: { name: 'SK', type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // Idempotency records and other housekeeping items carry their expiry here; DynamoDB deletes them.
    timeToLiveAttribute: TTL_ATTRIBUTE,
    encryption: TableEncryption.DEFAULT,
    // Where data outlives the stack (stage file retainData), deleting it leaves the table, which refuses deletion.
    removalPolicy,
    deletionProtection: removalPolicy === RemovalPolicy.RETAIN,
    // Backups: point-in-time recovery, any second of the last 35 days; with hipaaControls also AWS Backup
    // (below): daily copies for 35 days and monthly ones for a year, outside the table.
  });
  for (const indexName of [GSI1, GSI2]) {
    table.addGlobalSecondaryIndex({
      indexName,
      partitionKey: { name: `${indexName}PK`, type: AttributeType.STRING },
      sortKey: { name: `${indexName}SK`, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
  }

  // Server access logs of the documents bucket: who read or wrote which report file, kept a year.
  const accessLogs = new Bucket(scope, 'AccessLogs', {
    ...PRIVATE_BUCKET,
    // S3 writes each log file once and never overwrites it, so versions cost nothing until someone deletes
    // one: then the audit trail stays recoverable for 30 days.
    versioned: true,
    lifecycleRules: [{ expiration: Duration.days(365), noncurrentVersionExpiration: Duration.days(30) }],
  });
  acknowledgeHipaa(
    accessLogs,
    {
      id: 'HIPAA.Security-S3DefaultEncryptionKMS',
      reason:
        "SSE-S3: S3 delivers server access logs only to a bucket whose default encryption is SSE-S3 (the S3 User Guide's " +
        'requirement for log destination buckets; SSE-KMS is not supported). The records hold request metadata and object ' +
        'keys, which are ids only; no report content.',
    },
    {
      id: 'HIPAA.Security-S3BucketReplicationEnabled',
      reason:
        'No cross-region replication: the access logs stay in the region of the data they describe (a copy elsewhere is a ' +
        'data-residency decision, not ours to make here). Versioning keeps a deleted log file recoverable for 30 days.',
    },
  );

  const bucket = new Bucket(scope, 'Documents', {
    ...PRIVATE_BUCKET,
    // Lab reports are medical records: an overwrite or a delete must be recoverable.
    versioned: true,
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: 'documents-bucket/',
    lifecycleRules: [
      { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(7) },
      {
        // Ingest files each upload under documents/ and deletes it; an upload no report ever named
        // expires after 30 days, and the versions deleted uploads leave behind after 7.
        id: 'expire-incoming',
        prefix: INCOMING_PREFIX,
        expiration: Duration.days(30),
        noncurrentVersionExpiration: Duration.days(7),
      },
      {
        // The files of lab reports that matched no order (issue #51): filed or deleted when one is matched or
        // discarded; what is left expires the day after its unmatched result (90 days, DynamoDB TTL), its
        // deleted versions after 7 days, as the uploads'.
        id: 'expire-unmatched',
        prefix: UNMATCHED_PREFIX,
        expiration: Duration.days(UNMATCHED_RETENTION_DAYS + 1),
        noncurrentVersionExpiration: Duration.days(7),
      },
      {
        // The retention of lab reports (docs/privacy.md "Privacy"): deleted once the lab need no longer keep them.
        // Whole years counted with their leap days, never a day short; a deleted or replaced version stays
        // recoverable for 30 days, then goes too (else versioning would keep every report for ever).
        id: 'expire-documents-after-retention',
        prefix: DOCUMENTS_PREFIX,
        expiration: Duration.days(Math.ceil(props.documentRetentionYears * 365.25)),
        noncurrentVersionExpiration: Duration.days(30),
      },
    ],
  });

  // S3 tells EventBridge (the account's default bus) of every new object: results-ingest's rule takes
  // the lab's HL7 messages from it (infra/lab-events.ts). The CloudFormation property, not the Bucket
  // construct's eventBridgeEnabled, which would add a custom resource and its Lambda to the stack.
  (bucket.node.defaultChild as CfnBucket).addPropertyOverride('NotificationConfiguration.EventBridgeConfiguration.EventBridgeEnabled', true);
  acknowledgeHipaa(
    bucket,
    {
      id: 'HIPAA.Security-S3DefaultEncryptionKMS',
      reason:
        'SSE-S3 (AES-256 at rest) rather than a KMS key: the lab uploads from its own account (labAccountId) and would need a ' +
        "grant on our key, as would every reader (the document route's presigned URLs, ingest's copies, AWS Backup), in prod " +
        'only, so a missing grant would fail there first. Who reads which report is decided per function by IAM, and the ' +
        'server access logs record every read.',
    },
    {
      id: 'HIPAA.Security-S3BucketReplicationEnabled',
      reason:
        "No cross-region replication: a second region's copy of patients' reports is a data-residency decision, not a default. " +
        'Recovery is versioning (a deleted or replaced report stays 30 days) and AWS Backup (daily copies for 35 days, ' +
        'monthly ones for a year, in a vault nobody can empty early).',
    },
  );
  if (hipaa) new PatientDataBackup(scope, 'Backup', { table, documents: bucket });

  const bus = new EventBus(scope, 'Bus', { description: `Lab API events (${stage})` });
  // Every event on the bus for 30 days, ours and the lab's (its account differs from ours):
  // `aws events start-replay` puts them on it again.
  bus.archive('Archive', {
    description: 'Every event of the bus, 30 days, for replay',
    eventPattern: { source: [EVENT_SOURCE, LAB_PARTNER_SOURCE] },
    retention: Duration.days(30),
  });

  return { table, bucket, bus };
}
