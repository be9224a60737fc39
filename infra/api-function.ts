/**
 * "A Lambda of this service": one handler module of the repository, bundled by the local esbuild into a
 * small ESM file for Node.js 24 on arm64, with the environment shared/config.ts reads. ApiFunction is
 * that Lambda for one row of the routes table, with the table rights its HTTP method implies.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { Route, RouteName } from '../shared/routes';

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
  // The Node.js 24 runtime ships AWS SDK v3: leaving it out keeps bundles (and cold starts) small.
  externalModules: ['@aws-sdk/*'],
  // Prefer the ESM build of dependencies: it tree-shakes, the CJS one does not.
  mainFields: ['module', 'main'],
  // CJS dependencies bundled into an ES module still call require() for Node built-ins.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
} as const;

export interface LabFunctionProps {
  /** Module, relative to the repository root, whose `handler` export the Lambda runs. */
  readonly handlerFile: string;
  readonly description: string;
  readonly table: ITable;
  readonly bucket: IBucket;
  readonly bus: IEventBus;
  /** @default 10 seconds: an API answer takes milliseconds, a stuck one must not hold a container. */
  readonly timeout?: Duration;
}

export class LabFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: LabFunctionProps) {
    super(scope, id);
    // Created here rather than by Lambda on first invocation, so that retention applies from the start.
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    this.function = new NodejsFunction(this, 'Function', {
      description: props.description,
      entry: join(REPO_ROOT, props.handlerFile),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 256,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      // SDK v3 reuses connections by default; the variable would only be noise.
      awsSdkConnectionReuse: false,
      environment: {
        TABLE_NAME: props.table.tableName,
        DOCUMENTS_BUCKET: props.bucket.bucketName,
        EVENT_BUS_NAME: props.bus.eventBusName,
        POWERTOOLS_SERVICE_NAME: 'lab-api',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
      },
      bundling: {
        ...LAMBDA_BUNDLE,
        format: OutputFormat.ESM,
        externalModules: [...LAMBDA_BUNDLE.externalModules],
        mainFields: [...LAMBDA_BUNDLE.mainFields],
        // esbuild is a devDependency: bundling needs no Docker, offline or in CI.
        forceDockerBundling: false,
      },
    });
  }
}

export interface ApiFunctionProps {
  readonly routeName: RouteName;
  readonly route: Route;
  readonly table: ITable;
  readonly bucket: IBucket;
  readonly bus: IEventBus;
}

/** The Lambda of one route. A GET only reads the table; any other method may write and announce events. */
export class ApiFunction extends LabFunction {
  readonly routeName: RouteName;
  readonly route: Route;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const { routeName, route, table, bucket, bus } = props;
    super(scope, id, {
      handlerFile: route.handler,
      description: `${route.method} ${route.path} (${routeName})`,
      table,
      bucket,
      bus,
    });
    this.routeName = routeName;
    this.route = route;
    if (route.method === 'GET') {
      table.grantReadData(this.function);
    } else {
      table.grantReadWriteData(this.function);
      // A state change may put its event on the bus right after its transaction (shared/events/outbox.ts).
      bus.grantPutEventsTo(this.function);
    }
  }
}
