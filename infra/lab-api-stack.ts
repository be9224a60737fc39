/**
 * The whole service in one stack: the table, the documents bucket, the event bus with its archive, one
 * Lambda per row of the routes table behind a REST API whose methods are exactly that table, the outbox
 * relay, results-ingest, the lab orders queue, webhook delivery (queue, dispatcher, retry sweep) and, with
 * the stage file's alarms, the alarms. What a stage keeps, how long it logs and what it alarms on follow
 * from its stage file (infra/settings.ts), never from its name. API Gateway's logging role of the account
 * is the account stack's (infra/account-stack.ts), which this one depends on. This module wires them; the parts live beside it: storage.ts (table, bucket, bus),
 * key-gate.ts (the authorizer), route-methods.ts (functions and methods), gateway-answers.ts (API Gateway's
 * own answers), events-stack.ts, service-monitoring.ts.
 *
 * Decisions (docs/deploy.md "Deploy" says the same for operators):
 * - Table encryption: the AWS-owned key. Data is encrypted at rest either way; a customer-managed KMS key
 *   would add a key policy and a CloudTrail entry per decrypt, for $1/month plus per-request charges,
 *   while who may read the table is already decided per function by IAM.
 * - Bucket encryption: SSE-S3, for the same reason, and because SSE-KMS would bill every GetObject.
 * - Prod (stage file hipaaControls) runs cdk-nag's HIPAA checks too: logs are encrypted with a key of the
 *   stack's own, AWS Backup copies the table and the documents (infra/hipaa-controls.ts), and what the checks
 *   ask for beyond that is acknowledged next to each resource with the reason, as for AwsSolutions.
 * - binaryMediaTypes is the wildcard media range (every type): API Gateway turns the document route's base64
 *   body into bytes only when the request's Accept header matches a binary type, and curl sends the
 *   wildcard, browsers text/html. Every
 *   other route answers JSON with isBase64Encoded false, which passes through as text. Request bodies
 *   then reach the Lambdas base64-encoded (isBase64Encoded true), the bytes as the client sent them, which
 *   shared/http/json-body.ts decodes (UTF-8 only); the mock 405 integration converts them back to text (CONVERT_TO_TEXT).
 */
import { Annotations, Aws, CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat, ApiKeySourceType, EndpointType, LogGroupLogDestination, MethodLoggingLevel, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { AccountPrincipal, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct, IConstruct } from 'constructs';
import { LAB_PARTNER_SOURCE } from '../shared/events/lab-results-reported';
import { AccountStack } from './account-stack';
import { INCOMING_PREFIX_PATTERN } from './bucket-layout';
import { dataPolicy, setDataPolicy } from './data-policy';
import { EventStack } from './events-stack';
import { type HipaaControls, operationalDataKey } from './hipaa-controls';
import { gatewayAnswers } from './gateway-answers';
import { keyGate } from './key-gate';
import { monitorService } from './service-monitoring';
import { routeMethods } from './route-methods';
import { patientDataStores } from './storage';
import { untraceSecretPaths } from './untraced-secret-paths';
import { Waf } from './waf';
import { readSettings, settingsWarnings, type StageFile, type StageName } from './settings';

export type { StageName } from './settings';

export interface LabApiStackProps extends StackProps {
  readonly stage: StageName;
  /** The stage's file; infra/stages/<stage>.ts unless given (a test's variant of it). */
  readonly stageFile?: StageFile;
}

// Named in shared/http/gateway-responses.ts (the local server gives the same answers); re-exported for test/infra.
export { API_KEY_HEADER, MISSING_KEY_MESSAGE } from '../shared/http/gateway-responses';

export { KEY_AUTHORIZER_CACHE_SECONDS } from './key-gate';

/**
 * The API access log: who called what, how it ended and how long it took. No request or response body
 * (API Gateway cannot log those here anyway), no header, no query string, no API key. The route by its
 * template (resourcePath), never the path called: an unsubscribe link's path is its credential (issue #52).
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTimeEpoch',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integration.status',
  integrationLatency: '$context.integration.latency',
  integrationError: '$context.integration.error',
  errorType: '$context.error.responseType',
  errorMessage: '$context.error.message',
  xrayTraceId: '$context.xrayTraceId',
} as const;

export class LabApiStack extends Stack {
  readonly stage: StageName;
  /** The stage holds patient data: cdk-nag's HIPAA checks run on it (infra/app.ts). */
  readonly hipaaControls: boolean;
  /** The stack of the account's shared settings this one depends on; none where the stage file leaves the account alone. */
  readonly accountStack?: AccountStack;

  constructor(scope: Construct, id: string, props: LabApiStackProps) {
    // Read before the stack exists: termination protection is a property of the stack itself.
    const { stageFile, ...stackProps } = props;
    const settings = readSettings(scope, props.stage, stageFile);
    super(scope, id, { terminationProtection: settings.terminationProtection, ...stackProps });
    const { stage } = props;
    this.stage = stage;
    for (const warning of settingsWarnings(stage, settings)) Annotations.of(this).addWarningV2('lab-api:stage-settings', warning);
    // With retainData, data and logs outlive the stack; without, it takes its table, queues and logs with it.
    const policy = dataPolicy(settings);
    setDataPolicy(this, policy);
    const { removalPolicy } = policy;
    // API Gateway's logging role, once per account and region: deployed before this stack, and shared.
    if (settings.apiGatewayCloudWatchRole) {
      this.accountStack = AccountStack.sharedBy(scope);
      this.addStackDependency(this.accountStack, "API Gateway's logging role must be set before a stage logs");
    }
    this.hipaaControls = settings.hipaaControls;
    const hipaa: HipaaControls | undefined = settings.hipaaControls ? { operationalDataKey: operationalDataKey(this, 'OperationalDataKey') } : undefined;
    /** A HIPAA finding kept, with its reason: only where the HIPAA checks run (else the acknowledgement is stale). */
    const acknowledgeHipaa = (resource: IConstruct, ...acks: { id: `HIPAA.Security-${string}`; reason: string }[]) => {
      if (hipaa) Validations.of(resource).acknowledge(...acks);
    };

    // The table, the documents bucket (and its access logs, its backup) and the bus: infra/storage.ts.
    const { table, bucket, bus } = patientDataStores(this, {
      stage,
      removalPolicy,
      documentRetentionYears: settings.documentRetentionYears,
      hipaa,
      acknowledgeHipaa,
    });

    const api = new RestApi(this, 'Api', {
      restApiName: id,
      description: 'Lab Testing Service API',
      endpointTypes: [EndpointType.REGIONAL],
      binaryMediaTypes: ['*/*'],
      // The account's, set by the account stack (infra/account-stack.ts), never one per stage.
      cloudWatchRole: false,
      // Requests are counted against the usage plan of the key the authorizer allowed (infra/key-usage-plan.ts).
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // The routes' paths already carry /api/v1; the stage only tells dev from prod.
      deployOptions: {
        stageName: stage,
        tracingEnabled: true,
        // A ceiling against runaway clients, far above the expected load, so that bills stay bounded.
        throttlingRateLimit: settings.throttle.rateLimit,
        throttlingBurstLimit: settings.throttle.burstLimit,
        accessLogDestination: new LogGroupLogDestination(
          new LogGroup(this, 'ApiAccessLogs', {
            retention: settings.logRetention,
            removalPolicy,
            encryptionKey: hipaa?.operationalDataKey,
          }),
        ),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
        // Execution logs for errors only, never request or response data.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
      },
    });
    // API Gateway traces record the URL: none for the paths that carry a token (the patient's and unsubscribe links).
    untraceSecretPaths(this, stage);
    // The log group API Gateway would otherwise create itself, without retention.
    new LogGroup(this, 'ApiExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${api.restApiId}/${stage}`,
      retention: settings.logRetention,
      removalPolicy,
      encryptionKey: hipaa?.operationalDataKey,
    });
    acknowledgeHipaa(
      api.deploymentStage,
      {
        id: 'HIPAA.Security-APIGWCacheEnabledAndEncrypted',
        reason:
          "No API cache: every answer but /health and the API description is a person's health data or depends on the caller's " +
          'key and scopes, and is sent with Cache-Control: no-store (shared/http/responses.ts). A stage cache would keep health data ' +
          "outside the table's controls and could answer one client with another's data.",
      },
      {
        id: 'HIPAA.Security-APIGWSSLEnabled',
        reason:
          'No backend client certificate: API Gateway presents one only to HTTP backends, to prove a call came from it. Every ' +
          'method here is a Lambda proxy integration (invoked through the Lambda API with IAM, each function permitting its own ' +
          'method on this stage only) or a mock: no certificate would reach any of them.',
      },
    );
    if (settings.wafRequestsPerIp === undefined) {
      Validations.of(api).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          'No WAF web ACL in this stage (stage file wafRequestsPerIp unset): it costs $5/month plus $1 per rule even at idle. Every ' +
          'route but /health and the API description (/api/v1/openapi.json, /docs) needs an API key, answered at the gateway, ' +
          'and each key and the stage are throttled; set wafRequestsPerIp when the API faces abuse.',
      });
    } else {
      new Waf(this, 'Waf', { stage: api.deploymentStage, requestsPerIpPer5Minutes: settings.wafRequestsPerIp, metricPrefix: id });
    }
    Validations.of(api).acknowledge(
      {
        id: 'AwsSolutions-APIG4',
        reason:
          "Authorization is the service's own API keys: checked at the gateway by the API key authorizer on every keyed " +
          'method, then by the route function (hashed keys, scopes, profile and location groups: docs/api-keys.md "API keys"); ' +
          '/health, the OpenAPI document and the docs page are public ' +
          'by design: they hold no data. The mock ANY methods (405, and with corsAllowOrigins the CORS preflight, which ' +
          'browsers send without credentials) answer headers and a fixed error only.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason: 'No Cognito users: clients are clinics and partner systems holding API keys (docs/api-keys.md "API keys").',
      },
    );

    // Bad keys stopped at the gateway, and a request without a key answered there: infra/key-gate.ts.
    const { authorizerFunction, keyAuthorizer, requireKey } = keyGate(this, api, { stage, table, bucket, bus, hipaa });

    // The key the paged lists sign their cursors with (docs/endpoints.md "Pagination"), generated by Secrets Manager at
    // deploy: never in the template or the repository. How it reaches the functions: infra/api-function.ts.
    const cursorSecret = new Secret(this, 'CursorSecret', {
      description: `Signs the page cursors of the Lab API (${stage}): an HMAC key, no credential`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    const noRotation =
      'No scheduled rotation: the secret is an HMAC key for page cursors, not a credential of any service. Rotating only turns ' +
      'the cursors in flight into 400s (clients start the list again), and the functions read it at deploy (a dynamic ' +
      'reference), not at run time; if it ever leaks, put a new value and deploy a change of the paged functions.';
    Validations.of(cursorSecret).acknowledge({ id: 'AwsSolutions-SMG4', reason: noRotation });
    acknowledgeHipaa(
      cursorSecret,
      { id: 'HIPAA.Security-SecretsManagerRotationEnabled', reason: noRotation },
      {
        id: 'HIPAA.Security-SecretsManagerUsingKMSKey',
        reason:
          "Secrets Manager's AWS-managed key: the value is also in the paged functions' configuration (resolved at deploy, " +
          "encrypted by Lambda's AWS-managed key), so a customer key on the secret would guard one copy of two. It signs page " +
          'cursors only: no credential, no patient data.',
      },
    );

    // Browser apps allowed to call the API (docs/deploy.md "CORS"); empty: no CORS header, and OPTIONS answers 405.
    const cors = settings.corsAllowOrigins;

    // Every route: its own function, in its domain's nested stack, and its method here (infra/route-methods.ts).
    const routeFunctions = routeMethods(this, api, {
      stage,
      table,
      bucket,
      bus,
      cursorSecret,
      hipaa,
      cors,
      auditRetentionDays: settings.auditRetentionDays,
      patientPageOrigin: settings.patientPageOrigin,
      requireKey,
      keyAuthorizer,
    });

    // Errors API Gateway answers itself, in the service's {"error": …} shape: infra/gateway-answers.ts.
    gatewayAnswers(api, cors, settings);

    const lab = settings.labAccountId ? new AccountPrincipal(settings.labAccountId) : undefined;
    const events = new EventStack(this, 'Events', {
      stage,
      table,
      bucket,
      bus,
      lab,
      criticalAckMinutes: settings.criticalAckMinutes,
      labInterface: settings.labInterface,
      unmatchedWaitMinutes: settings.unmatchedWaitMinutes,
      labOrdersQueueVersion: settings.labOrdersQueueVersion,
      email: settings.email,
      reminderHoursBefore: settings.reminderHoursBefore,
      patientPageOrigin: settings.patientPageOrigin,
      // What api.url says without its trailing slash, from the API alone (not its stage, which waits for every
      // method): the nested stack gets the API's id as a parameter, and nothing of it flows back.
      apiBaseUrl: `https://${api.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${stage}`,
      hipaa,
    });
    const { ingest, labOrders, webhooks, patientEmail } = events;

    if (lab) {
      // The lab puts its results on this bus, under its own source only…
      bus.addToResourcePolicy(
        new PolicyStatement({
          sid: 'LabPartnerPutsResults',
          principals: [lab],
          actions: ['events:PutEvents'],
          resources: [bus.eventBusArn],
          conditions: { StringEquals: { 'events:source': LAB_PARTNER_SOURCE } },
        }),
      );
      // …uploads its report files under incoming/ (never reads anything back)… and polls its orders (EventStack).
      bucket.addToResourcePolicy(
        new PolicyStatement({ principals: [lab], actions: ['s3:PutObject'], resources: [bucket.arnForObjects(INCOMING_PREFIX_PATTERN)] }),
      );
    }

    // Stage file alarms: alarms on every function, queue, rule and the service levels, and the dashboard (infra/monitoring.ts).
    if (settings.alarms) monitorService(this, { api, table, bus, events, routeFunctions, authorizerFunction, settings, hipaa });

    // ApiUrl replaces the construct's own "Endpoint" output (the same URL under a generated name).
    api.node.tryRemoveChild('Endpoint');
    new CfnOutput(this, 'ApiUrl', { value: api.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'EventBusName', { value: bus.eventBusName });
    new CfnOutput(this, 'LabOrdersQueueUrl', { value: labOrders.queue.queueUrl, description: 'The lab polls LabOrderRequested events here' });
    new CfnOutput(this, 'ResultsIngestDlqUrl', { value: ingest.deadLetterQueue.queueUrl, description: 'Lab reports that could not be stored' });
    new CfnOutput(this, 'WebhooksDlqUrl', { value: webhooks.deadLetterQueue.queueUrl, description: 'Events the webhook dispatcher could not fan out' });
    new CfnOutput(this, 'PatientMessagesDlqUrl', {
      value: patientEmail.deadLetterQueue.queueUrl,
      description: 'Events whose patient email could not be sent (redrive them once SES sends again)',
    });
    new CfnOutput(this, 'EmailFeedbackDlqUrl', {
      value: patientEmail.feedbackDeadLetterQueue.queueUrl,
      description: 'SES bounces and complaints not recorded',
    });
    new CfnOutput(this, 'EmailDkimRecords', {
      value: patientEmail.identity.dkimRecords.map(({ name, value }) => `${name} CNAME ${value}`).join(', '),
      description: "The sender domain's three DKIM records: add them to its DNS, and SES verifies the domain (docs/deploy.md)",
    });
    if (events.labOrderSender) {
      const { deadLetterQueue } = events.labOrderSender;
      new CfnOutput(this, 'LabOrderSenderDlqUrl', { value: deadLetterQueue.queueUrl, description: 'Lab orders the lab never acknowledged (redrive them)' });
    }
  }
}
