/**
 * "A Lambda of this service": one handler module of the repository, bundled by the local esbuild into a
 * small ESM file for Node.js 24 on arm64, with the environment shared/config.ts reads, its own log group
 * and its own role holding exactly the rights of its class (infra/route-classes.ts). ApiFunction is that
 * Lambda for one row of the routes table.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Aws, type CfnElement, Names, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { type IRestApi, Integration, IntegrationType } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, type FunctionOptions, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { operations, type ResponseDoc } from '../shared/contract/operations';
import { AUDITED_ROUTES } from '../shared/http/audited-routes';
import type { Route, RouteName } from '../shared/routes';
import { SANDBOX_PARTITION_PREFIX } from '../shared/sandbox';
import { ACCESS_LOG_PARTITION_PREFIX, API_KEY_LAST_USE_ATTRIBUTE, API_KEY_PARTITION_PREFIX, GSI1, GSI2 } from '../shared/store/keys';
import { DOCUMENTS_PREFIX_PATTERN, HL7_DOCUMENTS_PREFIX_PATTERN, INCOMING_PREFIX_PATTERN } from './bucket-layout';
import type { HipaaControls } from './hipaa-controls';
import {
  AUDIT_ACTIONS,
  FUNCTION_SIZES,
  type FunctionClass,
  AUTHORIZER_ACTIONS,
  type Invocation,
  INVOKED_BY,
  KEY_USE_ACTIONS,
  KEY_USE_RECORDERS,
  PACKAGE_FILES,
  PUBLISHERS,
  routeClassOf,
  SERVICE_LEVEL_CLASSES,
  TABLE_ACTIONS,
} from './route-classes';
import type { StageName } from './settings';

/** Route handler paths are relative to the repository root, whatever directory cdk runs in. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The esbuild settings of every bundle, in one place so that the bundle-size test builds exactly what
 * the construct deploys.
 */
export const LAMBDA_BUNDLE = {
  format: 'esm',
  target: 'node24',
  minify: true,
  sourceMap: true,
  // Stack traces need the mappings only; embedding the sources would double the asset for nothing.
  sourcesContent: false,
  // The AWS SDK is bundled, not taken from the runtime: the SDK team advises against relying on the
  // runtime's pinned copy, and only bundling guarantees that @aws-sdk/lib-dynamodb and
  // s3-request-presigner are there in the versions the tests ran. Tree-shaken and minified, a bundle
  // stays at 0.4–0.6 MB, one file to load (no module resolution across the runtime's node_modules).
  externalModules: [] as string[],
  // Prefer the ESM build of dependencies: it tree-shakes, the CJS one does not.
  mainFields: ['module', 'main'],
  // CJS dependencies bundled into an ES module still call require() for Node built-ins.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
} as const;

/**
 * Powertools configuration, the same for every function. The Tracer (shared/tracer.ts) records the SDK's
 * calls and the keyed routes' handlers; these settings make sure it never puts a response or an error
 * message (patient data) into a trace, nor a webhook's URL (it captures no HTTP request by itself).
 */
export const POWERTOOLS_ENVIRONMENT = {
  POWERTOOLS_SERVICE_NAME: 'lab-api',
  POWERTOOLS_LOG_LEVEL: 'INFO',
  // Never log the incoming event: it holds request bodies and the x-api-key header.
  POWERTOOLS_LOGGER_LOG_EVENT: 'false',
  POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
  POWERTOOLS_TRACER_CAPTURE_ERROR: 'false',
  POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: 'false',
} as const;

/** Files of installed packages, by package name, that a function reads at run time (PACKAGE_FILES). */
export type PackageFiles = Readonly<Record<string, readonly string[]>>;

const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/**
 * The shell commands (NodejsFunction's afterBundling hook) that copy package files beside a bundle:
 * `<outputDir>/node_modules/<package>/<file>`, from the package as installed in the repository, for each
 * file this installed version has. inputDir is the repository root as the bundler sees it (local or Docker).
 */
export function copyPackageFiles(packages: PackageFiles, inputDir: string, outputDir: string): string[] {
  const resolveFromRepo = createRequire(join(REPO_ROOT, 'package.json'));
  return Object.entries(packages).flatMap(([name, files]) => {
    const installed = dirname(resolveFromRepo.resolve(`${name}/package.json`));
    const source = posix.join(inputDir, relative(REPO_ROOT, installed).split(sep).join('/'));
    const target = `${outputDir}/node_modules/${name}`;
    const present = files.filter((file) => existsSync(join(installed, file)));
    // Every folder a file lands in, created first: files may sit in sub-folders of the package (a font's
    // `400Regular/`), and `cp` creates none.
    const folders = [...new Set([target, ...present.map((file) => posix.dirname(`${target}/${file}`))])];
    return [`mkdir -p ${folders.map(quote).join(' ')}`, ...present.map((file) => `cp ${quote(`${source}/${file}`)} ${quote(`${target}/${file}`)}`)];
  });
}

/**
 * The CloudWatch namespace of the service's own metrics: the top-level stack's name (`LabApi/LabApi-prod`),
 * whichever nested stack asks, so that two stages in one account never mix.
 */
export function metricsNamespace(scope: Construct): string {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return `LabApi/${stack.stackName}`;
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
  /** Variables of this function only, beside the ones every function gets. */
  readonly environment?: Readonly<Record<string, string>>;
  /** It records reads in the access log (AUDITED_ROUTES): it may put entries into the access-log partitions. */
  readonly recordsReads?: boolean;
  /** Extras of one function: reserved concurrency, asynchronous invocation settings. */
  readonly options?: Pick<FunctionOptions, 'reservedConcurrentExecutions' | 'deadLetterQueue' | 'retryAttempts' | 'maxEventAge'>;
  /** Where the stage runs the HIPAA checks: the key its logs are encrypted with (infra/hipaa-controls.ts). */
  readonly hipaa?: HipaaControls;
}

export class LabFunction extends Construct {
  readonly function: NodejsFunction;
  readonly functionClass: FunctionClass;
  readonly logGroup: LogGroup;
  /** The module it bundles, relative to the repository root: the bundle benchmark lists the stack's functions by it. */
  readonly handlerFile: string;

  constructor(scope: Construct, id: string, props: LabFunctionProps) {
    super(scope, id);
    const { functionClass, stage, table, bucket, bus } = props;
    this.functionClass = functionClass;
    this.handlerFile = props.handlerFile;
    // Created here rather than by Lambda on first invocation, so that retention applies from the start.
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: stage === 'prod' ? RetentionDays.ONE_YEAR : RetentionDays.ONE_MONTH,
      removalPolicy: stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      encryptionKey: props.hipaa?.operationalDataKey,
    });
    // Its own role instead of AWSLambdaBasicExecutionRole: logs to its own group only, not to any group.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description} (${functionClass})`.slice(0, 1000),
    });
    this.logGroup.grantWrite(role);
    this.function = new NodejsFunction(this, 'Function', {
      description: props.description,
      entry: join(REPO_ROOT, props.handlerFile),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      ...FUNCTION_SIZES[functionClass],
      tracing: Tracing.ACTIVE,
      logGroup: this.logGroup,
      role,
      // SDK v3 reuses connections by default; the variable would only be noise.
      awsSdkConnectionReuse: false,
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
      bundling: {
        ...LAMBDA_BUNDLE,
        format: OutputFormat.ESM,
        externalModules: [...LAMBDA_BUNDLE.externalModules],
        mainFields: [...LAMBDA_BUNDLE.mainFields],
        // esbuild is a devDependency: bundling needs no Docker, offline or in CI.
        forceDockerBundling: false,
        ...(props.packageFiles && {
          commandHooks: {
            beforeBundling: () => [],
            beforeInstall: () => [],
            afterBundling: (inputDir: string, outputDir: string) => copyPackageFiles(props.packageFiles!, inputDir, outputDir),
          },
        }),
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
    if (PUBLISHERS.has(functionClass)) bus.grantPutEventsTo(this.function);
    for (const statement of s3Statements(functionClass, bucket)) role.addToPrincipalPolicy(statement);

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Only xray:PutTraceSegments and xray:PutTelemetryRecords (Tracing.ACTIVE) are on "*": X-Ray has no ' +
        'resource-level permissions. test/infra asserts no other action is granted on "*".',
    });
    // Per function, as each function is its own resource: only its findings, with the reasons of its invocation.
    if (props.hipaa) Validations.of(this).acknowledge(...hipaaAcknowledgements(functionClass, props.options));
    if (functionClass === 'document' || functionClass === 'ingest') {
      const bucketArn = bucketArnAsNagSeesIt(this, bucket);
      const why: Record<string, string> = {
        [DOCUMENTS_PREFIX_PATTERN]: 'keys under documents/ are generated per report (documents/<appointment id>/<document id>.pdf)',
        [INCOMING_PREFIX_PATTERN]: 'keys under incoming/ are chosen by the lab, one per uploaded report file',
        [HL7_DOCUMENTS_PREFIX_PATTERN]: 'keys under incoming/hl7-documents/ are derived per HL7 message (<event id>/<n>.pdf)',
      };
      const patterns =
        functionClass === 'ingest' ? [INCOMING_PREFIX_PATTERN, HL7_DOCUMENTS_PREFIX_PATTERN, DOCUMENTS_PREFIX_PATTERN] : [DOCUMENTS_PREFIX_PATTERN];
      for (const pattern of patterns) {
        Validations.of(this).acknowledge({
          id: `AwsSolutions-IAM5[Resource::<${bucketArn}>/${pattern}]`,
          reason: `Object-level rights on one prefix of the documents bucket: ${why[pattern]}, so the prefix is the narrowest scope S3 can express.`,
        });
      }
    }
  }
}

/**
 * Why a function does not follow a HIPAA check, where that is the right call. A function with reserved
 * concurrency, or (invoked asynchronously with data in the event) a dead-letter queue, follows that check:
 * no acknowledgement then, and an `event` function without a dead-letter queue fails the synth.
 */
function hipaaAcknowledgements(functionClass: FunctionClass, options: LabFunctionProps['options']): { id: string; reason: string }[] {
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
    {
      id: 'HIPAA.Security-LambdaInsideVPC',
      reason:
        'No VPC: the function calls AWS service APIs only (DynamoDB, S3, EventBridge, CloudWatch Logs, X-Ray) over TLS, each call ' +
        "authorized by its own role, and reaches nothing inside a VPC (the webhook functions also call clients' HTTPS endpoints, " +
        'private addresses refused). A VPC would need interface endpoints or a NAT gateway, billed hourly, and add no control.',
    },
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
    'the rate), and the relay and the retry sweep hold a DynamoDB lease while they work. A reservation would only take from the ' +
    'account\'s pool (docs/deploy.md "Deploy").',
  queue:
    "No reserved concurrency: the SQS event source's maximum concurrency (10, infra/webhooks.ts) bounds the dispatchers without " +
    "taking from the account's pool; a burst of events waits in the queue instead.",
  event:
    'No reserved concurrency: it runs once per lab report; when throttled, Lambda retries the asynchronous event for hours ' +
    "(maxEventAge) and then puts it in the dead-letter queue, which alarms. A reservation would only take from the account's pool.",
};

/** Why a function invoked this way has no dead-letter queue; `event` functions need one (undefined: no reason). */
const NO_DEAD_LETTER_QUEUE: Record<Invocation, string | undefined> = {
  api:
    'Invoked synchronously by API Gateway (a Lambda proxy integration, or the request authorizer): the caller receives the ' +
    'failure as a 5xx and may retry. Lambda sends only failed asynchronous invocations to a dead-letter queue: one here would ' +
    'never receive anything. Errors alarm in prod (infra/monitoring.ts).',
  schedule:
    'Invoked by an EventBridge schedule, never retried: its event holds nothing but the time, and the next run does the work ' +
    "again. A dead-letter queue would collect empty timer events; a failing run shows as the function's errors, which alarm in prod.",
  queue:
    "Invoked by the webhook queue's SQS event source mapping, which is synchronous: an event that keeps failing moves to the " +
    "queue's own dead-letter queue after 5 receives (WebhooksDLQ, alarmed). A function's DLQ takes failed asynchronous " +
    'invocations only, and there are none.',
  event: undefined,
};

/**
 * The bucket's ARN as cdk-nag names it in a finding about a policy of `scope`: `<logical id>.Arn` in the
 * bucket's own stack, and in a nested stack the parameter CDK passes the ARN in (`referenceto<unique id>Arn`).
 */
function bucketArnAsNagSeesIt(scope: Construct, bucket: Bucket): string {
  const cfnBucket = bucket.node.defaultChild as CfnElement;
  if (Stack.of(scope) === Stack.of(bucket)) return `${Stack.of(bucket).getLogicalId(cfnBucket)}.Arn`;
  return `referenceto${Names.nodeUniqueId(cfnBucket.node)}Arn`;
}

/** S3 rights by class: the document route reads filed reports; ingest files the lab's uploads. */
function s3Statements(functionClass: FunctionClass, bucket: Bucket): PolicyStatement[] {
  const objects = (pattern: string) => bucket.arnForObjects(pattern);
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

export interface ApiFunctionProps {
  readonly routeName: RouteName;
  readonly route: Route;
  readonly stage: StageName;
  readonly table: Table;
  readonly bucket: Bucket;
  readonly bus: IEventBus;
  /** The key page cursors are signed with: given to the routes that serve paged lists, and to no other. */
  readonly cursorSecret: ISecret;
  /** The API whose method for this route may invoke the function, on the stage of that name only. */
  readonly api: IRestApi;
  /** Variables of this function only, beside the ones every function and the paged lists get. */
  readonly environment?: Readonly<Record<string, string>>;
  /** Where the stage runs the HIPAA checks: the key its logs are encrypted with. */
  readonly hipaa?: HipaaControls;
}

/** A method's path as execute-api ARNs write it: each path parameter is `*`. */
export const pathForArn = (path: string) => path.replace(/\{[^}]+\}/g, '*');

/**
 * The integration of a route's method: a Lambda proxy to its function. Not CDK's LambdaIntegration, which
 * puts the invoke permission beside the method (in the API's stack): here it sits beside the function, in
 * the function's own nested stack (ApiFunction), so that each route costs the API's stack one resource.
 */
export function routeIntegration(fn: ApiFunction): Integration {
  return new Integration({
    type: IntegrationType.AWS_PROXY,
    integrationHttpMethod: 'POST',
    uri: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${fn.function.functionArn}/invocations`,
  });
}

/** A route that answers pages: its contract documents the X-Next-Cursor header (shared/contract/operations.ts). */
export function servesPages(routeName: RouteName): boolean {
  const responses: Readonly<Record<number, ResponseDoc>> = operations[routeName].responses;
  return Object.values(responses).some((response) => response.headers?.['X-Next-Cursor'] !== undefined);
}

/**
 * CURSOR_SECRET reaches a paged list's function as an environment variable holding a CloudFormation dynamic
 * reference, resolved at deploy: no Secrets Manager call at cold start, no SDK client in the bundle, no IAM
 * right on the secret. The price: the value shows in the function's configuration to whoever may read it
 * (lambda:GetFunctionConfiguration, operators who can read the table anyway), and a new value reaches a
 * function only when a deploy updates it (CloudFormation resolves the reference again then, not otherwise). It only signs cursors (shared/store/pages.ts): a leak lets a reader forge a
 * cursor of a list it may already read, nothing more.
 */
const cursorEnvironment = (secret: ISecret) => ({ CURSOR_SECRET: secret.secretValue.unsafeUnwrap() });

/** The Lambda of one route: its class, and so its rights and size, follows from the routes table. */
export class ApiFunction extends LabFunction {
  readonly routeName: RouteName;
  readonly route: Route;
  /** The route records reads in the access log (AUDITED_ROUTES). */
  readonly recordsReads: boolean;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const { routeName, route } = props;
    super(scope, id, {
      ...props,
      handlerFile: route.handler,
      description: `${route.method} ${route.path} (${routeName})`,
      functionClass: routeClassOf(routeName, route),
      packageFiles: PACKAGE_FILES[routeName],
      environment: { ...(servesPages(routeName) && cursorEnvironment(props.cursorSecret)), ...props.environment },
      recordsReads: AUDITED_ROUTES.has(routeName),
    });
    this.routeName = routeName;
    this.route = route;
    this.recordsReads = AUDITED_ROUTES.has(routeName);
    // Only this route's method may invoke it, on this stage only (no test invocations from the console:
    // one permission per route instead of two).
    this.function.addPermission('ApiInvoke', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: props.api.arnForExecuteApi(route.method, pathForArn(route.path), props.stage),
    });
  }
}
