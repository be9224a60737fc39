/**
 * "A Lambda of this service": one handler module of the repository, bundled by the local esbuild into a
 * small ESM file for Node.js 24 on arm64 (infra/bundling.ts; every function of a synth in one build:
 * infra/bundle-all.ts), with the environment shared/config.ts reads, its own log group and its own role
 * holding exactly the rights of its class (infra/route-classes.ts).
 */
import { AssetHashType, DockerImage, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, type FunctionOptions, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { topLevelStack } from './top-level-stack';
import { SANDBOX_PARTITION_PREFIX } from '../shared/sandbox';
import {
  ACCESS_LOG_PARTITION_PREFIX,
  API_KEY_LAST_USE_ATTRIBUTE,
  API_KEY_PARTITION_PREFIX,
  GSI1,
  GSI2,
  PATIENT_LINK_RATE_COUNT_ATTRIBUTE,
  PATIENT_LINK_RATE_PARTITION_PREFIX,
} from '../shared/store/keys';
import { TTL_ATTRIBUTE } from '../shared/store/table';
import { DOCUMENTS_PREFIX_PATTERN, HL7_DOCUMENTS_PREFIX_PATTERN, INCOMING_PREFIX_PATTERN, UNMATCHED_PREFIX_PATTERN } from './bucket-layout';
import type { HipaaControls } from './hipaa-controls';
import {
  AUDIT_ACTIONS,
  FUNCTION_SIZES,
  type FunctionClass,
  AUTHORIZER_ACTIONS,
  KEY_USE_ACTIONS,
  KEY_USE_RECORDERS,
  LINK_COUNT_ACTIONS,
  LINK_REQUEST_COUNTERS,
  CONSENT_WITHDRAWAL_ATTRIBUTES,
  CONSENT_WITHDRAWERS,
  PUBLISHERS,
  SERVICE_LEVEL_CLASSES,
  TABLE_ACTIONS,
} from './route-classes';
import type { RouteName } from '../shared/routes';
import type { StageName } from './settings';
import { type PackageFiles, REPO_ROOT, type SideModules } from './bundling';
import { PrebuiltBundle } from './bundle-all';
import { hipaaAcknowledgements } from './function-acknowledgements';
import { bucketArnAsNagSeesIt, s3Prefixes, s3Statements } from './function-s3-rights';
import { dataPolicyOf } from './data-policy';

/** Powertools configuration, the same for every function. */
export const POWERTOOLS_ENVIRONMENT = {
  POWERTOOLS_SERVICE_NAME: 'lab-api',
  POWERTOOLS_LOG_LEVEL: 'INFO',
  // Never log the incoming event: it holds request bodies and the x-api-key header.
  POWERTOOLS_LOGGER_LOG_EVENT: 'false',
} as const;

/**
 * The CloudWatch namespace of the service's own metrics: the top-level stack's name (`LabApi/LabApi-prod`),
 * whichever nested stack asks, so that two stages in one account never mix.
 */
export function metricsNamespace(scope: Construct): string {
  return `LabApi/${topLevelStack(scope).stackName}`;
}

export interface LabFunctionProps {
  /** Module, relative to the repository root, whose `handler` export the Lambda runs. */
  readonly handlerFile: string;
  readonly description: string;
  readonly functionClass: FunctionClass;
  readonly stage: StageName;
  readonly table: Table;
  readonly bucket: Bucket;
  readonly bus: IEventBus;
  /** Package files the function reads at run time, copied beside its bundle. */
  readonly packageFiles?: PackageFiles;
  /** Modules it imports at run time from beside its bundle, each bundled on its own (SIDE_MODULES). */
  readonly sideModules?: SideModules;
  /** Variables of this function only, beside the ones every function gets. */
  readonly environment?: Readonly<Record<string, string>>;
  /** The route it serves, for a function of the routes table: a few routes have rights beyond their class (UNMATCHED_RESULT_FILERS). */
  readonly routeName?: RouteName;
  /** It records reads in the access log (AUDITED_ROUTES): it may put entries into the access-log partitions. */
  readonly recordsReads?: boolean;
  /** Extras of one function: reserved concurrency, asynchronous invocation settings. */
  readonly options?: Pick<
    FunctionOptions,
    'reservedConcurrentExecutions' | 'deadLetterQueue' | 'retryAttempts' | 'maxEventAge' | 'vpc' | 'vpcSubnets' | 'securityGroups'
  >;
  /** Where the stage runs the HIPAA checks: the key its logs are encrypted with (infra/hipaa-controls.ts). */
  readonly hipaa?: HipaaControls;
}

/**
 * A function's code: its bundle, made by CDK's local bundling from the synth's one build (PrebuiltBundle),
 * hashed by its output as NodejsFunction's was. The image is never pulled: local bundling always succeeds,
 * and a stack CDK does not bundle (`aws:cdk:bundling-stacks`) stages the repository as NodejsFunction did.
 */
function bundledCode(handlerFile: string, sideModules: SideModules, packageFiles: PackageFiles): Code {
  return Code.fromAsset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: { image: DockerImage.fromRegistry('lab-api-bundles-locally'), local: new PrebuiltBundle(handlerFile, sideModules, packageFiles) },
  });
}

export class LabFunction extends Construct {
  readonly function: LambdaFunction;
  readonly functionClass: FunctionClass;
  readonly logGroup: LogGroup;
  /** The module it bundles, relative to the repository root: the bundle benchmark lists the stack's functions by it. */
  readonly handlerFile: string;
  /** What it bundles beside: the bundle benchmark builds the function as the stack does. */
  readonly sideModules: SideModules;

  constructor(scope: Construct, id: string, props: LabFunctionProps) {
    super(scope, id);
    const { functionClass, table, bucket, bus } = props;
    this.functionClass = functionClass;
    this.handlerFile = props.handlerFile;
    const { packageFiles = {}, sideModules = {} } = props;
    this.sideModules = sideModules;
    // Created here rather than by Lambda on first invocation, so that retention applies from the start.
    const { logRetention, removalPolicy } = dataPolicyOf(this);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: logRetention,
      removalPolicy,
      encryptionKey: props.hipaa?.operationalDataKey,
    });
    // Its own role instead of AWSLambdaBasicExecutionRole: logs to its own group only, not to any group.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description} (${functionClass})`.slice(0, 1000),
    });
    this.logGroup.grantWrite(role);
    this.function = new LambdaFunction(this, 'Function', {
      description: props.description,
      code: bundledCode(props.handlerFile, sideModules, packageFiles),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      ...FUNCTION_SIZES[functionClass],
      tracing: Tracing.ACTIVE,
      logGroup: this.logGroup,
      role,
      environment: {
        TABLE_NAME: table.tableName,
        DOCUMENTS_BUCKET: bucket.bucketName,
        EVENT_BUS_NAME: bus.eventBusName,
        ...POWERTOOLS_ENVIRONMENT,
        // Where the metrics go and the route class an SLO is written for (shared/metrics.ts).
        POWERTOOLS_METRICS_NAMESPACE: metricsNamespace(this),
        ...(SERVICE_LEVEL_CLASSES[functionClass] && { LAB_ROUTE_CLASS: SERVICE_LEVEL_CLASSES[functionClass] }),
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      ...props.options,
    });

    if (TABLE_ACTIONS[functionClass].length > 0) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...TABLE_ACTIONS[functionClass]],
          // The indexes by name: a Query on GSI1 is authorized against the index ARN, not the table's.
          resources: [table.tableArn, ...[GSI1, GSI2].map((index) => `${table.tableArn}/index/${index}`)],
        }),
      );
    }
    if (props.recordsReads) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...AUDIT_ACTIONS],
          // The table only (entries are put, never queried through an index), and only access-log partitions,
          // live and sandbox (shared/sandbox.ts). A writing route's class may put anywhere already; the
          // statement keeps the grant equal to the list.
          resources: [table.tableArn],
          conditions: {
            'ForAllValues:StringLike': {
              'dynamodb:LeadingKeys': [`${ACCESS_LOG_PARTITION_PREFIX}*`, `${SANDBOX_PARTITION_PREFIX}${ACCESS_LOG_PARTITION_PREFIX}*`],
            },
          },
        }),
      );
    }
    if (functionClass === 'authorizer') {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...AUTHORIZER_ACTIONS],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${API_KEY_PARTITION_PREFIX}*`] } },
        }),
      );
    }
    if (KEY_USE_RECORDERS.has(functionClass)) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...KEY_USE_ACTIONS],
          resources: [table.tableArn],
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${API_KEY_PARTITION_PREFIX}*`] },
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['PK', 'SK', API_KEY_LAST_USE_ATTRIBUTE] },
          },
        }),
      );
    }
    if (props.routeName && LINK_REQUEST_COUNTERS.includes(props.routeName)) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...LINK_COUNT_ACTIONS],
          // The table only, the counters' partitions only (outside the realm: no sandbox prefix), their count and TTL only.
          resources: [table.tableArn],
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${PATIENT_LINK_RATE_PARTITION_PREFIX}*`] },
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['PK', 'SK', PATIENT_LINK_RATE_COUNT_ATTRIBUTE, TTL_ATTRIBUTE] },
          },
        }),
      );
    }
    if (props.routeName && CONSENT_WITHDRAWERS.includes(props.routeName)) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['dynamodb:UpdateItem'],
          // The table only, live profiles only (an unsubscribe token is only ever a live profile's), the consent only.
          resources: [table.tableArn],
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PROFILE#*'] },
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...CONSENT_WITHDRAWAL_ATTRIBUTES] },
          },
        }),
      );
    }
    if (PUBLISHERS.has(functionClass)) bus.grantPutEventsTo(this.function);
    for (const statement of s3Statements(functionClass, bucket, props.routeName)) role.addToPrincipalPolicy(statement);

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Only xray:PutTraceSegments and xray:PutTelemetryRecords (Tracing.ACTIVE) are on "*": X-Ray has no ' +
        'resource-level permissions. test/infra asserts no other action is granted on "*".',
    });
    // Per function, as each function is its own resource: only its findings, with the reasons of its invocation.
    if (props.hipaa) Validations.of(this).acknowledge(...hipaaAcknowledgements(functionClass, props.options));
    const patterns = s3Prefixes(functionClass, props.routeName);
    if (patterns.length > 0) {
      const bucketArn = bucketArnAsNagSeesIt(this, bucket);
      const why: Record<string, string> = {
        [DOCUMENTS_PREFIX_PATTERN]: 'keys under documents/ are generated per report (documents/<appointment id>/<document id>.pdf)',
        [INCOMING_PREFIX_PATTERN]: 'keys under incoming/ are chosen by the lab, one per uploaded report file',
        [HL7_DOCUMENTS_PREFIX_PATTERN]: 'keys under incoming/hl7-documents/ are derived per HL7 message (<event id>/<n>.pdf)',
        [UNMATCHED_PREFIX_PATTERN]: 'keys under unmatched/ are derived per report that matched no order (<unmatched result id>/<n>.pdf)',
      };
      for (const pattern of patterns) {
        Validations.of(this).acknowledge({
          id: `AwsSolutions-IAM5[Resource::<${bucketArn}>/${pattern}]`,
          reason: `Object-level rights on one prefix of the documents bucket: ${why[pattern]}, so the prefix is the narrowest scope S3 can express.`,
        });
      }
    }
  }
}
