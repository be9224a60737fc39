/**
 * The whole service in one stack: the table, the documents bucket, the event bus, one Lambda per row of
 * the routes table behind a REST API whose methods are exactly that table, and the outbox relay.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  ContentHandling,
  EndpointType,
  LambdaIntegration,
  MockIntegration,
  PassthroughBehavior,
  type IResource,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { type RouteName, routeEntries } from '../shared/routes';
import { GSI1, GSI2 } from '../shared/store/keys';
import { TTL_ATTRIBUTE } from '../shared/store/table';
import { ApiFunction, LabFunction } from './api-function';

export type StageName = 'dev' | 'prod';

export interface LabApiStackProps extends StackProps {
  readonly stage: StageName;
}

/**
 * Routes that read documents from S3 (shared/documents/s3.ts). Only `documents/` — the files ingest has
 * filed — never the lab's raw uploads under `incoming/`.
 */
const DOCUMENT_READERS: ReadonlySet<RouteName> = new Set<RouteName>(['getDocument']);
const DOCUMENTS_PREFIX = 'documents/*';

/** "getProfile" → "GetProfile": readable construct ids and logical ids. */
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

const json = (body: object) => JSON.stringify(body);

export class LabApiStack extends Stack {
  constructor(scope: Construct, id: string, props: LabApiStackProps) {
    super(scope, id, props);
    const { stage } = props;

    // Keys as shared/store/table.ts declares them for the local stack (test/infra checks they agree).
    const table = new Table(this, 'Table', {
      partitionKey: { name: 'PK', type: AttributeType.STRING },
      sortKey: { name: 'SK', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Patient data outlives any stack: deleting the stack leaves the table, prod refuses to delete it.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: stage === 'prod',
    });
    for (const indexName of [GSI1, GSI2]) {
      table.addGlobalSecondaryIndex({
        indexName,
        partitionKey: { name: `${indexName}PK`, type: AttributeType.STRING },
        sortKey: { name: `${indexName}SK`, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    const bucket = new Bucket(this, 'Documents', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      encryption: BucketEncryption.S3_MANAGED,
      // Lab reports are medical records: an overwrite or a delete must be recoverable.
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(7) }],
    });

    const bus = new EventBus(this, 'Bus');

    const api = new RestApi(this, 'Api', {
      restApiName: id,
      description: 'Lab Testing Service API',
      endpointTypes: [EndpointType.REGIONAL],
      // The routes' paths already carry /api/v1; the stage only tells dev from prod.
      deployOptions: {
        stageName: stage,
        tracingEnabled: true,
        // A ceiling against runaway clients, far above the expected load, so DynamoDB bills stay bounded.
        throttlingRateLimit: 100,
        throttlingBurstLimit: 200,
      },
      // Document downloads are base64 in the Lambda response; these types go out as bytes.
      binaryMediaTypes: ['application/pdf', 'application/octet-stream'],
      // The account-wide CloudWatch role is account configuration, not this stack's to own.
      cloudWatchRole: false,
    });

    // Every route: its own function, its method on the resource of its path.
    const methodsByResource = new Map<IResource, string[]>();
    for (const [routeName, route] of routeEntries) {
      const { function: fn } = new ApiFunction(this, pascal(routeName), { routeName, route, table, bucket, bus });
      if (DOCUMENT_READERS.has(routeName)) bucket.grantRead(fn, DOCUMENTS_PREFIX);
      const resource = api.root.resourceForPath(route.path);
      // No test-invoke permission: one Lambda permission per method instead of two keeps the stack far
      // from CloudFormation's 500-resource limit as routes are added.
      resource.addMethod(route.method, new LambdaIntegration(fn, { allowTestInvoke: false }));
      methodsByResource.set(resource, [...(methodsByResource.get(resource) ?? []), route.method]);
    }

    // A known path with another method: 405 from API Gateway itself (an explicit method wins over ANY).
    for (const [resource, methods] of methodsByResource) {
      const allow = methods.join(', ');
      resource.addMethod(
        'ANY',
        new MockIntegration({
          requestTemplates: { 'application/json': json({ statusCode: 405 }) },
          // Any body (JSON, text, bytes) still reaches the default response below instead of a 415 or 500.
          passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
          contentHandling: ContentHandling.CONVERT_TO_TEXT,
          integrationResponses: [
            {
              statusCode: '405',
              responseParameters: { 'method.response.header.Allow': `'${allow}'` },
              responseTemplates: {
                'application/json': json({ error: `Method $context.httpMethod not allowed; allowed: ${allow}` }),
              },
            },
          ],
        }),
        { methodResponses: [{ statusCode: '405', responseParameters: { 'method.response.header.Allow': true } }] },
      );
    }

    // Errors API Gateway answers itself get the service's {"error": …} shape too.
    api.addGatewayResponse('UnknownPath', {
      // What API Gateway reports for a path with no method, as no route uses IAM auth.
      type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
      statusCode: '404',
      templates: { 'application/json': json({ error: 'Not found' }) },
    });
    api.addGatewayResponse('Default4xx', {
      type: ResponseType.DEFAULT_4XX,
      // messageString is already a quoted JSON string.
      templates: { 'application/json': '{"error":$context.error.messageString}' },
    });
    api.addGatewayResponse('Default5xx', {
      type: ResponseType.DEFAULT_5XX,
      templates: { 'application/json': json({ error: 'Internal server error' }) },
    });

    // Publishes what a request committed to the outbox but could not put on the bus itself.
    const relay = new LabFunction(this, 'OutboxRelay', {
      handlerFile: 'functions/events/relay-outbox.ts',
      description: 'Outbox relay: publishes events older than 30 s, every minute',
      table,
      bucket,
      bus,
      // Below the one-minute schedule, so that two runs never overlap and publish the same entry twice.
      timeout: Duration.seconds(50),
    });
    table.grantReadWriteData(relay.function);
    bus.grantPutEventsTo(relay.function);
    new Rule(this, 'OutboxRelaySchedule', {
      schedule: Schedule.rate(Duration.minutes(1)),
      // The next run retries anyway; an EventBridge retry would only overlap it.
      targets: [new LambdaFunction(relay.function, { retryAttempts: 0 })],
    });

    // ApiUrl replaces the construct's own "Endpoint" output (the same URL under a generated name).
    api.node.tryRemoveChild('Endpoint');
    new CfnOutput(this, 'ApiUrl', { value: api.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'EventBusName', { value: bus.eventBusName });
  }
}
