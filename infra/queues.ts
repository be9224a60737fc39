/**
 * Every SQS queue of the stack: encrypted with SQS-managed keys (SSE-SQS), TLS only, messages kept the
 * longest SQS allows. SSE-SQS rather than a KMS key: free, nothing to rotate, and a consumer in the lab's
 * account can read it without a key policy. Failed events hold patient data; a stage that retains its data
 * (stage file retainData) keeps the queues when the stack goes.
 */
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption, type QueueProps, RedrivePermission } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { dataPolicyOf } from './data-policy';

export function secureQueue(scope: Construct, id: string, props: QueueProps = {}): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy: dataPolicyOf(scope).removalPolicy,
    ...props,
  });
}

/**
 * A queue that failed deliveries land in; with alarms, its first message alarms (infra/monitoring.ts). It
 * says it is one (a redrive allow policy): what Control Tower's CT.SQS.PR.1 asks of a queue without a
 * dead-letter queue of its own. allowAll is SQS's default, stated; byQueue would name the source queue,
 * which names this one back (a cycle CloudFormation refuses), and Lambda and EventBridge, which put into
 * the ingest's, are no source queue.
 */
export function deadLetterQueue(scope: Construct, id: string): Queue {
  return secureQueue(scope, id, { redriveAllowPolicy: { redrivePermission: RedrivePermission.ALLOW_ALL } });
}
