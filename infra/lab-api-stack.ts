/**
 * The whole service in one stack: the table, the documents bucket, the event bus with its archive, one
 * Lambda per row of the routes table behind a REST API whose methods are exactly that table, the outbox
 * relay, results-ingest, the lab orders queue, webhook delivery (queue, dispatcher, retry sweep) and, in
 * prod, the alarms.
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
import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  ContentHandling,
  EndpointType,
  IdentitySource,
  type IResource,
  LogGroupLogDestination,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  RequestAuthorizer,
  RequestValidator,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { AccountPrincipal, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct, IConstruct } from 'constructs';
import { EVENT_SOURCE } from '../shared/events/event-source';
import { LAB_PARTNER_SOURCE } from '../shared/events/lab-results-reported';
import {
  API_KEY_HEADER,
  type GatewayAnswer,
  keyCheckUnavailable,
  keyWithoutUsagePlan,
  missingKey,
  quotaExceeded,
  stageThrottled,
  unknownPath,
  wrongMethod,
} from '../shared/http/gateway-responses';
import { routeEntries } from '../shared/routes';
import { GSI1, GSI2 } from '../shared/store/keys';
import { TTL_ATTRIBUTE } from '../shared/store/table';
import { LabFunction, routeIntegration } from './api-function';
import { domainOf, ROUTE_DOMAINS, type RouteDomain, RouteStack } from './route-stacks';
import { gatewayResponseCors, gatewayResponseHeaders, wrongMethodMock } from './cors';
import { DOCUMENTS_PREFIX, INCOMING_PREFIX, INCOMING_PREFIX_PATTERN } from './bucket-layout';
import { EventStack } from './events-stack';
import { type HipaaControls, operationalDataKey, PatientDataBackup } from './hipaa-controls';
import { keyUsagePlan } from './key-usage-plan';
import { Waf, wafBlocked } from './waf';
import { Monitoring } from './monitoring';
import { readSettings, settingsWarnings, type StageName } from './settings';

export type { StageName } from './settings';

export interface LabApiStackProps extends StackProps {
  readonly stage: StageName;
}

// Named in shared/http/gateway-responses.ts (the local server gives the same answers); re-exported for test/infra.
export { API_KEY_HEADER, MISSING_KEY_MESSAGE } from '../shared/http/gateway-responses';

/**
 * The API access log: who called what, how it ended and how long it took. No request or response body
 * (API Gateway cannot log those here anyway), no header, no query string, no API key.
 */
/** How long API Gateway keeps the authorizer's answer for one x-api-key value (a revocation still ends within the routes' 60 s). */
export const KEY_AUTHORIZER_CACHE_SECONDS = 60;

export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTimeEpoch',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  path: '$context.path',
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

const json = (body: object) => JSON.stringify(body);

export class LabApiStack extends Stack {
  readonly stage: StageName;
  /** The stage holds patient data: cdk-nag's HIPAA checks run on it (infra/app.ts). */
  readonly hipaaControls: boolean;

  constructor(scope: Construct, id: string, props: LabApiStackProps) {
    // Read before the stack exists: termination protection is a property of the stack itself.
    const settings = readSettings(scope, props.stage);
    super(scope, id, { terminationProtection: settings.terminationProtection, ...props });
    const { stage } = props;
    this.stage = stage;
    for (const warning of settingsWarnings(stage, settings)) Annotations.of(this).addWarningV2('lab-api:stage-settings', warning);
    const prod = stage === 'prod';
    // Data and logs outlive a prod stack; a dev stack takes its table, queues and logs with it.
    const removalPolicy = prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.hipaaControls = settings.hipaaControls;
    const hipaa: HipaaControls | undefined = settings.hipaaControls ? { operationalDataKey: operationalDataKey(this, 'OperationalDataKey') } : undefined;
    /** A HIPAA finding kept, with its reason: only where the HIPAA checks run (else the acknowledgement is stale). */
    const acknowledgeHipaa = (resource: IConstruct, ...acks: { id: `HIPAA.Security-${string}`; reason: string }[]) => {
      if (hipaa) Validations.of(resource).acknowledge(...acks);
    };

    // Keys as shared/store/table.ts declares them for the local stack (test/infra checks they agree).
    const table = new Table(this, 'Table', {
      partitionKey: { name: 'PK', type: AttributeType.STRING },
      sortKey: { name: 'SK', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Idempotency records and other housekeeping items carry their expiry here; DynamoDB deletes them.
      timeToLiveAttribute: TTL_ATTRIBUTE,
      encryption: TableEncryption.DEFAULT,
      // Patient data outlives any stack: deleting a prod stack leaves the table, which refuses deletion.
      removalPolicy,
      deletionProtection: prod,
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
    // Buckets are always retained: S3 cannot delete a bucket that still holds objects.
    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // S3 writes each log file once and never overwrites it, so versions cost nothing until someone deletes
      // one: then the audit trail stays recoverable for 30 days.
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
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

    const bucket = new Bucket(this, 'Documents', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Lab reports are medical records: an overwrite or a delete must be recoverable.
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
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
          // The retention of lab reports (docs/privacy.md "Privacy"): deleted once the lab need no longer keep them.
          // Whole years counted with their leap days, never a day short; a deleted or replaced version stays
          // recoverable for 30 days, then goes too (else versioning would keep every report for ever).
          id: 'expire-documents-after-retention',
          prefix: DOCUMENTS_PREFIX,
          expiration: Duration.days(Math.ceil(settings.documentRetentionYears * 365.25)),
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
    if (hipaa) new PatientDataBackup(this, 'Backup', { table, documents: bucket });

    const bus = new EventBus(this, 'Bus', { description: `Lab API events (${stage})` });
    // Every event on the bus for 30 days, ours and the lab's (its account differs from ours):
    // `aws events start-replay` puts them on it again.
    bus.archive('Archive', {
      description: 'Every event of the bus, 30 days, for replay',
      eventPattern: { source: [EVENT_SOURCE, LAB_PARTNER_SOURCE] },
      retention: Duration.days(30),
    });

    const api = new RestApi(this, 'Api', {
      restApiName: id,
      description: 'Lab Testing Service API',
      endpointTypes: [EndpointType.REGIONAL],
      binaryMediaTypes: ['*/*'],
      cloudWatchRole: settings.apiGatewayCloudWatchRole,
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
            retention: prod ? RetentionDays.ONE_YEAR : RetentionDays.ONE_MONTH,
            removalPolicy,
            encryptionKey: hipaa?.operationalDataKey,
          }),
        ),
        accessLogFormat: AccessLogFormat.custom(json(ACCESS_LOG_FIELDS)),
        // Execution logs for errors only, never request or response data.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
      },
    });
    if (settings.apiGatewayCloudWatchRole) {
      const cloudWatchRole = api.node.findChild('CloudWatchRole');
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          "The region-wide role API Gateway writes logs with: AWS's managed policy for exactly that purpose, " +
          'kept up to date by AWS. Skip it with -c apiGatewayCloudWatchRole=false where the account already has one.',
      });
    }
    // The log group API Gateway would otherwise create itself, without retention.
    new LogGroup(this, 'ApiExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${api.restApiId}/${stage}`,
      retention: prod ? RetentionDays.ONE_YEAR : RetentionDays.ONE_MONTH,
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

    // Bad keys are stopped at the gateway: the authorizer answers a missing, unknown, revoked or expired key
    // (functions/auth/authorizer.ts), its answer cached 60 s per key, so a flood of one bad key costs one
    // invocation and one GetItem a minute, and no route's function runs for any of them.
    const authorizerFunction = new LabFunction(this, 'KeyAuthorizer', {
      stage,
      table,
      bucket,
      bus,
      hipaa,
      handlerFile: 'functions/auth/authorizer.ts',
      description: 'API key authorizer: answers missing, unknown, revoked and expired keys at the gateway',
      functionClass: 'authorizer',
    });
    const keyAuthorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      authorizerName: 'api-key',
      handler: authorizerFunction.function,
      identitySources: [IdentitySource.header(API_KEY_HEADER)],
      resultsCacheTtl: Duration.seconds(KEY_AUTHORIZER_CACHE_SECONDS),
    });

    // A request without a key is answered 401 by API Gateway itself, before any Lambda runs.
    const requireKey = new RequestValidator(this, 'RequireApiKeyHeader', {
      restApi: api,
      requestValidatorName: 'api-key-header',
      validateRequestParameters: true,
      validateRequestBody: false,
    });
    Validations.of(api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Request parameters are validated (the x-api-key header of keyed routes, above). Bodies are validated by the ' +
        'route functions: the checks run in the order 401, 403, then 400, and API Gateway knows neither keys nor ' +
        'scopes, so a body check here would answer 400 to a caller who deserves 401.',
    });

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

    // Every route: its own function, in its domain's nested stack (infra/route-stacks.ts), and its method on
    // the resource of its path, here.
    const routeStacks = (Object.keys(ROUTE_DOMAINS) as RouteDomain[]).flatMap((domain) => {
      const routes = routeEntries.filter(([routeName, route]) => domainOf(routeName, route) === domain);
      if (routes.length === 0) return [];
      // The functions name an allowed origin on their answers (shared/http/cors.ts), from the same list.
      const environment: Record<string, string> = cors.length > 0 ? { CORS_ALLOW_ORIGINS: cors.join(',') } : {};
      const { auditRetentionDays } = settings;
      return [new RouteStack(this, domain, { routes, stage, table, bucket, bus, cursorSecret, api, environment, auditRetentionDays, hipaa })];
    });
    const routeFunctions = routeStacks.flatMap((routeStack) => routeStack.functions);
    const methodsByResource = new Map<IResource, string[]>();
    for (const fn of routeFunctions) {
      const { route } = fn;
      const resource = api.root.resourceForPath(route.path);
      const keyed = route.scopes.length > 0;
      resource.addMethod(
        route.method,
        routeIntegration(fn),
        keyed
          ? {
              requestParameters: { [`method.request.header.${API_KEY_HEADER}`]: true },
              requestValidator: requireKey,
              authorizer: keyAuthorizer,
              authorizationType: AuthorizationType.CUSTOM,
              // Counted, and over its limits refused, by the key's usage plan.
              apiKeyRequired: true,
            }
          : {},
      );
      methodsByResource.set(resource, [...(methodsByResource.get(resource) ?? []), route.method]);
    }

    // A known path with another method: 405 from API Gateway itself (an explicit method wins over ANY); with
    // CORS, an OPTIONS there is the preflight (infra/cors.ts).
    for (const [resource, methods] of methodsByResource) {
      const answer = wrongMethod('$context.httpMethod', methods);
      const mock = wrongMethodMock(answer, methods, cors);
      resource.addMethod(
        'ANY',
        new MockIntegration({
          requestTemplates: { 'application/json': json({ statusCode: answer.statusCode }) },
          // Any body (JSON, text, bytes) still reaches the default response below instead of a 415 or 500.
          passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
          // binaryMediaTypes */* makes every request body binary; a mock integration needs text.
          contentHandling: ContentHandling.CONVERT_TO_TEXT,
          integrationResponses: [
            { statusCode: String(answer.statusCode), responseParameters: mock.responseParameters, responseTemplates: { 'application/json': mock.template } },
          ],
        }),
        { methodResponses: mock.methodResponses },
      );
    }

    // Errors API Gateway answers itself get the service's {"error": …} shape too (and fixed CORS headers: infra/cors.ts).
    const gatewayCors = gatewayResponseCors(cors);
    /** A gateway response that gives one of the answers the local server gives too (shared/http/gateway-responses.ts). */
    const answerWith = (id: string, type: ResponseType, answer: GatewayAnswer) =>
      api.addGatewayResponse(id, {
        type,
        statusCode: String(answer.statusCode),
        templates: { 'application/json': json(answer.body) },
        responseHeaders: { ...gatewayCors, ...gatewayResponseHeaders(answer.headers) },
      });
    // What API Gateway reports for a path with no method, as no route uses IAM auth.
    answerWith('UnknownPath', ResponseType.MISSING_AUTHENTICATION_TOKEN, unknownPath);
    // The only required request parameter of any method is the x-api-key header.
    answerWith('MissingApiKey', ResponseType.BAD_REQUEST_PARAMETERS, missingKey);
    // The authorizer's answers: no identity source (no or an empty header), a key it denied (the route's
    // message, from its context), a lookup that failed (the table could not answer: retry).
    answerWith('AuthorizerMissingKey', ResponseType.UNAUTHORIZED, missingKey);
    api.addGatewayResponse('AuthorizerDeniedKey', {
      type: ResponseType.ACCESS_DENIED,
      statusCode: '401',
      templates: { 'application/json': '{"error":"$context.authorizer.message"}' },
      responseHeaders: gatewayCors,
    });
    // An authorizer that throws or times out is reported as a configuration error, one that answers
    // nonsense as a failure: either way the key could not be checked.
    answerWith('AuthorizerFailed', ResponseType.AUTHORIZER_FAILURE, keyCheckUnavailable);
    answerWith('AuthorizerError', ResponseType.AUTHORIZER_CONFIGURATION_ERROR, keyCheckUnavailable);
    answerWith('StageThrottled', ResponseType.THROTTLED, stageThrottled);
    // A key's usage plan: its day used up, or no plan holds it (issued without --usage-plan).
    keyUsagePlan(api, settings.keyLimits);
    answerWith('KeyQuotaExceeded', ResponseType.QUOTA_EXCEEDED, quotaExceeded);
    answerWith('KeyWithoutUsagePlan', ResponseType.INVALID_API_KEY, keyWithoutUsagePlan);
    // A request the WAF's managed rules blocked (its per-IP rate rule answers 429 itself: infra/waf.ts).
    if (settings.wafRequestsPerIp !== undefined) answerWith('WafBlocked', ResponseType.WAF_FILTERED, wafBlocked);
    api.addGatewayResponse('Default4xx', {
      type: ResponseType.DEFAULT_4XX,
      // messageString is already a quoted JSON string.
      templates: { 'application/json': '{"error":$context.error.messageString}' },
      responseHeaders: gatewayCors,
    });
    api.addGatewayResponse('Default5xx', {
      type: ResponseType.DEFAULT_5XX,
      templates: { 'application/json': json({ error: 'Internal server error' }) },
      responseHeaders: gatewayCors,
    });

    const lab = settings.labAccountId ? new AccountPrincipal(settings.labAccountId) : undefined;
    const events = new EventStack(this, 'Events', { stage, table, bucket, bus, lab, criticalAckMinutes: settings.criticalAckMinutes, hipaa });
    const { relay, ingest, labOrders, webhooks, criticalResults } = events;

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

    if (prod) {
      const monitoring = new Monitoring(this, 'Monitoring', {
        api,
        functions: [
          ...routeFunctions.map((fn) => ({ name: fn.routeName, function: fn })),
          { name: 'outbox relay', function: relay.function },
          { name: 'results-ingest', function: ingest.function },
          { name: 'webhook dispatch', function: webhooks.dispatcher },
          { name: 'webhook retries', function: webhooks.retries },
          { name: 'critical results check', function: criticalResults.function },
          { name: 'API key authorizer', function: authorizerFunction },
        ],
        deadLetterQueues: [
          { name: 'ResultsIngestDLQ', queue: ingest.deadLetterQueue },
          { name: 'LabOrdersDLQ', queue: labOrders.deadLetterQueue },
          { name: 'WebhooksDLQ', queue: webhooks.deadLetterQueue },
        ],
        // How old the oldest message may grow before someone looks: the lab polls its orders (an hour is
        // already a lab that stopped), the dispatcher takes webhook events within seconds.
        queues: [
          { name: 'LabOrders', queue: labOrders.queue, maxAge: Duration.hours(1) },
          { name: 'Webhooks', queue: webhooks.queue, maxAge: Duration.minutes(5) },
        ],
        table,
        // Every rule that invokes something, and the bus it is on (undefined: the account's default bus).
        rules: [
          { name: 'results-ingest (LabResultsReported)', rule: ingest.rule, bus },
          { name: 'results-ingest (HL7 uploads)', rule: ingest.hl7Rule },
          { name: 'lab orders', rule: labOrders.rule, bus },
          { name: 'webhook events', rule: webhooks.rule, bus },
          { name: 'outbox relay schedule', rule: relay.schedule },
          { name: 'webhook retries schedule', rule: webhooks.retrySchedule },
          { name: 'critical results check schedule', rule: criticalResults.schedule },
        ],
        relay: relay.function,
        // Every function that attempts a delivery may be the one that disables a subscription: the
        // dispatcher and the sweep, and the routes that send one (a manual retry counts as a delivery).
        webhookSenders: [
          { name: 'webhook dispatch', function: webhooks.dispatcher },
          { name: 'webhook retries', function: webhooks.retries },
          ...routeFunctions.filter((fn) => fn.functionClass === 'webhook-sender').map((fn) => ({ name: fn.routeName, function: fn })),
        ],
        criticalResultsCheck: { function: criticalResults.function, ackMinutes: settings.criticalAckMinutes },
        apiAccessLogs: this.node.findChild('ApiAccessLogs') as LogGroup,
        hipaa,
        alarmEmail: settings.alarmEmail,
      });
      new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn, description: 'Subscribe on-call to this topic' });
    }

    // ApiUrl replaces the construct's own "Endpoint" output (the same URL under a generated name).
    api.node.tryRemoveChild('Endpoint');
    new CfnOutput(this, 'ApiUrl', { value: api.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'EventBusName', { value: bus.eventBusName });
    new CfnOutput(this, 'LabOrdersQueueUrl', { value: labOrders.queue.queueUrl, description: 'The lab polls LabOrderRequested events here' });
    new CfnOutput(this, 'ResultsIngestDlqUrl', { value: ingest.deadLetterQueue.queueUrl, description: 'Lab reports that could not be stored' });
    new CfnOutput(this, 'WebhooksDlqUrl', { value: webhooks.deadLetterQueue.queueUrl, description: 'Events the webhook dispatcher could not fan out' });
  }
}
