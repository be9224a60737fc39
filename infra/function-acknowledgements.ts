/** The HIPAA checks a function does not follow, and why, by how it is invoked (infra/lab-function.ts). */
import { type FunctionOptions } from 'aws-cdk-lib/aws-lambda';
import { type FunctionClass, type Invocation, INVOKED_BY } from './route-classes';

/**
 * Why a function does not follow a HIPAA check, where that is the right call. A function with reserved
 * concurrency, or (invoked asynchronously with data in the event) a dead-letter queue, follows that check:
 * no acknowledgement then, and an `event` function without a dead-letter queue fails the synth.
 */
export function hipaaAcknowledgements(
  functionClass: FunctionClass,
  options: Pick<FunctionOptions, 'reservedConcurrentExecutions' | 'deadLetterQueue' | 'vpc'> | undefined,
): { id: string; reason: string }[] {
  const invocation = INVOKED_BY[functionClass];
  const noDeadLetterQueue = options?.deadLetterQueue ? undefined : NO_DEAD_LETTER_QUEUE[invocation];
  return [
    {
      id: 'HIPAA.Security-IAMNoInlinePolicy',
      reason:
        "The role's policy (AWS::IAM::Policy) belongs to this one function: its class's rights (infra/route-classes.ts), attached " +
        'to this role only and deleted with it. A customer-managed policy per role would be the same document as one more ' +
        'resource per function, in a stack already split for the 500-resource limit, and add no control.',
    },
    // The lab order sender runs in the VPC that routes to the lab (infra/lab-order-sender.ts): it follows the check.
    ...(options?.vpc
      ? []
      : [
          {
            id: 'HIPAA.Security-LambdaInsideVPC',
            reason:
              'No VPC: the function calls AWS service APIs only (DynamoDB, S3, EventBridge, SES, CloudWatch Logs, X-Ray) over TLS, each call ' +
              "authorized by its own role, and reaches nothing inside a VPC (the webhook functions also call clients' HTTPS endpoints, " +
              'private addresses refused). A VPC would need interface endpoints or a NAT gateway, billed hourly, and add no control.',
          },
        ]),
    ...(options?.reservedConcurrentExecutions ? [] : [{ id: 'HIPAA.Security-LambdaConcurrency', reason: NO_RESERVED_CONCURRENCY[invocation] }]),
    ...(noDeadLetterQueue ? [{ id: 'HIPAA.Security-LambdaDLQ', reason: noDeadLetterQueue }] : []),
  ];
}

/** Why a function invoked this way needs no reservation: what bounds it instead (docs/deploy.md "Deploy" on reservations). */
const NO_RESERVED_CONCURRENCY: Record<Invocation, string> = {
  api:
    "No reserved concurrency: a reservation is carved out of the account's pool (a deploy fails on an account whose quota " +
    'cannot spare it, docs/deploy.md "Deploy") and would cap this route below what the stage allows. The API is bounded as a whole ' +
    "before any function runs, by the stage's throttle (stage file, throttle).",
  schedule:
    'No reserved concurrency: its schedule starts one run a minute (or every 5), each ending before the next (its timeout is below ' +
    'the rate), the relay and the retry sweep hold a DynamoDB lease while they work, and the reminder sweep claims each reminder ' +
    'before it sends it. A reservation would only take from the ' +
    'account\'s pool (docs/deploy.md "Deploy").',
  queue:
    "No reserved concurrency: the SQS event source's maximum concurrency (10 webhook dispatchers, infra/webhooks.ts; 5 lab order " +
    'senders, infra/lab-order-sender.ts; 2 patient message senders, infra/patient-email.ts) bounds them without taking from the ' +
    "account's pool; a burst of events waits in the queue instead.",
  event:
    'No reserved concurrency: it runs once per lab report (results-ingest) or SES bounce or complaint (email feedback); when ' +
    'throttled, Lambda retries the asynchronous event for hours ' +
    "(maxEventAge) and then puts it in the dead-letter queue, which alarms. A reservation would only take from the account's pool.",
};

/** Why a function invoked this way has no dead-letter queue; `event` functions need one (undefined: no reason). */
const NO_DEAD_LETTER_QUEUE: Record<Invocation, string | undefined> = {
  api:
    'Invoked synchronously by API Gateway (a Lambda proxy integration, or the request authorizer): the caller receives the ' +
    'failure as a 5xx and may retry. Lambda sends only failed asynchronous invocations to a dead-letter queue: one here would ' +
    'never receive anything. Errors alarm in every stage with alarms (infra/monitoring.ts).',
  schedule:
    'Invoked by an EventBridge schedule, never retried: its event holds nothing but the time, and the next run does the work ' +
    "again. A dead-letter queue would collect empty timer events; a failing run shows as the function's errors, which alarm in every stage with alarms.",
  queue:
    "Invoked by its queue's SQS event source mapping, which is synchronous: an event that keeps failing moves to the " +
    "queue's own dead-letter queue after its receives (WebhooksDLQ after 5, PatientMessagesDLQ after 8, LabOrderSenderDLQ after 20; " +
    "alarmed). A function's DLQ " +
    'takes failed asynchronous invocations only, and there are none.',
  event: undefined,
};
