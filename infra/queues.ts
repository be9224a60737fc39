/**
 * Every SQS queue of the stack: encrypted with SQS-managed keys (SSE-SQS), TLS only, messages kept the
 * longest SQS allows. SSE-SQS rather than a KMS key: free, nothing to rotate, and a consumer in the lab's
 * account can read it without a key policy. Failed events hold patient data; prod keeps the queues when
 * the stack goes.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Queue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { StageName } from './settings';

export function secureQueue(scope: Construct, id: string, stage: StageName, props: QueueProps = {}): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy: stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    ...props,
  });
}

/** A queue that failed deliveries land in; prod alarms on its first message (infra/monitoring.ts). */
export function deadLetterQueue(scope: Construct, id: string, stage: StageName): Queue {
  return secureQueue(scope, id, stage);
}
